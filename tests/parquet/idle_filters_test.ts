/**
 * Filters every record passes, as the footers prove, are dropped from a
 * view (issue 47); any other filter stays, and so does one whose value is
 * not of its column's type (its 400 stays the answer).
 *
 * @module
 */
import type { ColumnFilter, FilterOp, ViewSpec } from "../../src/parquet/mod.ts";
import { withoutIdleFilters } from "../../src/parquet/mod.ts";
import { ordinalOf } from "../../src/parquet/_footer_facts.ts";
import { assert, assertEquals } from "../support/assert.ts";

const FACTS = {
  columns: [
    { name: "id", type: "BIGINT" },
    { name: "small", type: "TINYINT" },
    { name: "day", type: "DATE" },
    { name: "n", type: "INTEGER" },
    { name: "one", type: "INTEGER" },
    { name: "name", type: "VARCHAR" },
    { name: "_extra", type: "VARCHAR" },
  ],
  nonNull: ["id", "small", "day", "one", "name", "_extra"],
  bounds: new Map([
    ["id", { min: 0n, max: 99n }],
    ["small", { min: -3n, max: 3n }],
    ["day", { min: ordinalOf("2024-01-01", "DATE")!, max: ordinalOf("2024-12-31", "DATE")! }],
    ["n", { min: 0n, max: 10n }], // holds nulls
    ["one", { min: 7n, max: 7n }],
  ]),
};

const view = (...filters: ColumnFilter[]): ViewSpec => ({ filters, search: null, sort: null });
const f = (column: string, op: FilterOp, ...values: string[]): ColumnFilter => ({ column, op, values });
const idle = (filter: ColumnFilter) => withoutIdleFilters(FACTS, view(filter)).filters.length === 0;

Deno.test("comparisons every record passes are idle, those that leave one out are not", () => {
  const cases: [ColumnFilter, boolean][] = [
    [f("id", "gte", "0"), true],
    [f("id", "gte", "-5"), true],
    [f("id", "gte", "1"), false],
    [f("id", "gt", "-1"), true],
    [f("id", "gt", "0"), false],
    [f("id", "lte", "99"), true],
    [f("id", "lte", "98"), false],
    [f("id", "lt", "100"), true],
    [f("id", "lt", "99"), false],
    [f("id", "ne", "100"), true],
    [f("id", "ne", "-1"), true],
    [f("id", "ne", "50"), false],
    [f("id", "eq", "0"), false],
    [f("one", "eq", "7"), true],
    [f("one", "eq", "8"), false],
    [f("one", "in", "1", "7"), true],
    [f("one", "in", "1", "2"), false],
    [f("id", "in", "0", "99"), false],
    [f("day", "gte", "2024-01-01"), true],
    [f("day", "gte", "2024-01-02"), false],
    [f("day", "lt", "2025-01-01"), true],
    [f("day", "lte", "2024-12-30"), false],
    [f("id", "notnull"), true],
    [f("name", "notnull"), true],
    [f("n", "notnull"), false],
    [f("n", "gte", "0"), false], // its nulls fail the comparison
    [f("id", "isnull"), false],
    [f("name", "contains", ""), false],
    [f("name", "startswith", ""), false],
  ];
  for (const [filter, expected] of cases) assertEquals(idle(filter), expected, JSON.stringify(filter));
});

Deno.test("a value not of its column's type, or an unknown column, keeps its filter", () => {
  for (
    const filter of [
      f("id", "gte", "0.5"),
      f("id", "gte", "abc"),
      f("id", "gte", "-99999999999999999999"),
      f("small", "gte", "-200"), // beyond TINYINT: its 400 stays
      f("day", "gte", "2023-02-29"),
      f("day", "gte", "2023-1-1"),
      f("one", "in", "7", "x"),
      f("missing", "gte", "0"),
      f("_extra", "notnull"),
    ]
  ) assertEquals(idle(filter), false, JSON.stringify(filter));
});

Deno.test("only the idle filters go; a view without any is itself", () => {
  const spec: ViewSpec = {
    filters: [f("id", "gte", "0"), f("id", "lt", "50"), f("name", "notnull")],
    search: "a",
    sort: { column: "id", descending: true },
  };
  assertEquals(withoutIdleFilters(FACTS, spec), { ...spec, filters: [f("id", "lt", "50")] });
  const busy = view(f("id", "lt", "50"));
  assert(withoutIdleFilters(FACTS, busy) === busy, "the same view");
  assertEquals(
    withoutIdleFilters({ columns: FACTS.columns, nonNull: [] }, view(f("id", "gte", "0"))).filters.length,
    1,
  );
});
