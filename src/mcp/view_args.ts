/**
 * The view arguments of `read_dataset`: filters, search, sort and facets, as
 * the data page's query string names them (`COLUMN__OP=VALUE`, `q`, `sort`,
 * `facet`), in JSON. Values may be strings, numbers or booleans; a number is
 * passed on as its decimal text, so integers beyond 2^53 are best given as
 * strings.
 *
 * @module
 */
import { z } from "zod";
import { NodeError } from "../errors/mod.ts";
import type { ColumnFilter, FilterOp, ViewSpec } from "../parquet/mod.ts";
import { MAX_FACETS, MAX_FILTERS, MAX_IN, MAX_VALUE } from "../service/mod.ts";

const OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "contains", "startswith", "isnull", "notnull", "in"] as const;

const scalar = z.union([z.string().max(MAX_VALUE), z.number(), z.boolean()]);

const filter = z.object({
  column: z.string().min(1).max(200).describe("A column of the version, e.g. `country`."),
  op: z.enum(OPS).describe(
    "eq, ne, gt, gte, lt, lte (compare as the column's type), contains, startswith (text), " +
      "isnull, notnull (no value), in (`values`).",
  ),
  value: scalar.optional().describe("The operand of every op but isnull, notnull and in."),
  values: z.array(scalar).min(1).max(MAX_IN).optional().describe(`The 1-${MAX_IN} operands of \`in\`.`),
}).strict();

/** The view arguments' zod shape, spread into `read_dataset`'s input. */
export const VIEW_ARGS = {
  filters: z.array(filter).max(MAX_FILTERS).optional().describe(
    `Up to ${MAX_FILTERS} filters, all of which must hold, e.g. ` +
      '`[{"column": "country", "op": "eq", "value": "FR"}, {"column": "population", "op": "gte", "value": 100000}]`.',
  ),
  search: z.string().min(1).max(MAX_VALUE).optional()
    .describe("Text a record holds in one of its string columns (any case), e.g. `lyon`."),
  sort: z.object({
    column: z.string().min(1).max(200),
    descending: z.boolean().optional().describe("Largest first (default false). Nulls come last either way."),
  }).strict().optional().describe('Order by one column, e.g. `{"column": "population", "descending": true}`.'),
  facets: z.array(z.string().min(1).max(200)).max(MAX_FACETS).optional().describe(
    `Up to ${MAX_FACETS} columns whose 30 most frequent values (under the filters) the answer lists, e.g. \`["country"]\`.`,
  ),
};

/** `read_dataset`'s view arguments, as parsed by {@linkcode VIEW_ARGS}. */
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
