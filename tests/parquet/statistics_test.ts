/**
 * Column statistics of a version (issue 29), every figure compared with the
 * same figure computed by DuckDB directly on the parts (or, for strings and
 * booleans, counted here from the values DuckDB reads): nulls, unicode and
 * empty strings, integers beyond 2^53, NaN and infinities, booleans, dates,
 * a list column, a column only some parts have, an empty version.
 *
 * @module
 */
import { DuckDBInstance, type DuckDBValue } from "@duckdb/node-api";
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import { columnKind, columnStatistics, openReadEngine, statisticsText } from "../../src/parquet/mod.ts";
import { parseExactJson } from "../../src/wire/mod.ts";

/** Rows `from` to `from + n` of the mixed fixture; `late` says whether the part has the column `late`. */
function mixedSql(from: number, n: number, late: boolean): string {
  return `SELECT (${from} + i)::BIGINT AS id,
    CASE WHEN i % 7 = 0 THEN NULL ELSE 9007199254740993::BIGINT + (${from} + i) * 1000003 END AS big,
    (-9223372036854775807 - 1)::BIGINT + (${from} + i) AS neg,
    18446744073709551615::UBIGINT - (${from} + i)::UBIGINT AS ub,
    CASE WHEN (${from} + i) = 1 THEN -10.1 WHEN (${from} + i) % 50 = 0 THEN 'NaN'::DOUBLE
      WHEN (${from} + i) % 51 = 0 THEN 'inf'::DOUBLE WHEN (${from} + i) % 11 = 0 THEN NULL
      ELSE (${from} + i) * 0.25 - 10 END AS score,
    ((${from} + i) / 3.0)::FLOAT AS f32,
    ((${from} + i) * 1.01)::DECIMAL(12,2) AS dec,
    ((${from} + i) % 5 + 1)::INTEGER AS rating,
    CASE WHEN (${from} + i) % 13 = 0 THEN NULL WHEN (${from} + i) % 17 = 0 THEN ''
      WHEN (${from} + i) % 3 = 0 THEN 'Zürich' WHEN (${from} + i) % 3 = 1 THEN '東京 😀'
      ELSE 'city-' || (${from} + i) END AS name,
    ['a', 'b', 'c', 'd'][(${from} + i) % 4 + 1] AS cat,
    CASE WHEN (${from} + i) % 9 = 0 THEN NULL ELSE (${from} + i) % 2 = 0 END AS flag,
    CASE WHEN (${from} + i) % 10 = 3 THEN NULL ELSE DATE '2020-01-01' + (${from} + i)::INTEGER END AS day,
    TIMESTAMP '2020-01-01 00:00:00' + INTERVAL (${from} + i) HOUR AS at,
    CASE WHEN (${from} + i) % 4 = 0 THEN NULL ELSE [(${from} + i) % 3, (${from} + i) % 2] END AS tags,
    repeat('x', 250) || ((${from} + i) % 2) AS long,
    '{"k":1}' AS _extra
    ${late ? `, 'L' || ((${from} + i) % 3) AS late` : ""}
    FROM range(${n}) r(i)`;
}

async function withParts(
  fn: (parts: { root: string; mixed: string[]; empty: string[] }) => Promise<void>,
): Promise<void> {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    const mixed = await w.version("mixed", 1, {
      parts: [{ sql: mixedSql(0, 300, false), rowGroupSize: 64 }, { sql: mixedSql(300, 200, true) }],
    });
    const empty = await w.version("empty", 1, { parts: [{ sql: `${mixedSql(0, 1, false)} WHERE false` }] });
    w.close();
    await fn({ root: dir.path, mixed: mixed.partPaths, empty: empty.partPaths });
  } finally {
    w.close();
    await dir.cleanup();
  }
}

/** DuckDB asked directly: one query's one row. */
async function direct(db: DuckDBInstance, sql: string, params: DuckDBValue[] = []): Promise<DuckDBValue[]> {
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql, params)).getRows()[0];
  } finally {
    c.closeSync();
  }
}

