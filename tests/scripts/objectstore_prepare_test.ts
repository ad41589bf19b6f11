/**
 * scripts/objectstore/prepare.sh and the server it builds: the version it
 * pins is the one the tests look for, it says where the binary is, and the
 * tests' server support starts two servers at once on ports of their own
 * and stops them leaving nothing behind.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { VERSITYGW_VERSION, versitygwPath } from "../../scripts/test_prepare.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { startS3Server } from "../support/s3_server.ts";
import { alive } from "../support/waiting.ts";

Deno.test("prepare.sh pins the version the tests look for and says where the binary is", async () => {
  const script = await readFile(`${ROOT}scripts/objectstore/prepare.sh`, "utf8");
  assertEquals(/^VERSITYGW_VERSION=(\S+)$/m.exec(script)?.[1], VERSITYGW_VERSION);
  const env = { ...Deno.env.toObject() };
  delete env.SVC_VERSITYGW;
  const out = await new Deno.Command("bash", { args: [`${ROOT}scripts/objectstore/prepare.sh`], env, clearEnv: true })
    .output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const printed = /^export SVC_VERSITYGW=(\S+)\n$/.exec(new TextDecoder().decode(out.stdout))?.[1];
  assert(printed && existsSync(printed), `printed ${printed}`);
  if (Deno.env.get("SVC_VERSITYGW") === undefined) assertEquals(printed, versitygwPath());
});

Deno.test("two servers start at once on ports of their own, answer, and stop leaving nothing", async () => {
  const [one, two] = await Promise.all([startS3Server(), startS3Server()]);
  try {
    assert(one.endpoint !== two.endpoint);
    assert(one.accessKeyId !== two.accessKeyId);
    const [a, b] = await Promise.all([one.bucket("one"), two.bucket("two")]);
    await a.put("k", "1");
    assertEquals(await b.head("k"), null);
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
  for (const server of [one, two]) {
    assertEquals([alive(server.child.pid), existsSync(server.root)], [false, false]);
  }
});
