/**
 * Read copies (issue 47): a version of many small parts is counted from one
 * file once it has been counted twice; the counts are the parts' own; the
 * copies keep to their bytes; a copy that cannot be read is let go and the
 * parts counted instead; a version of few or large parts, or of parts of
 * other columns, is never copied.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import {
  openReadEngine,
  type ReadEngine,
  viewFacetsAndTotal,
  type ViewShape,
  viewShape,
  type ViewSpec,
} from "../../src/parquet/mod.ts";
import { facetsOf } from "../../src/service/facets.ts";
import {
  type CountSource,
  MIN_PARTS,
  type ReadCopies,
  readCopies,
  worthCopying,
} from "../../src/service/read_copies.ts";
import { openStore, type StoredVersion } from "../../src/store/mod.ts";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { countingLeases } from "./_leases.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import { typedPartSql } from "../parquet/_typed_store.ts";

const FACETS = ["country", "note", "price", "day", "at", "at_tz", "flag", "uid", "small", "huge"];

/** Views counted from the parts and from the copy. */
const VIEWS: ViewSpec[] = [
  { filters: [{ column: "id", op: "gte", values: ["17"] }], search: null, sort: null },
  { filters: [{ column: "country", op: "eq", values: ["c-3"] }], search: null, sort: null },
  { filters: [{ column: "price", op: "lt", values: ["30.5"] }], search: null, sort: null },
  { filters: [{ column: "day", op: "eq", values: ["2026-01-04"] }], search: null, sort: null },
  { filters: [{ column: "note", op: "isnull", values: [] }], search: null, sort: null },
  { filters: [], search: "n2", sort: null },
];

