import { assertEquals } from "../support/assert.ts";
import { spawnCli } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { tempDir } from "../support/store_fixture.ts";

Deno.test("Ctrl-C during a long client command exits 130", async () => {
  const origin = await startOrigin();
  const dir = await tempDir();
  try {
    origin.fault("/projects/slow/manifest", { delayMs: 20_000 });
    const child = spawnCli(["pull", "slow", "--store", dir.path, "--base-url", origin.url, "--api-key", "k"]);
    await origin.waitFor("/projects/slow/manifest");
    child.kill("SIGINT");
    assertEquals((await child.status).code, 130);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
