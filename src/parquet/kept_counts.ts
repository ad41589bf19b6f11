/**
 * A view's total and facets counted over kept columns (see
 * `kept_column.ts`): each filter becomes, once per request, a table of
 * which codes pass (a filter compares values, and a column's values are
 * few, or ordered, so the table costs a binary search or a pass over the
 * distinct values), then one pass over the records counts the facets'
 * codes of those every table passes. The answer is what DuckDB's
 * `GROUPING SETS` statement gives (`view.ts`): ties by value, nulls last,
 * the same JSON texts.
 *
 * A filter is counted here only where its meaning is plain: `eq`, `ne`,
 * `in`, `gt` to `lte` on whole numbers and dates (by their exact value, as
 * `_footer_facts.ts` reads a filter's text); `eq`, `ne`, `in`, `contains`,
 * `startswith` on text; `isnull` and `notnull` on any kept column. Any
 * other filter, a search, or a value DuckDB would refuse or read otherwise
 * leaves the counting to DuckDB, which also gives the 400s.
 *
 * @module
 */
import { filterOrdinal } from "./_footer_facts.ts";
import { type ColumnFilter, findViewColumn, type ViewColumn, type ViewSpec } from "./_view_sql.ts";
import { keepable, type KeptColumn, keptText } from "./kept_column.ts";

/** A view's counts as `view.ts` gives them. */
export interface KeptCounts {
  /** One facet per column asked for. */
  facets: { column: string; values: { value: string; count: number }[]; truncated: boolean }[];
  /** Records in the view. */
  total: number;
}

const ORDERED_OPS = new Set(["eq", "ne", "in", "gt", "gte", "lt", "lte", "isnull", "notnull"]);
const TEXT_OPS = new Set(["eq", "ne", "in", "contains", "startswith", "isnull", "notnull"]);

/**
 * Whether the view `spec` over `columns` may be counted over kept columns:
 * no search, and each filter of an op counted here for its column's type
 * (its values are looked at only when counting).
 *
 * @example
 * ```ts
 * import { keptView } from "./kept_counts.ts";
 * const columns = [{ name: "id", type: "BIGINT" }, { name: "name", type: "VARCHAR" }];
 * keptView(columns, { filters: [{ column: "id", op: "gte", values: ["5"] }], search: null, sort: null }); // true
 * keptView(columns, { filters: [{ column: "name", op: "gt", values: ["m"] }], search: null, sort: null }); // false
 * ```
 */
export function keptView(columns: readonly ViewColumn[], spec: ViewSpec): boolean {
  if (spec.search !== null) return false;
  return spec.filters.every((f) => {
    const type = findViewColumn(columns, f.column)?.type;
    if (type === undefined || !keepable(type)) return false;
    if (type === "VARCHAR") return TEXT_OPS.has(f.op);
    return type === "BOOLEAN" ? f.op === "isnull" || f.op === "notnull" : ORDERED_OPS.has(f.op);
  });
}