/** A store of `typed` v1 (20 small parts), v2 (v1 and 4 more), `few` (3 parts) and `mixed` (20 parts, two shapes). */
async function withStore(fn: (versions: Record<string, StoredVersion>, engine: ReadEngine) => Promise<void>) {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("typed", 1, { parts: Array.from({ length: 20 }, (_, k) => ({ sql: typedPartSql(k) })) });
    await w.extend("typed", 1, 2, Array.from({ length: 4 }, (_, k) => ({ sql: typedPartSql(20 + k) })));
    await w.version("few", 1, { parts: Array.from({ length: 3 }, (_, k) => ({ sql: typedPartSql(k) })) });
    await w.version("mixed", 1, {
      parts: Array.from({ length: 20 }, (_, k) => ({
        sql: k % 2 ? typedPartSql(k) : `SELECT id, country FROM (${typedPartSql(k)})`,
      })),
    });
    w.close();
    const store = openStore(dir.path);
    const versions = {
      v1: (await store.version("typed", 1))!,
      v2: (await store.version("typed", 2))!,
      few: (await store.version("few", 1))!,
      mixed: (await store.version("mixed", 1))!,
    };
    const engine = await openReadEngine(dir.path);
    try {
      await fn(versions, engine);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
}

/** Counts `version` twice, as a copy asks, waits for the copy, and says where a third count reads. */
async function countedTwice(copies: ReadCopies, version: StoredVersion, shape: ViewShape): Promise<CountSource> {
  copies.countFrom(version, shape);
  copies.countFrom(version, shape);
  await copies.settled();
  return copies.countFrom(version, shape);
}

Deno.test("a version of many small parts is counted from its copy after its second count, and counts the same", async () => {
  await withStore(async ({ v1 }, engine) => {
    const shape = await viewShape(engine, v1.parts.map((p) => p.path));
    assert(v1.parts.length >= MIN_PARTS && worthCopying(v1, shape));
    const leases = countingLeases();
    const copies = readCopies(engine, leases);
    assertEquals(copies.countFrom(v1, shape).copy, false, "counted once: its parts");
    await copies.settled();
    assertEquals(copies.kept().copies, 0, "no copy after one count");
    assertEquals(copies.countFrom(v1, shape).copy, false, "counted twice: its parts, and a copy asked for");
    await copies.settled();
    assertEquals(leases.held, { now: 0, ever: 1 }, "its parts leased while copied, and let go");
    const from = copies.countFrom(v1, shape);
    assertEquals(from.copy, true);
    assertEquals(from.paths.length, 1);
    assert(from.paths[0].startsWith(engine.scratch), from.paths[0]);
    assertEquals(copies.kept().copies, 1);
    const paths = v1.parts.map((p) => p.path);
    for (const view of VIEWS) {
      const fromParts = await viewFacetsAndTotal(engine, paths, shape, view, FACETS, 5);
      assertEquals(
        await viewFacetsAndTotal(engine, from.paths, shape, view, FACETS, 5),
        fromParts,
        JSON.stringify(view),
      );
      assert(fromParts.total > 0 && fromParts.facets.every((f) => f.values.length > 0), JSON.stringify(view));
    }
    // The parts gone, a view not counted before is still counted: from the copy.
    for (const path of paths) await rm(path);
    const view: ViewSpec = { filters: [{ column: "id", op: "lt", values: ["101"] }], search: null, sort: null };
    const counted = await facetsOf({ engine, readCopies: copies }, v1, shape, view, ["flag"], 5);
    assertEquals(counted.total, 101);
    assertEquals(counted.facets[0].values.map((v) => v.count).sort(), [50, 51]);
    const totalOnly: ViewSpec = { filters: [{ column: "id", op: "gte", values: ["700"] }], search: null, sort: null };
    const total = await facetsOf({ engine, readCopies: copies }, v1, shape, totalOnly, [], 5);
    assertEquals(total, { facets: [], total: 100 }, "a filtered view's total alone, from the copy too");
  });
});

Deno.test("a bad filter value is the request's error from a copy too, and the copy stays", async () => {
  await withStore(async ({ v1 }, engine) => {
    const shape = await viewShape(engine, v1.parts.map((p) => p.path));
    const copies = readCopies(engine, countingLeases());
    await countedTwice(copies, v1, shape);
    const bad: ViewSpec = {
      filters: [{ column: "day", op: "eq", values: ["not a day"] }],
      search: null,
      sort: null,
    };
    await assertRejects(() => facetsOf({ engine, readCopies: copies }, v1, shape, bad, ["country"], 5));
    assertEquals(copies.kept().copies, 1);
  });
});

Deno.test("a copy gone from the disk is let go, and the parts are counted instead", async () => {
  await withStore(async ({ v1 }, engine) => {
    const shape = await viewShape(engine, v1.parts.map((p) => p.path));
    const copies = readCopies(engine, countingLeases());
    const [path] = (await countedTwice(copies, v1, shape)).paths;
    await rm(path);
    // A view no other test counts (what a view counts is kept, by the parts' digests).
    const view: ViewSpec = { filters: [{ column: "id", op: "lt", values: ["333"] }], search: null, sort: null };
    const counted = await facetsOf({ engine, readCopies: copies }, v1, shape, view, ["note"], 5);
    assertEquals(counted, await facetsOf({ engine }, v1, shape, view, ["note"], 5));
    assertEquals(copies.kept(), { copies: 0, bytes: 0 });
    assertEquals(copies.countFrom(v1, shape).copy, false);
    copies.countFrom(v1, shape);
    await copies.settled();
    assertEquals(copies.countFrom(v1, shape).copy, false, "a copy that failed is not made again");
  });
});

Deno.test("copies keep to their bytes: the least recently used goes, its file with it", async () => {
  await withStore(async ({ v1, v2 }, engine) => {
    const shape = await viewShape(engine, v2.parts.map((p) => p.path));
    const probe = readCopies(engine, countingLeases());
    const probed = await countedTwice(probe, v2, shape);
    const one = probe.kept().bytes;
    await rm(probed.paths[0]);
    // Room for one copy of either version, not for both.
    const copies = readCopies(engine, countingLeases(), { maxKeptBytes: Math.floor(one * 1.5) });
    const copied = async (v: StoredVersion) => (await countedTwice(copies, v, shape)).paths[0];
    const first = await copied(v1);
    assert(existsSync(first));
    const second = await copied(v2);
    assert(existsSync(second));
    assertEquals(existsSync(first), false, "the older copy's file is removed");
    assertEquals(copies.kept().copies, 1);
    assert(copies.kept().bytes <= one * 1.5);
    assertEquals(copies.countFrom(v1, shape).copy, false, "its version counted from its parts again");
  });
});

Deno.test("a copy whose parts cannot be leased is not made, and the next version's is", async () => {
  await withStore(async ({ v1, v2 }, engine) => {
    const shape = await viewShape(engine, v2.parts.map((p) => p.path));
    let refuse = true;
    const copies = readCopies(engine, {
      lease: () =>
        refuse ? Promise.reject(new Error("429: every part in the cache is leased")) : Promise.resolve(() => {}),
    });
    await countedTwice(copies, v1, shape);
    assertEquals(copies.kept().copies, 0);
    refuse = false;
    await countedTwice(copies, v2, shape);
    assertEquals([copies.countFrom(v2, shape).copy, copies.countFrom(v1, shape).copy], [true, false]);
  });
});

Deno.test("a version of few parts, large parts or parts of other columns is never copied", async () => {
  await withStore(async ({ v1, few, mixed }, engine) => {
    const copies = readCopies(engine, countingLeases());
    for (const v of [few, mixed]) {
      const shape = await viewShape(engine, v.parts.map((p) => p.path));
      for (let i = 0; i < 3; i++) assertEquals(copies.countFrom(v, shape).copy, false);
    }
    const shape = await viewShape(engine, v1.parts.map((p) => p.path));
    const large = { ...v1, parts: v1.parts.map((p) => ({ ...p, bytes: 3 * 1024 ** 2 })) };
    assertEquals(worthCopying(large, shape), false, "parts of 3 MiB on average");
    const huge = { ...v1, parts: v1.parts.map((p) => ({ ...p, bytes: 20 * 1024 ** 2 / 1.0 })) };
    assertEquals(worthCopying({ ...huge, parts: [...huge.parts, ...huge.parts] }, shape), false, "past the most");
    for (let i = 0; i < 3; i++) copies.countFrom(large, shape);
    await copies.settled();
    assertEquals(copies.kept().copies, 0);
  });
});
