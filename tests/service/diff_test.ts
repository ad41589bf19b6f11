/**
 * Diffs between versions from the parts' provenance: which rows and
 * contributions a range of versions added (folded parts, contributions split
 * over parts, gaps and sources without a version), the honest refusal where
 * provenance is missing, and `versionDiff` over a real store of pulled
 * versions whose parts list their sources (records read by row range, a
 * part with its own `file_row_number` column, `mergedAt` from manifests).
 *
 * @module
 */
import { join } from "node:path";
import { readFile, writeFile } from "node:fs/promises";
import { assertEquals, assertRejects, type Json } from "../support/assert.ts";
import { addedRecords, type NodeState, versionDiff } from "../../src/service/mod.ts";
import { NodeError } from "../../src/errors/mod.ts";
import { openReadEngine, pageReader } from "../../src/parquet/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

const src = (contributionId: string | null, mergedInVersion: number | null, records: number, offset: number) => ({
  contributionId,
  agentId: contributionId === null ? null : `agent-${contributionId}`,
  mergedInVersion,
  records,
  offset,
});

/** The error `fn` throws, which must be a NodeError. */
function thrown(fn: () => unknown): NodeError {
  try {
    fn();
  } catch (e) {
    if (e instanceof NodeError) return e;
    throw e;
  }
  throw new Error("no error thrown");
}

Deno.test("addedRecords: rows of the sources merged in (from, to], in order, adjacent ranges joined", () => {
  // v1: a (10), v2: b (5) folded with a into part 1, v3: c (4) in part 2, v4: d (6) split over parts 2 and 3.
  const parts = [
    { entry: { sources: [src("a", 1, 10, 0), src("b", 2, 5, 10)] }, rows: 15 },
    { entry: { sources: [src("c", 3, 4, 0), src("d", 4, 2, 4)] }, rows: 6 },
    { entry: { sources: [src("d", 4, 4, 0)] }, rows: 4 },
  ];
  const all = addedRecords(parts, 0, 4);
  assertEquals(all.ranges, [{ offset: 0, records: 25 }]);
  assertEquals(all.fragments, [
    { version: 1, contributionId: "a", agent: "agent-a", accepted: 10 },
    { version: 2, contributionId: "b", agent: "agent-b", accepted: 5 },
    { version: 3, contributionId: "c", agent: "agent-c", accepted: 4 },
    { version: 4, contributionId: "d", agent: "agent-d", accepted: 6 },
  ]);
  assertEquals(addedRecords(parts, 1, 4).ranges, [{ offset: 10, records: 15 }]);
  assertEquals(addedRecords(parts, 2, 4).ranges, [{ offset: 15, records: 10 }]);
  assertEquals(addedRecords(parts, 3, 4), {
    ranges: [{ offset: 19, records: 6 }],
    fragments: [{ version: 4, contributionId: "d", agent: "agent-d", accepted: 6 }],
  });
  assertEquals(addedRecords(parts, 4, 5), { ranges: [], fragments: [] }, "nothing merged after 4");
});

Deno.test("addedRecords: several contributions in one version ordered by id; sources listed out of order are sorted", () => {
  const parts = [{ entry: { sources: [src("z", 2, 3, 5), src("m", 2, 2, 3), src("a", 1, 3, 0)] }, rows: 8 }];
  const got = addedRecords(parts, 1, 2);
  assertEquals(got.fragments.map((f) => f.contributionId), ["m", "z"]);
  assertEquals(got.ranges, [{ offset: 3, records: 5 }]);
  const unnamed = [{ entry: { sources: [src(null, 2, 3, 0), src(null, 2, 4, 3)] }, rows: 7 }];
  assertEquals(addedRecords(unnamed, 1, 2).fragments.map((f) => [f.contributionId, f.accepted]), [[null, 3], [
    null,
    4,
  ]]);
});

Deno.test("addedRecords: unknown rows before a source merged by `from` are older than the range; otherwise 409", () => {
  // Part 1 was pulled without sources; part 2 holds v2 and v3's records, in merge order.
  const parts = [
    { entry: {}, rows: 50 },
    { entry: { sources: [src("b", 2, 3, 0), src("c", 3, 3, 3)] }, rows: 6 },
  ];
  assertEquals(addedRecords(parts, 2, 3).ranges, [{ offset: 53, records: 3 }]);
  for (const from of [0, 1]) {
    const e = thrown(() => addedRecords(parts, from, 3));
    assertEquals([e.kind, e.status], ["conflict", 409]);
    assertEquals(
      e.message,
      `version 3's parts carry no provenance for 50 of its records (part 1), so this node cannot tell what was added ${
        from === 0 ? "since nothing" : "after version 1"
      }: ask the origin`,
    );
  }
  const folded = [{ entry: { sources: [src(null, null, 10, 0), src("b", 2, 5, 10)] }, rows: 15 }];
  assertEquals(addedRecords(folded, 2, 3).ranges, [], "a source without its version, before the range");
  assertEquals(thrown(() => addedRecords(folded, 1, 2)).kind, "conflict");
});

