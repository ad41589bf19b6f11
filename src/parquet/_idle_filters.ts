/**
 * A view's filters that every record of its version passes, as the parts'
 * footers prove, and the view without them: a filter that leaves nothing
 * out (`id__gte=0` over ids from 0, `day__lte=` a date after the last,
 * `name__notnull` where no name is null) makes the view one of every
 * record, whose page the page reader cuts from memory and whose counts are
 * kept, where it was a scan that compared every record.
 *
 * Only what the footers settle exactly: a column with no null (a null fails
 * every comparison), compared by its whole-number or date bounds (see
 * `_footer_facts.ts`); a value that is not of its column's type keeps its
 * filter, so the view's answer stays its 400.
 *
 * @module
 */
import { type ColumnBounds, filterOrdinal } from "./_footer_facts.ts";
import { type ColumnFilter, findViewColumn, type ViewColumn, type ViewSpec } from "./_view_sql.ts";

/** What the footers say of a version's columns (a view's shape holds it). */
export interface FooterBounds {
  /** The columns. */
  columns: readonly ViewColumn[];
  /** Columns no record holds a null in. */
  nonNull: readonly string[];
  /** Least and greatest values of ordered columns with no null missing from their footers. */
  bounds?: ReadonlyMap<string, ColumnBounds>;
}

/**
 * `spec` without the filters every record passes, as `facts` prove; `spec`
 * itself when none does.
 *
 * @example
 * ```ts
 * import { withoutIdleFilters } from "./_idle_filters.ts";
 * const facts = {
 *   columns: [{ name: "id", type: "BIGINT" }],
 *   nonNull: ["id"],
 *   bounds: new Map([["id", { min: 0n, max: 99n }]]),
 * };
 * const spec = { filters: [{ column: "id", op: "gte" as const, values: ["0"] }], search: null, sort: null };
 * withoutIdleFilters(facts, spec).filters; // []
 * ```
 */
export function withoutIdleFilters(facts: FooterBounds, spec: ViewSpec): ViewSpec {
  const kept = spec.filters.filter((f) => !idle(facts, f));
  return kept.length === spec.filters.length ? spec : { ...spec, filters: kept };
}

function idle(facts: FooterBounds, filter: ColumnFilter): boolean {
  const column = findViewColumn(facts.columns, filter.column);
  if (!column || !facts.nonNull.includes(column.name)) return false;
  if (filter.op === "notnull") return true;
  const bounds = facts.bounds?.get(column.name);
  if (!bounds) return false;
  const values = filter.values.map((v) => filterOrdinal(v, column.type));
  if (values.length === 0 || values.some((v) => v === null)) return false;
  const [v] = values as bigint[];
  const { min, max } = bounds;
  switch (filter.op) {
    case "eq":
      return min === v && max === v;
    case "ne":
      return v < min || v > max;
    case "gt":
      return min > v;
    case "gte":
      return min >= v;
    case "lt":
      return max < v;
    case "lte":
      return max <= v;
    case "in":
      return min === max && values.includes(min);
    default:
      return false;
  }
}
