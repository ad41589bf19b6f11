/**
 * The view arguments of `read_dataset`: filters, search, sort and facets, as
 * the data page's query string names them (`COLUMN__OP=VALUE`, `q`, `sort`,
 * `facet`), in JSON. Values may be strings, numbers or booleans; a number is
 * passed on as its decimal text, so integers beyond 2^53 are best given as
 * strings.
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";
import type { ColumnFilter, FilterOp, ViewSpec } from "../parquet/mod.ts";

/** `read_dataset`'s view arguments, as its schema (the catalog's) parses them. */
export interface ViewArgs {
  /** Filters. */
  filters?: {
    column: string;
    op: FilterOp;
    value?: string | number | boolean;
    values?: (string | number | boolean)[];
  }[];
  /** Search text. */
  search?: string;
  /** Sort. */
  sort?: { column: string; descending?: boolean };
  /** Facet columns. */
  facets?: string[];
}

function filterOf(f: NonNullable<ViewArgs["filters"]>[number], i: number): ColumnFilter {
  const where = `filters/${i}`;
  if (f.op === "isnull" || f.op === "notnull") {
    if (f.value !== undefined || f.values !== undefined) {
      throw new NodeError("bad-request", `${where}: ${f.op} takes no value`);
    }
    return { column: f.column, op: f.op, values: [] };
  }
  if (f.op === "in") {
    if (f.values === undefined || f.value !== undefined) {
      throw new NodeError("bad-request", `${where}: in takes \`values\``);
    }
    return { column: f.column, op: "in", values: f.values.map(String) };
  }
  if (f.value === undefined || f.values !== undefined) {
    throw new NodeError("bad-request", `${where}: ${f.op} takes \`value\``);
  }
  return { column: f.column, op: f.op, values: [String(f.value)] };
}

/**
 * The view `args` names, or null when they name none (the plain page); a
 * filter without the operand its op takes is a bad request.
 *
 * @example
 * ```ts
 * import { viewOfArgs } from "./view_args.ts";
 * viewOfArgs({ filters: [{ column: "country", op: "eq", value: "FR" }], sort: { column: "population", descending: true } });
 * // { filters: [{ column: "country", op: "eq", values: ["FR"] }], search: null, sort: { column: "population", descending: true } }
 * ```
 */
export function viewOfArgs(args: ViewArgs): ViewSpec | null {
  const filters = (args.filters ?? []).map(filterOf);
  if (filters.length === 0 && args.search === undefined && args.sort === undefined) return null;
  const sort = args.sort ? { column: args.sort.column, descending: args.sort.descending ?? false } : null;
  return { filters, search: args.search ?? null, sort };
}
