import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { runCli, type ServeProcess, startServe } from "../support/cli_process.ts";
import { spawnOrigin } from "../support/origin_process.ts";
import { citiesStore, citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";

const SEEDS = ["77".repeat(32), "88".repeat(32), "99".repeat(32)];

async function health(node: ServeProcess, token?: string): Promise<Json> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return await (await fetch(`${node.url}/healthz`, { headers })).json();
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stop(p: ServeProcess): Promise<void> {
  try {
    p.child.kill("SIGTERM");
  } catch { /* gone already */ }
  await p.status;
}

Deno.test("three processes: origin, a mirror following it, a node following the mirror with --verify", async () => {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  await citiesStore(originStore);
  const origin = await spawnOrigin(originStore, SEEDS[0]);
  const writer = new StoreWriter(originStore);
  const publish = (n: number) => writer.version("cities", n, { parts: [{ sql: citySql(0, 100 * n) }] });
  const mirrorTrust = join(dir.path, "mirror-trust.json");
  const nodeTrust = join(dir.path, "node-trust.json");
  const processes: ServeProcess[] = [];
  try {
    const pinned = await runCli(["trust", "add", "--base-url", origin.url], { SVC_TRUST_FILE: nodeTrust });
    assertEquals(pinned.code, 0, pinned.stderr);
    // The mirror pins nothing: it passes signatures through without judging them.
    const common = ["--follow", "cities", "--interval", "1", "--base-url", origin.url, "--api-key", "agent-key"];
    const mirror = await startServe(
      ["--store", join(dir.path, "mirror"), "--token", "mirror-token", ...common],
      { SVC_TRUST_FILE: mirrorTrust },
    );
    processes.push(mirror);
    const node = await startServe(
      [
        "--store",
        join(dir.path, "node"),
        ...common,
        "--upstream",
        mirror.url,
        "--upstream-token",
        "mirror-token",
        "--verify",
      ],
      { SVC_TRUST_FILE: nodeTrust },
    );
    processes.push(node);

    await until("the node holds v2, verified", async () => {
      const f = (await health(node)).follow.cities;
      return f.version === 2 && f.signature === "verified";
    });
    assertEquals((await health(node)).follow.cities.from, mirror.url);
    assertEquals((await health(mirror, "mirror-token")).follow.cities.from, origin.url);

    const k1 = JSON.parse(await readFile(nodeTrust, "utf8")).origins[origin.url][0].kid;
    const k2 = ((await origin.control("rotate", { seed: SEEDS[1] })) as { kid: string }).kid;
    await publish(3);
    await until("the node holds v3 signed by the rotated key", async () => {
      const f = (await health(node)).follow.cities;
      return f.version === 3 && f.signature === "verified";
    });
    const keys: Json[] = JSON.parse(await readFile(nodeTrust, "utf8")).origins[origin.url];
    assertEquals(keys.find((k) => k.kid === k2)?.endorsedBy, k1, "the chain was followed");

    await origin.control("revoke", { kid: k2 });
    await origin.control("rotate", { seed: SEEDS[2] });
    await publish(4);
    await until("the mirror, which does not verify, holds v4", async () => {
      return (await health(mirror, "mirror-token")).follow.cities.version === 4;
    });
    await until("the node refused v4", async () => /v4 is untrusted/.test((await health(node)).follow.cities.error));
    const refused = (await health(node)).follow.cities;
    assertEquals([refused.version, refused.signature], [3, "untrusted"]);
    const afterRevocation: Json[] = JSON.parse(await readFile(nodeTrust, "utf8")).origins[origin.url];
    assertEquals(afterRevocation.find((k) => k.kid === k2)?.revoked, true, "the node learned the revocation");
    assertEquals((await health(mirror, "mirror-token")).follow.cities.signature, "untrusted", "no key pinned there");
    const page: Json = await (await fetch(`${node.url}/projects/cities/data?limit=1`)).json();
    assertEquals(page.version, 3, "the node keeps serving the version it trusts");

    await origin.stop();
    await until("the mirror reports the origin gone", async () => {
      const f = (await health(mirror, "mirror-token")).follow.cities;
      return f.error !== null && /cannot reach|refused/i.test(f.error);
    });
    const mirrorStatus = (await health(mirror, "mirror-token")).follow.cities;
    assertEquals(mirrorStatus.version, 4);
    const served: Json = await (await fetch(`${mirror.url}/projects/cities/data?limit=1000`, {
      headers: { authorization: "Bearer mirror-token" },
    })).json();
    assertEquals([served.version, served.count], [4, 400], "the mirror keeps serving with the origin down");
    assertMatch(mirror.stderr(), /follow cities: .*cannot reach/);
    const nodeHealth = await health(node);
    assert(nodeHealth.follow.cities.version === 3);
  } finally {
    writer.close();
    for (const p of processes) await stop(p);
    try {
      origin.child.kill("SIGKILL");
    } catch { /* stopped already */ }
    await origin.child.status;
    await dir.cleanup();
  }
});