async function directValues(db: DuckDBInstance, sql: string): Promise<DuckDBValue[]> {
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql)).getRows().map((r) => r[0]);
  } finally {
    c.closeSync();
  }
}

/** A DuckDB value as the answer's exact JSON reads back: safe integers as numbers, bigger ones as bigint. */
function exact(value: DuckDBValue): Json {
  if (value === null) return null;
  if (typeof value === "bigint") return value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : value;
  if (typeof value === "number") return value;
  const text = String(value);
  return /^-?\d+\.\d+$/.test(text) ? Number(text) : text;
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
const codePoints = (s: string) => Array.from(s).length;

async function checkNumber(db: DuckDBInstance, from: string, col: Json, records: number): Promise<void> {
  const c = `"${col.name}"`;
  const finite = col.type === "DOUBLE" || col.type === "FLOAT" ? `FILTER (WHERE isfinite(${c}))` : "";
  const [nulls, distinct, min, max, mean, quantiles] = await direct(
    db,
    `SELECT count(*) FILTER (WHERE ${c} IS NULL), least(approx_count_distinct(${c}), count(${c})), min(${c}) ${finite}, ` +
      `max(${c}) ${finite}, avg(${c}::DOUBLE) ${finite}, ` +
      `approx_quantile(${c}, [0.05, 0.25, 0.5, 0.75, 0.95]) ${finite} FROM ${from}`,
  );
  assertEquals([col.nulls, col.distinct], [Number(nulls), Number(distinct)], col.name);
  const f32 = (v: Json) => col.type === "FLOAT" ? Math.fround(Number(v)) : v;
  assertEquals([f32(col.min), f32(col.max)], [exact(min), exact(max)], col.name);
  assert(near(Number(col.mean), mean as number), `${col.name} mean ${col.mean} ${mean}`);
  const expected = (quantiles as { items: DuckDBValue[] }).items.map(exact);
  const got = ["p05", "p25", "p50", "p75", "p95"].map((k) => col.quantiles[k]);
  if (/INT/.test(col.type)) {
    // An integer column's quantiles are kept within its min and max (DuckDB's may pass them by rounding).
    const [lo, hi] = [BigInt(min as bigint | number), BigInt(max as bigint | number)];
    const clamp = (v: Json) => String(BigInt(v) < lo ? lo : BigInt(v) > hi ? hi : BigInt(v));
    assertEquals(got.map((v) => String(v)), expected.map(clamp), `${col.name} quantiles`);
  } else assertEquals(got.map(f32), expected.map(f32), `${col.name} quantiles`);
  await checkHistogram(db, from, col, records - col.nulls);
}

/** Bins are contiguous over [min, max], at most 20, and each counts what DuckDB counts in [from, to) (the last: [from, to]). */
async function checkHistogram(db: DuckDBInstance, from: string, col: Json, values: number): Promise<void> {
  const bins = col.histogram as Json[];
  assert(bins.length >= 1 && bins.length <= 20, col.name);
  assertEquals([bins[0].from, bins[bins.length - 1].to], [col.min, col.max], col.name);
  for (let i = 1; i < bins.length; i++) assertEquals(bins[i].from, bins[i - 1].to, col.name);
  const c = `"${col.name}"`;
  const cast = /INT/.test(col.type) ? "HUGEINT" : "DOUBLE";
  const counted: number[] = [];
  for (const [i, b] of bins.entries()) {
    const upper = i === bins.length - 1 ? "<=" : "<";
    const [n] = await direct(
      db,
      `SELECT count(*) FROM ${from} WHERE ${c}::${cast} >= CAST($1 AS ${cast}) AND ${c}::${cast} ${upper} CAST($2 AS ${cast})`,
      [String(b.from), String(b.to)],
    );
    counted.push(Number(n));
  }
  assertEquals(bins.map((b) => b.count), counted, `${col.name} histogram`);
  if (col.type !== "DOUBLE") assertEquals(counted.reduce((a, n) => a + n, 0), values, col.name);
}

async function checkString(db: DuckDBInstance, from: string, col: Json): Promise<void> {
  const values = (await directValues(db, `SELECT "${col.name}" FROM ${from}`)).map((v) => v as string | null);
  const present = values.filter((v): v is string => v !== null);
  const counts = new Map<string, number>();
  for (const v of present) counts.set(v, (counts.get(v) ?? 0) + 1);
  assertEquals([col.nulls, col.distinct], [values.length - present.length, counts.size], col.name);
  const top = await directValues(
    db,
    `SELECT "${col.name}" FROM ${from} WHERE "${col.name}" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 10`,
  );
  const cut = (v: string) => codePoints(v) > 200 ? Array.from(v).slice(0, 200).join("") + "…" : v;
  assertEquals(col.topValues, top.map((v) => ({ value: cut(v as string), count: counts.get(v as string) })), col.name);
  const lengths = present.map(codePoints);
  const mean = lengths.length ? lengths.reduce((a, n) => a + n, 0) / lengths.length : null;
  assertEquals([col.lengths.min, col.lengths.max], [
    lengths.length ? Math.min(...lengths) : null,
    lengths.length ? Math.max(...lengths) : null,
  ]);
  assert(mean === null ? col.lengths.mean === null : near(col.lengths.mean, mean), col.name);
}

async function checkColumn(db: DuckDBInstance, from: string, col: Json, records: number): Promise<void> {
  const c = `"${col.name}"`;
  if (col.kind === "number") return await checkNumber(db, from, col, records);
  if (col.kind === "string") return await checkString(db, from, col);
  const [nulls, distinct, min, max, trues, falses] = await direct(
    db,
    `SELECT count(*) FILTER (WHERE ${c} IS NULL), least(approx_count_distinct(${c}), count(${c})), ` +
      `${col.kind === "temporal" ? `min(${c}), max(${c})` : "NULL, NULL"}, ` +
      `${col.kind === "boolean" ? `count(*) FILTER (WHERE ${c}), count(*) FILTER (WHERE NOT ${c})` : "NULL, NULL"} ` +
      `FROM ${from}`,
  );
  assertEquals(col.nulls, Number(nulls), col.name);
  if (col.kind === "boolean") {
    assertEquals([col.trueCount, col.falseCount], [Number(trues), Number(falses)]);
    const [exactDistinct] = await direct(db, `SELECT count(DISTINCT ${c}) FROM ${from}`);
    assertEquals(col.distinct, Number(exactDistinct), "booleans: distinct exact");
  } else assertEquals(col.distinct, Number(distinct), col.name);
  if (col.kind === "temporal") {
    const iso = (v: DuckDBValue) => v === null ? null : String(v).replace(" ", "T");
    assertEquals([col.min, col.max], [iso(min), iso(max)], col.name);
  }
  if (col.kind === "other") assertEquals(Object.keys(col), ["name", "type", "kind", "nulls", "distinct"]);
}

Deno.test("statistics: every figure of every column is what DuckDB says of the parts", async () => {
  await withParts(async ({ root, mixed }) => {
    const engine = await openReadEngine(root);
    const db = await DuckDBInstance.create(":memory:");
    try {
      const text = statisticsText("mixed", 1, await columnStatistics(engine, mixed));
      const stats = parseExactJson(text) as Json;
      assertEquals(JSON.parse(text).records, 500, "the text is JSON");
      const from = `read_parquet([${mixed.map((p) => `'${p}'`).join(", ")}], union_by_name=true)`;
      assertEquals([stats.project, stats.version, stats.records], ["mixed", 1, 500]);
      assertEquals(stats.approximate, ["distinct", "quantiles"]);
      const kinds = (stats.columns as Json[]).map((c) => `${c.name}:${c.kind}`);
      assertEquals(kinds, [
        "id:number",
        "big:number",
        "neg:number",
        "ub:number",
        "score:number",
        "f32:number",
        "dec:number",
        "rating:number",
        "name:string",
        "cat:string",
        "flag:boolean",
        "day:temporal",
        "at:temporal",
        "tags:other",
        "long:string",
        "late:string",
      ], "_extra is skipped; late (one part only) is there");
      for (const col of stats.columns as Json[]) await checkColumn(db, from, col, 500);
      assertEquals(stats.suggestedFacets, ["rating", "cat", "flag", "long", "late"]);
      const byName = Object.fromEntries((stats.columns as Json[]).map((c) => [c.name, c]));
      assertEquals(byName.big.max, 9007199254740993n + 499n * 1000003n, "beyond 2^53, every digit");
      assertEquals(byName.neg.min, -(2n ** 63n));
      assertEquals(byName.ub.max, 2n ** 64n - 1n);
      assertEquals(
        byName.rating.histogram,
        [1, 2, 3, 4, 5].map((v) => ({ from: v, to: v === 5 ? 5 : v + 1, count: 100 })),
      );
      assertEquals(byName.id.histogram.length, 20, "500 integers: 20 bins of 25");
      assertEquals(byName.id.histogram[0], { from: 0, to: 25, count: 25 });
      const [nonFinite] = await direct(db, `SELECT count(*) FILTER (WHERE NOT isfinite(score)) FROM ${from}`);
      const binned = byName.score.histogram.reduce((a: number, b: Json) => a + b.count, 0);
      assert(Number(nonFinite) > 0);
      assertEquals(
        byName.score.nulls + Number(nonFinite) + binned,
        500,
        "NaN and infinities: neither nulls nor binned",
      );
      assert(byName.long.topValues[0].value.endsWith("…") && byName.long.topValues[0].value.length === 201);
      const names = byName.name.topValues.map((t: Json) => t.value);
      assert(names.includes("") && names.includes("Zürich") && names.includes("東京 😀"), names.join());
    } finally {
      db.closeSync();
      await engine.close();
    }
  });
});

Deno.test("statistics: an empty version has its columns with no values; no parts, no columns", async () => {
  await withParts(async ({ root, empty }) => {
    const engine = await openReadEngine(root);
    try {
      const stats = JSON.parse(statisticsText("empty", 1, await columnStatistics(engine, empty)));
      assertEquals([stats.records, stats.suggestedFacets], [0, []]);
      const byName = Object.fromEntries((stats.columns as Json[]).map((c) => [c.name, c]));
      assertEquals(byName.id, {
        name: "id",
        type: "BIGINT",
        kind: "number",
        nulls: 0,
        distinct: 0,
        min: null,
        max: null,
        mean: null,
        quantiles: { p05: null, p25: null, p50: null, p75: null, p95: null },
        histogram: [],
      });
      assertEquals(byName.name, {
        name: "name",
        type: "VARCHAR",
        kind: "string",
        nulls: 0,
        distinct: 0,
        topValues: [],
        lengths: { min: null, max: null, mean: null },
      });
      assertEquals(byName.flag, {
        name: "flag",
        type: "BOOLEAN",
        kind: "boolean",
        nulls: 0,
        distinct: 0,
        trueCount: 0,
        falseCount: 0,
      });
      assertEquals(byName.day, {
        name: "day",
        type: "DATE",
        kind: "temporal",
        nulls: 0,
        distinct: 0,
        min: null,
        max: null,
      });
      assertEquals(byName.tags, { name: "tags", type: "BIGINT[]", kind: "other", nulls: 0, distinct: 0 });
      assertEquals(await columnStatistics(engine, []), { records: 0, suggestedFacets: [], columns: [] });
    } finally {
      await engine.close();
    }
  });
});

Deno.test("statistics: column kinds by DuckDB type", () => {
  const kinds = [
    "TINYINT",
    "UBIGINT",
    "HUGEINT",
    "DOUBLE",
    "DECIMAL(38,3)",
    "VARCHAR",
    "BOOLEAN",
    "DATE",
    "TIME",
    "TIMESTAMP_NS",
    "TIMESTAMP WITH TIME ZONE",
    "INTERVAL",
    "BLOB",
    "UUID",
    "INTEGER[]",
    "STRUCT(a INTEGER)",
  ]
    .map(columnKind);
  assertEquals(kinds, [
    "number",
    "number",
    "number",
    "number",
    "number",
    "string",
    "boolean",
    "temporal",
    "temporal",
    "temporal",
    "temporal",
    "other",
    "other",
    "other",
    "other",
    "other",
  ]);
});
