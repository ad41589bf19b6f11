import { assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { tempDir } from "../support/store_fixture.ts";

Deno.test("Ctrl-C during a long client command exits 130", async () => {
  const origin = await startOrigin();
  const dir = await tempDir();
  try {
    origin.fault("/projects/slow/manifest", { delayMs: 20_000 });
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${ROOT}cli.ts`,
        "pull",
        "slow",
        "--store",
        dir.path,
        "--base-url",
        origin.url,
        "--api-key",
        "k",
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    await origin.waitFor("/projects/slow/manifest");
    child.kill("SIGINT");
    assertEquals((await child.status).code, 130);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
