/**
 * The protocol's own Python connector (`delta-sharing`, with pandas and
 * pyarrow, pinned in scripts/readers/requirements.txt) reading a real node
 * with a recipient's profile made by `svc share add`: snapshots (newest,
 * `version=`, `timestamp=`, `limit=`) and the change feed, each compared
 * record for record with the node's own data pages; and the pandas recipe
 * of docs/delta-sharing.md run verbatim. Needs `scripts/readers/prepare.sh`
 * (`deno task test` runs it first); fails saying so when the readers are
 * missing.
 */
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { runReader, shareProfile } from "../support/readers.ts";
import { serveNode } from "../../server.ts";
import { tempDir } from "../support/store_fixture.ts";
import { aggregates, contributeNotes, manifestOf, pageRecords } from "./_tables.ts";
import { pythonRecipes } from "./_recipes.ts";

const TOKEN = "node-token-for-reader-tests";

interface Rows {
  columns: string[];
  rows: Json[][];
}

/** `rows` as records by column name. */
function records(found: Rows): Json[] {
  return found.rows.map((row) => Object.fromEntries(found.columns.map((c, i) => [c, row[i]])));
}

const asRow = (r: Json) => [Number(r.id), r.text ?? r.name, Number(r.score)];

Deno.test("pandas: load_as_pandas newest, version=, timestamp= and limit= equal the node's data pages record for record", async () => {
  await withNode({ token: TOKEN }, async (node) => {
    await contributeNotes(node.url, TOKEN, 6);
    const profile = await shareProfile(node.store, "analysts", join(node.store, "..", "analysts.share"), node.url);
    const v3 = await manifestOf(node.url, TOKEN, "notes", 3);
    const v4 = await manifestOf(node.url, TOKEN, "notes", 4);
    const between = new Date((Date.parse(v3.createdAt) + Date.parse(v4.createdAt)) / 2).toISOString();
    const reads = [
      { name: "newest", snapshot: {} },
      { name: "v2", snapshot: { version: 2 } },
      { name: "at v3", snapshot: { timestamp: v3.createdAt } },
      { name: "between v3 and v4", snapshot: { timestamp: between } },
      { name: "limit", snapshot: { limit: 7 } },
      { name: "v1 limit", snapshot: { version: 1, limit: 2 } },
    ];
    const notes = await runReader<Record<string, Rows>>("pandas_reads.py", {
      profile,
      table: "svc.default.notes",
      reads,
    });
    const want = async (version: number | null) => (await pageRecords(node.url, TOKEN, "notes", version)).map(asRow);
    const got = (name: string) => records(notes.answer[name]).map(asRow);
    assertEquals(notes.answer.newest.columns, ["id", "text", "score"]);
    assertEquals(got("newest"), await want(null));
    assertEquals(got("v2"), await want(2));
    const atV3 = await want(3);
    assert(atV3.length < (await want(null)).length, "v3 is not the newest");
    assertEquals(got("at v3"), atV3);
    assertEquals(got("between v3 and v4"), atV3);
    assertEquals(got("limit"), (await want(null)).slice(0, 7));
    assertEquals(got("v1 limit"), (await want(1)).slice(0, 2));

    // cities: versions of several parts each, a column with nulls
    const cities = await runReader<Record<string, Rows>>("pandas_reads.py", {
      profile,
      table: "svc.default.cities",
      reads: [{ name: "newest", snapshot: {} }, { name: "v1", snapshot: { version: 1 } }],
    });
    const city = (r: Json) => [Number(r.id), r.name, Number(r.population), Number(r.score), r.note ?? null];
    for (const [name, version] of [["newest", 2], ["v1", 1]] as const) {
      const page = await pageRecords(node.url, TOKEN, "cities", version);
      assertEquals(records(cities.answer[name]).map(city), page.map(city), name);
    }
    assertEquals(aggregates(records(cities.answer.newest)), [600, 179_700, 600, 0, 599]);
  });
});

Deno.test("pandas: load_table_changes_as_pandas gives each version's own records, once, with its version and time", async () => {
  await withNode({ token: TOKEN }, async (node) => {
    const added = await contributeNotes(node.url, TOKEN, 8);
    const profile = await shareProfile(node.store, "feed", join(node.store, "..", "feed.share"), node.url);
    const run = await runReader<Record<string, Rows>>("pandas_reads.py", {
      profile,
      table: "svc.default.notes",
      reads: [
        { name: "all", changes: { starting_version: 1 } },
        { name: "from 5", changes: { starting_version: 5 } },
        { name: "3 to 4", changes: { starting_version: 3, ending_version: 4 } },
      ],
    });
    const all = records(run.answer.all);
    assertEquals(
      run.answer.all.columns.filter((c) => c.startsWith("_")).sort(),
      ["_change_type", "_commit_timestamp", "_commit_version"],
    );
    for (let v = 1; v <= added.length; v++) {
      const mine = all.filter((r) => r._commit_version === v);
      assertEquals(mine.map(asRow).sort((a, b) => a[0] - b[0]), added[v - 1].map(asRow), `version ${v}`);
      const manifest = await manifestOf(node.url, TOKEN, "notes", v);
      assert(mine.every((r) => r._change_type === "insert" && r._commit_timestamp === Date.parse(manifest.createdAt)));
    }
    // replaying the feed from the first version gives the newest version, none twice and none lost
    const newest = (await pageRecords(node.url, TOKEN, "notes", null)).map(asRow);
    assertEquals(all.map(asRow).sort((a, b) => a[0] - b[0]), newest.sort((a, b) => a[0] - b[0]));
    const from5 = records(run.answer["from 5"]);
    assertEquals([...new Set(from5.map((r) => r._commit_version))].sort(), [5, 6, 7, 8]);
    assertEquals(from5.length, added.slice(4).flat().length);
    const window = records(run.answer["3 to 4"]);
    assertEquals(window.map(asRow).sort((a, b) => a[0] - b[0]), [...added[2], ...added[3]].map(asRow));
  });
});

Deno.test("docs/delta-sharing.md's pandas recipe runs verbatim against a node, with a profile from svc share add", async () => {
  const dir = await tempDir("svc-recipe-");
  const serving = await serveNode({
    store: join(dir.path, "store"),
    host: "127.0.0.1",
    port: 0,
    token: TOKEN,
    log: null,
  });
  try {
    const added = await contributeNotes(serving.url, TOKEN, 4, "cities");
    await shareProfile(join(dir.path, "store"), "analysts", join(dir.path, "analysts.share"), serving.url);
    const [pandasRecipe] = pythonRecipes(
      await readFile(new URL("../../docs/delta-sharing.md", import.meta.url), "utf8"),
    )
      .filter((r) => r.kind === "pandas");
    const run = await runReader<Record<string, Json>>("recipe.py", { code: pandasRecipe.code, cwd: dir.path });
    assert(run.printed.includes("Table(name='cities', share='svc', schema='default')"), run.printed);
    const all = added.flat();
    assertEquals(run.answer.df, { count: all.length, sum: aggregates(all)[1], distinct: all.length });
    assertEquals(run.answer.old.count, added[0].length);
    const since2 = added.slice(1).flat();
    assertEquals(run.answer.added, { count: since2.length, sum: aggregates(since2)[1], distinct: since2.length });
  } finally {
    await serving.shutdown();
    await dir.cleanup();
  }
});