Deno.test("addedRecords: gaps, overlaps, rows beyond the part and versions after `to` are not guessed at", () => {
  const gap = [{ entry: { sources: [src("a", 1, 5, 0), src("b", 2, 3, 7)] }, rows: 10 }];
  assertEquals(thrown(() => addedRecords(gap, 1, 2)).message.includes("no provenance for 2 of its records"), true);
  const tail = [{ entry: { sources: [src("a", 1, 5, 0)] }, rows: 10 }];
  assertEquals(thrown(() => addedRecords(tail, 0, 2)).message.includes("no provenance for 5 of its records"), true);
  const overlap = [{ entry: { sources: [src("a", 1, 5, 0), src("b", 2, 3, 4)] }, rows: 8 }];
  assertEquals(thrown(() => addedRecords(overlap, 1, 2)).message.includes("no provenance for 8 of its records"), true);
  const beyond = [{ entry: { sources: [src("a", 1, 12, 0)] }, rows: 10 }];
  assertEquals(thrown(() => addedRecords(beyond, 0, 1)).kind, "conflict");
  const malformed = [{ entry: { sources: [{ ...src("a", 1, 10, 0), records: "10" }] }, rows: 10 }];
  assertEquals(thrown(() => addedRecords(malformed, 0, 1)).kind, "conflict");
  const later = [{ entry: { sources: [src("a", 1, 5, 0), src("b", 7, 5, 5)] }, rows: 10 }];
  assertEquals(
    thrown(() => addedRecords(later, 0, 2)).message,
    "version 2's part 1 says it holds records merged in version 7, so this node cannot tell what changed: ask the origin",
  );
});

/** Adds `sources` to the parts of a version's stored manifest, as an origin lists them. */
async function giveSources(root: string, slug: string, n: number, sources: unknown[][]): Promise<void> {
  const file = join(root, slug, `v${n}`, "manifest.json");
  const manifest = JSON.parse(await readFile(file, "utf8"));
  manifest.parts.forEach((p: Record<string, unknown>, i: number) => p.sources = sources[i]);
  await writeFile(file, JSON.stringify(manifest));
}

const rows = (from: number, n: number, extra = "") =>
  `SELECT (${from} + i)::BIGINT AS id, 'r' || (${from} + i) AS name${extra} FROM range(${n}) r(i)`;

Deno.test("versionDiff over pulled versions with sources: records by row range, mergedAt from the manifests", async () => {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    const w = new StoreWriter(dir.path);
    try {
      // v2 (not held), v3 and v4 held; the last part has a column of its own named file_row_number.
      await w.version("pulled", 3, {
        parts: [{ sql: rows(0, 30), rowGroupSize: 8 }],
        extra: { createdAt: "2026-11-03T00:00:00Z" },
      });
      await giveSources(dir.path, "pulled", 3, [[src("a", 1, 10, 0), src("b", 2, 12, 10), src("c", 3, 8, 22)]]);
      await w.version("pulled", 4, {
        parts: [{ sql: rows(0, 30), rowGroupSize: 8 }, { sql: rows(30, 5, ", 7 AS file_row_number") }],
        extra: { createdAt: undefined, publishedAt: "2026-11-04T00:00:00Z" },
      });
      await giveSources(dir.path, "pulled", 4, [
        [src("a", 1, 10, 0), src("b", 2, 12, 10), src("c", 3, 8, 22)],
        [src("d", 4, 5, 0)],
      ]);
    } finally {
      w.close();
    }
    const state = { store: openStore(dir.path), pages: pageReader(engine) } as Pick<NodeState, "store" | "pages">;
    const diff = async (from: number, to: number, limit: number) =>
      JSON.parse(await versionDiff(state, "pulled", { from, to, limit })) as Json;
    const d = await diff(1, 4, 500);
    assertEquals([d.project, d.from, d.to, d.addedContributions, d.addedRecords], ["pulled", 1, 4, 3, 25]);
    assertEquals(d.fragments, [
      { version: 2, contributionId: "b", agent: "agent-b", accepted: 12, mergedAt: null },
      { version: 3, contributionId: "c", agent: "agent-c", accepted: 8, mergedAt: "2026-11-03T00:00:00Z" },
      { version: 4, contributionId: "d", agent: "agent-d", accepted: 5, mergedAt: "2026-11-04T00:00:00Z" },
    ]);
    const expected = Array.from({ length: 25 }, (_, i) => ({ id: 10 + i, name: `r${10 + i}` }));
    assertEquals(d.records.slice(0, 20), expected.slice(0, 20));
    assertEquals(
      d.records.slice(20),
      expected.slice(20).map((r) => ({ ...r, file_row_number: 7 })),
      "a part's own file_row_number column",
    );
    assertEquals((await diff(1, 4, 13)).records, d.records.slice(0, 13));
    const counts = await diff(0, 3, 0);
    assertEquals([counts.addedContributions, counts.addedRecords, counts.records], [3, 30, []]);
    await assertRejects(() => diff(2, 2, 1), /0 <= from < to/);
    await assertRejects(() => diff(1, 2, 1), /version 2 is not on this node \(newest 4, 2 versions held\)/);
    await assertRejects(() => diff(1, 4, 501), /limit must be >= 0 and <= 500/);
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});
