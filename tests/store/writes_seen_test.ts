import { assert, assertEquals } from "../support/assert.ts";
import { stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { storeWritesMade, wroteToStore } from "../../src/store/_writes_seen.ts";
import { runCli, startServe } from "../support/cli_process.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

const NO_KEY = { SVC_API_KEY: "", SVC_NODE_TOKEN: "" };

/** Sets the folder's time a minute back; resolves with that time (ms). */
async function settle(path: string): Promise<number> {
  const longAgo = new Date(Date.now() - 60_000);
  await utimes(path, longAgo, longAgo);
  return longAgo.getTime();
}

Deno.test("a write is counted and stamps the store folder's time; a folder it cannot stamp is left as it is", async () => {
  const dir = await tempDir();
  try {
    const settled = await settle(dir.path);
    const before = storeWritesMade();
    wroteToStore(dir.path);
    assertEquals(storeWritesMade(), before + 1);
    assert((await stat(dir.path)).mtimeMs > settled + 30_000, "stamped now");
    wroteToStore(join(dir.path, "no-such-store"));
    assertEquals(storeWritesMade(), before + 2, "counted all the same");
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc pull into the store of a read-only node stamps the store, and the node's /healthz counts the version at once", async () => {
  const dir = await tempDir();
  const source = join(dir.path, "source");
  const target = join(dir.path, "target");
  await citiesStore(source);
  const origin = await startServe(["--store", source, "--quiet", "--read-only"]);
  try {
    const pull = (ref: string) =>
      runCli(["pull", ref, "--out", target, "--no-progress", "--base-url", origin.url], NO_KEY);
    const first = await pull("cities@1");
    assertEquals(first.code, 0, first.stderr);
    const node = await startServe(["--store", target, "--quiet", "--read-only"]);
    try {
      const health = async () => (await (await fetch(`${node.url}/healthz`)).json()) as { versions: number };
      const settled = await settle(target);
      assertEquals((await health()).versions, 1);
      const second = await pull("cities");
      assertEquals(second.code, 0, second.stderr);
      assert((await stat(target)).mtimeMs > settled + 30_000, "the store folder stamped by the writer");
      assertEquals((await health()).versions, 2);
    } finally {
      node.child.kill("SIGTERM");
      await node.status;
    }
  } finally {
    origin.child.kill("SIGTERM");
    await origin.status;
    await dir.cleanup();
  }
});