/** The first index of ascending `sorted` (up to `end`) whose value is at least (`strict`: above) `x`. */
function firstFrom(sorted: BigInt64Array, end: number, x: bigint, strict: boolean): number {
  let [lo, hi] = [0, end];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? sorted[mid] <= x : sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Which codes of ordered `column` pass `filter`, or null when it is not counted here. */
function orderedPass(column: KeptColumn, filter: ColumnFilter, pass: Uint8Array): boolean {
  const ordinals = column.ordinals!;
  const values = filter.values.map((v) => filterOrdinal(v, column.type));
  if (values.some((v) => v === null)) return false;
  // Null sorts last: the values before it are the column's, ascending.
  const end = column.nullCode === -1 ? ordinals.length : column.nullCode;
  const at = (x: bigint) => firstFrom(ordinals, end, x, false);
  const x = values[0] as bigint;
  switch (filter.op) {
    case "eq":
    case "in":
      for (const v of values as bigint[]) if (at(v) < end && ordinals[at(v)] === v) pass[at(v)] = 1;
      return true;
    case "ne":
      pass.fill(1, 0, end);
      if (at(x) < end && ordinals[at(x)] === x) pass[at(x)] = 0;
      return true;
    case "gt":
      pass.fill(1, firstFrom(ordinals, end, x, true), end);
      return true;
    case "gte":
      pass.fill(1, at(x), end);
      return true;
    case "lt":
      pass.fill(1, 0, at(x));
      return true;
    case "lte":
      pass.fill(1, 0, firstFrom(ordinals, end, x, true));
      return true;
  }
  return false;
}

/** Which codes of text `column` pass `filter`, or false when it is not counted here. */
function textPass(column: KeptColumn, filter: ColumnFilter, pass: Uint8Array): boolean {
  const byText = column.byText!;
  const needle = filter.values[0];
  switch (filter.op) {
    case "eq":
    case "in":
      for (const v of filter.values) {
        const code = byText.get(v);
        if (code !== undefined) pass[code] = 1;
      }
      return true;
    case "ne":
      for (const [text, code] of byText) pass[code] = text === needle ? 0 : 1;
      return true;
    case "contains":
    case "startswith":
      // A needle with surrogates (a lone one could only come through MCP's JSON) is left to DuckDB.
      if (/[\uD800-\uDFFF]/.test(needle)) return false;
      for (const [text, code] of byText) {
        pass[code] = (filter.op === "contains" ? text.includes(needle) : text.startsWith(needle)) ? 1 : 0;
      }
      return true;
  }
  return false;
}

/** A table of which codes of `column` pass `filter` (1) and fail (0), or null when it is not counted here. */
function passOf(column: KeptColumn, filter: ColumnFilter): Uint8Array | null {
  const pass = new Uint8Array(column.distinct);
  if (filter.op === "isnull" || filter.op === "notnull") {
    if (filter.op === "notnull") pass.fill(1);
    if (column.nullCode !== -1) pass[column.nullCode] = filter.op === "isnull" ? 1 : 0;
    return pass;
  }
  const counted = column.ordinals
    ? orderedPass(column, filter, pass)
    : column.byText
    ? textPass(column, filter, pass)
    : false;
  return counted ? pass : null;
}

/** The `size` most frequent codes of `counts` (ties by code, which is by value, nulls last), and whether more hold. */
function topOf(column: KeptColumn, counts: Uint32Array, size: number) {
  const held: number[] = [];
  for (let code = 0; code < counts.length; code++) if (counts[code] > 0) held.push(code);
  held.sort((a, b) => counts[b] - counts[a] || a - b);
  const values = held.slice(0, size).map((code) => ({ value: keptText(column, code), count: counts[code] }));
  return { column: column.name, values, truncated: held.length > size };
}

/**
 * The total and the `size` most frequent values of each of `facets` in the
 * view `spec`, counted over `kept` (the version's kept columns by name, of
 * `columns`), or null when the view is not counted here (see the module's
 * documentation): a column not kept, a filter or a search left to DuckDB.
 *
 * @example
 * ```ts ignore
 * import { keptCounts } from "./kept_counts.ts";
 * const counts = keptCounts(kept, shape.columns, spec, ["country", "note"], 30);
 * ```
 */
export function keptCounts(
  kept: ReadonlyMap<string, KeptColumn>,
  columns: readonly ViewColumn[],
  spec: ViewSpec,
  facets: readonly string[],
  size: number,
): KeptCounts | null {
  if (spec.search !== null || (spec.filters.length === 0 && facets.length === 0)) return null;
  const keptOf = (name: string) => {
    const column = findViewColumn(columns, name);
    return column ? kept.get(column.name) : undefined;
  };
  const tests: { codes: Uint16Array | Uint32Array; pass: Uint8Array }[] = [];
  for (const filter of spec.filters) {
    const column = keptOf(filter.column);
    const pass = column ? passOf(column, filter) : null;
    if (!column || !pass) return null;
    tests.push({ codes: column.codes, pass });
  }
  const counted = facets.map(keptOf);
  if (counted.some((c) => c === undefined)) return null;
  const faceted = counted as KeptColumn[];
  const records = faceted[0]?.codes.length ?? tests[0]?.codes.length ?? 0;
  if ([...faceted.map((f) => f.codes), ...tests.map((t) => t.codes)].some((c) => c.length !== records)) return null;
  return countOver(records, tests, faceted, size);
}

type Codes = Uint16Array | Uint32Array;

/** Which records pass every test (1), in one tight loop a test: one loop for all, polymorphic, cost 7x as much. */
function passing(records: number, tests: readonly { codes: Codes; pass: Uint8Array }[]): Uint8Array {
  const mask = new Uint8Array(records);
  const [first, ...rest] = tests;
  const { codes, pass } = first;
  for (let row = 0; row < records; row++) mask[row] = pass[codes[row]];
  for (const test of rest) alsoPassing(mask, test.codes, test.pass);
  return mask;
}

function alsoPassing(mask: Uint8Array, codes: Codes, pass: Uint8Array): void {
  for (let row = 0; row < mask.length; row++) if (mask[row] === 1) mask[row] = pass[codes[row]];
}

/** Counts each code of `codes` among the records `mask` passes (all when null); returns how many it counted. */
function countCodes(counts: Uint32Array, codes: Codes, mask: Uint8Array | null): number {
  if (mask === null) {
    for (let row = 0; row < codes.length; row++) counts[codes[row]]++;
    return codes.length;
  }
  // Without a branch: a record left out adds 0.
  for (let row = 0; row < codes.length; row++) counts[codes[row]] += mask[row];
  return counts.reduce((n, c) => n + c, 0);
}

function ones(mask: Uint8Array): number {
  let n = 0;
  for (let row = 0; row < mask.length; row++) n += mask[row];
  return n;
}

function countOver(
  records: number,
  tests: readonly { codes: Codes; pass: Uint8Array }[],
  faceted: readonly KeptColumn[],
  size: number,
): KeptCounts {
  const mask = tests.length === 0 ? null : passing(records, tests);
  const counts = faceted.map((f) => new Uint32Array(f.distinct));
  let total = mask === null ? records : -1;
  faceted.forEach((f, i) => total = countCodes(counts[i], f.codes, mask));
  if (total < 0) total = ones(mask!);
  return { facets: faceted.map((f, i) => topOf(f, counts[i], size)), total };
}
