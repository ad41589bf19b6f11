/**
 * The commands that need an agent key on the origin send without one to a
 * node without a token, which takes any call (origin-wire 1.3: the client
 * asks `/healthz` whether it is a node), and refuse before sending anywhere
 * else.
 *
 * @module
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runCli, startServe } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

const NO_KEY = { SVC_API_KEY: "", SVC_NODE_TOKEN: "" };
const KEY_NEEDED = "needs an agent key: --api-key or SVC_API_KEY";

Deno.test("keyless: create, pull, save and edit reach a node without a token; the origin refuses them before sending", async () => {
  const dir = await tempDir();
  const store = join(dir.path, "node");
  await citiesStore(store);
  const node = await startServe(["--store", store, "--quiet"]);
  try {
    const at = ["--base-url", node.url];
    const pulled = await runCli(["pull", "cities", "--out", join(dir.path, "copy"), "--no-progress", ...at], NO_KEY);
    assertEquals(pulled.code, 0, pulled.stderr);
    assertMatch(pulled.stdout, /^cities v2: 600 record\(s\) in 3 part\(s\) → .* \(3 part\(s\) downloaded\)/);
    const bundle = join(dir.path, "cities.svc");
    const cache = join(dir.path, "cache");
    const saved = await runCli(["save", "cities", "-o", bundle, "--cache", cache, "--no-progress", ...at], NO_KEY);
    assertEquals(saved.code, 0, saved.stderr);
    assert((await stat(bundle)).size > 0);
    await writeFile(join(dir.path, "README.md"), "Notes an agent keeps while it works.");
    const created = await runCli([
      "create",
      "notes",
      "--title",
      "Agent notes",
      "--readme-file",
      join(dir.path, "README.md"),
      "--schema",
      '[{"name": "text", "type": "string"}]',
      ...at,
    ], NO_KEY);
    assertEquals(created.code, 0, created.stderr);
    // A node edits no dataset: the call goes, and the node's answer says so (not a missing key).
    const edited = await runCli(["edit", "cities", "--title", "Cities of the world", ...at], NO_KEY);
    assertEquals(edited.code, 1);
    assert(!edited.stderr.includes(KEY_NEEDED), edited.stderr);
    assertMatch(edited.stderr, /\(HTTP 405\)/);
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
  }
  await citiesStore(join(dir.path, "origin"));
  const origin = await startOrigin({ store: join(dir.path, "origin") });
  try {
    const at = ["--base-url", origin.url];
    const runs = await Promise.all([
      runCli(["pull", "cities", "--out", join(dir.path, "none"), ...at], NO_KEY),
      runCli(["edit", "cities", "--title", "Cities of the world", ...at], NO_KEY),
      runCli(["query", "cities", "SELECT 1", "--remote", ...at], NO_KEY),
    ]);
    for (const [run, name] of [[runs[0], "pull"], [runs[1], "edit"], [runs[2], "query"]] as const) {
      assertEquals([run.code, run.stderr.startsWith(`error: svc ${name} ${KEY_NEEDED}`)], [1, true], run.stderr);
    }
    assertEquals(
      origin.seen.map((s) => `${s.method} ${s.path}`).filter((p) =>
        p !== "GET /healthz" && p !== "GET /projects/cities"
      ),
      [],
      "nothing that needs a key was sent",
    );
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
