/**
 * The shapes of the JSON answers the browser interface reads beyond the
 * wire types: a data page's facets and a version's statistics.
 *
 * @module
 */
import type { DataPage } from "../../../wire/mod.ts";

/** One value of a facet and how many records of the view hold it (a null value is `null`). */
export interface FacetValue {
  /** The value. */
  value: unknown;
  /** Records holding it. */
  count: number;
}

/** The top values of one column under the view's filters and search, count first. */
export interface Facet {
  /** The column. */
  column: string;
  /** Its top values. */
  values: FacetValue[];
  /** Whether more values exist than are listed. */
  truncated: boolean;
}

/** A page of a view: a data page, with the facets asked for by `facet=`. */
export interface ViewPage extends DataPage {
  /** One per `facet=` column, when asked. */
  facets?: Facet[];
}

/** A bin of a histogram: `from` (inclusive) to `to`. */
export interface HistogramBin {
  /** Lower bound. */
  from: number;
  /** Upper bound. */
  to: number;
  /** Records in the bin. */
  count: number;
}

/** What `GET /projects/{slug}/statistics` says of one column. */
export interface ColumnStatistics {
  /** Column name. */
  name: string;
  /** DuckDB type. */
  type: string;
  /** The kind of figures given. */
  kind: "number" | "string" | "boolean" | "temporal" | "other";
  /** Null values. */
  nulls: number;
  /** Distinct values (approximate when the answer says so). */
  distinct: number;
  /** Smallest value (numbers, temporal). */
  min?: number | string | null;
  /** Largest value (numbers, temporal). */
  max?: number | string | null;
  /** Mean (numbers). */
  mean?: number | null;
  /** Quantiles (numbers). */
  quantiles?: Partial<Record<"p05" | "p25" | "p50" | "p75" | "p95", number | null>>;
  /** Histogram (numbers). */
  histogram?: HistogramBin[];
  /** Most frequent values (strings). */
  topValues?: FacetValue[];
  /** Lengths (strings). */
  lengths?: { min: number | null; max: number | null; mean: number | null };
  /** True values (booleans). */
  trueCount?: number;
  /** False values (booleans). */
  falseCount?: number;
}

/** `GET /projects/{slug}/statistics?version=N`. */
export interface Statistics {
  /** Project slug. */
  project: string;
  /** Version described. */
  version: number;
  /** Records in the version. */
  records: number;
  /** Which figures are approximate (`distinct`, `quantiles`). */
  approximate: string[];
  /** Columns worth faceting by. */
  suggestedFacets: string[];
  /** One per column. */
  columns: ColumnStatistics[];
}
