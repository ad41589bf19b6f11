import { assert, assertEquals, type Json } from "../support/assert.ts";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { startServe } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

Deno.test("follow: a node killed in the middle of a sync leaves no half version, and the next start completes it", async () => {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  const { v2 } = await citiesStore(originStore);
  const origin = await startOrigin({ store: originStore, seed: "bb".repeat(32) });
  const store = join(dir.path, "node");
  const args = ["--store", store, "--follow", "cities", "--base-url", origin.url, "--api-key", "agent-key"];
  try {
    const slowPart = (v2.manifest.parts as Json[])[1].sha256;
    origin.fault(`/parts/cities/${slowPart}.parquet`, { delayMs: 20_000 });
    const first = await startServe(args);
    await origin.waitFor(slowPart);
    first.child.kill("SIGKILL");
    await first.status;
    const names = await readdir(join(store, "cities")).catch(() => []);
    assert(!names.some((n) => /^v\d+$/.test(n)), `no version after the crash: ${names}`);

    const second = await startServe(args);
    try {
      let status: Json = null;
      for (let i = 0; i < 150 && status?.version !== 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await (await fetch(`${second.url}/healthz`)).json()).follow.cities;
      }
      assertEquals([status.version, status.error], [2, null]);
      const parts = await readdir(join(store, "cities", "parts"));
      assertEquals(parts.filter((n) => n.startsWith(".tmp-")), [], "the next sync cleared what the crash left");
      const page: Json = await (await fetch(`${second.url}/projects/cities/data?limit=1000`)).json();
      assertEquals(page.count, 600);
    } finally {
      second.child.kill("SIGTERM");
      await second.status;
    }
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
