/**
 * A view of a version named in a data page's query string, as Datasette
 * names one: `COLUMN__OP=VALUE` filters (`exact`, `not`, `gt`, `gte`, `lt`,
 * `lte`, `contains`, `startswith`, `isnull`, `notnull`, `in` with
 * comma-separated values or a JSON list of them), `q=` to search the string columns, `sort=COLUMN`
 * or `sort_desc=COLUMN`. Parameters without `__` (`limit`, `offset`,
 * `version`, anything else) are not the view's.
 *
 * @module
 */
import { NodeError } from "../../errors/mod.ts";
import type { ColumnFilter, FilterOp, ViewSpec } from "../../parquet/mod.ts";
import { MAX_FACETS, MAX_FILTERS, MAX_IN, MAX_VALUE } from "../../service/mod.ts";

const OPS: Readonly<Record<string, FilterOp>> = {
  exact: "eq",
  not: "ne",
  gt: "gt",
  gte: "gte",
  lt: "lt",
  lte: "lte",
  contains: "contains",
  startswith: "startswith",
  isnull: "isnull",
  notnull: "notnull",
  in: "in",
};

function bad(message: string): never {
  throw new NodeError("bad-request", message);
}

/**
 * The values of `KEY__in=`: comma-separated, or, as Datasette takes them, a
 * JSON list of strings and numbers when the text starts with `[` (so a
 * value may hold a comma). A number is taken as written where the runtime
 * shows JSON's source text (Deno); elsewhere a whole one past 2^53 must be
 * given as a string.
 */
function inValues(key: string, value: string): string[] {
  if (!value.startsWith("[")) return value.split(",");
  const what = `querystring/${key.slice(0, 200)}`;
  let list: unknown;
  try {
    list = JSON.parse(
      value,
      (_, v, context?: { source?: string }) =>
        typeof v === "number" && context?.source !== undefined ? context.source : v,
    );
  } catch {
    bad(`${what}: a list of values must be JSON, as ["a","b,c",3]`);
  }
  if (!Array.isArray(list) || list.length === 0) bad(`${what}: a JSON list of values holds at least one`);
  return list.map((v) => {
    if (typeof v === "string") return v;
    if (typeof v === "number" && (Number.isSafeInteger(v) || !Number.isInteger(v))) return String(v);
    return bad(`${what}: each value of a JSON list is a string or a number (one past 2^53 as a string)`);
  });
}

function filterOf(key: string, value: string): ColumnFilter {
  const at = key.lastIndexOf("__");
  const column = key.slice(0, at);
  const op = OPS[key.slice(at + 2)];
  if (column === "" || op === undefined) {
    bad(`querystring/${key.slice(0, 200)}: a filter is COLUMN__OP with OP one of ${Object.keys(OPS).join(", ")}`);
  }
  if (value.length > MAX_VALUE) bad(`querystring/${key.slice(0, 200)} must be at most ${MAX_VALUE} characters`);
  if (op === "isnull" || op === "notnull") return { column, op, values: [] };
  const values = op === "in" ? inValues(key, value) : [value];
  if (values.length > MAX_IN) bad(`querystring/${key.slice(0, 200)} takes at most ${MAX_IN} values`);
  return { column, op, values };
}

/**
 * The view `url`'s query names, or null when it names none (the plain page).
 *
 * @example
 * ```ts
 * import { viewOf } from "./_view_params.ts";
 * viewOf(new URL("http://x/projects/cities/data?population__gte=1000&sort_desc=score"));
 * // { filters: [{ column: "population", op: "gte", values: ["1000"] }], search: null, sort: { column: "score", descending: true } }
 * ```
 */
export function viewOf(url: URL): ViewSpec | null {
  const params = url.searchParams;
  const filters: ColumnFilter[] = [];
  for (const [key, value] of params) if (key.includes("__")) filters.push(filterOf(key, value));
  if (filters.length > MAX_FILTERS) bad(`a view takes at most ${MAX_FILTERS} filters`);
  const sort = params.get("sort");
  const sortDesc = params.get("sort_desc");
  if (sort !== null && sortDesc !== null) bad("querystring: give sort or sort_desc, not both");
  const by = sort ?? sortDesc;
  if (by === "") bad("querystring/sort must name a column");
  const q = params.get("q");
  if (q !== null && (q.length === 0 || q.length > MAX_VALUE)) bad(`querystring/q must be 1-${MAX_VALUE} characters`);
  if (filters.length === 0 && by === null && q === null) return null;
  return { filters, search: q, sort: by === null ? null : { column: by, descending: sortDesc !== null } };
}

/**
 * The columns `url` asks facets of (`facet=COLUMN`, repeated; each named
 * once), at most {@linkcode MAX_FACETS}.
 *
 * @example
 * ```ts
 * import { facetsOf } from "./_view_params.ts";
 * facetsOf(new URL("http://x/projects/cities/data?facet=country&facet=kind&facet=country")); // ["country", "kind"]
 * ```
 */
export function facetsOf(url: URL): string[] {
  const facets = [...new Set(url.searchParams.getAll("facet"))];
  if (facets.some((f) => f === "")) bad("querystring/facet must name a column");
  if (facets.length > MAX_FACETS) bad(`querystring/facet: a page takes at most ${MAX_FACETS} facets`);
  return facets;
}
