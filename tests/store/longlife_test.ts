/**
 * A local project that takes contributions for long: what a version writes
 * is its own, whatever came before it. Over 1,000 contributions the newest
 * `manifest.json` keeps the size it had at the tenth, each version folder
 * holds the same files, the part stack and provenance logs grow by one line
 * each per version, and the published manifest still names every
 * contribution once (the wire's shape, read from the log).
 *
 * @module
 */
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { withNode } from "../support/node.ts";
import { NOTES, post } from "../support/local_project.ts";

const CONTRIBUTIONS = 1_000;

Deno.test("1,000 contributions: the newest manifest keeps its size, each version writes one line of each log", async () => {
  await withNode({}, async ({ url, store }) => {
    assertEquals((await post(url, "/projects", NOTES)).status, 201);
    const dir = join(store, "notes");
    const sizes = new Map<number, number>();
    for (let c = 1; c <= CONTRIBUTIONS; c++) {
      const records = Array.from({ length: 1 + c % 3 }, (_, j) => ({ id: c * 10 + j, text: `note ${c}.${j}` }));
      const r = await post(url, "/projects/notes/contribute", { records });
      assertEquals([r.status, r.body.mergedVersion], [201, c], r.text);
      if (c === 10 || c === 100 || c === CONTRIBUTIONS) {
        sizes.set(c, (await stat(join(dir, `v${c}`, "manifest.json"))).size);
      }
    }
    const [at10, at100, at1000] = [sizes.get(10)!, sizes.get(100)!, sizes.get(CONTRIBUTIONS)!];
    assert(at1000 <= at10 * 1.05, `manifest.json: ${at10} bytes at v10, ${at1000} at v${CONTRIBUTIONS}`);
    assert(at100 <= at10 * 1.05, `manifest.json: ${at10} bytes at v10, ${at100} at v100`);
    assertEquals(
      await readdir(join(dir, `v${CONTRIBUTIONS}`)),
      ["manifest.json"],
      "a version folder holds its manifest",
    );
    const line = async (log: string) => (await stat(join(dir, "index", log))).size;
    const [parts, provenance] = [await line("parts.log"), await line("provenance.log")];
    assertEquals(parts % CONTRIBUTIONS, 0, "parts.log: whole lines");
    assertEquals(provenance % CONTRIBUTIONS, 0, "provenance.log: whole lines");
    assertEquals([parts / CONTRIBUTIONS, provenance / CONTRIBUTIONS], [224, 288], "one line of each per version");
    const manifest: Json = await (await fetch(`${url}/projects/notes/manifest`)).json();
    const sources = manifest.parts.flatMap((p: Json) => p.sources);
    assertEquals(sources.length, CONTRIBUTIONS, "the published manifest names every contribution once");
    assertEquals(new Set(sources.map((s: Json) => s.mergedInVersion)).size, CONTRIBUTIONS);
    assertEquals(manifest.totals.contributions, CONTRIBUTIONS);
    const diff: Json =
      await (await fetch(`${url}/projects/notes/diff?from=${CONTRIBUTIONS - 100}&to=${CONTRIBUTIONS}&limit=0`)).json();
    assertEquals(diff.addedContributions, 100);
  });
});
