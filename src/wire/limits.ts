/**
 * The limits of the wire, in one table: what a request may ask and an
 * answer holds (pages, rows, statements, views, contributions, listings).
 * The node enforces them, the catalog's input schemas are built from them,
 * and the client, the command line, the MCP tools and the browser
 * interface read them here rather than restating a number.
 *
 * @example
 * ```ts
 * import { WIRE_LIMITS } from "./limits.ts";
 * WIRE_LIMITS.page; // { min: 1, max: 1000, default: 200 }
 * ```
 *
 * @module
 */

/** An integer a request may name: its bounds and the value taken when it is left out. */
export interface Bounded {
  /** The smallest value taken. */
  readonly min: number;
  /** The largest value taken. */
  readonly max: number;
  /** The value when the request leaves it out. */
  readonly default: number;
}

/** The wire's limits. */
export const WIRE_LIMITS = {
  /** Records on one page of `GET /projects/{slug}/data`. */
  page: { min: 1, max: 1000, default: 200 },
  /** Records on one page of MCP's `read_dataset`: narrower, a model reads every record it is given. */
  toolPage: { min: 1, max: 200, default: 50 },
  /** Records on one page of the browser interface's table. */
  browserPage: { min: 1, max: 1000, default: 50 },
  /** Rows of one SQL answer (`POST /projects/{slug}/query`). */
  rows: { min: 1, max: 1000, default: 200 },
  /** Characters of one SQL statement. */
  sqlChars: 4000,
  /** Milliseconds one SQL statement may run before it is stopped (408). */
  queryTimeoutMs: 20_000,
  /** Records a diff lists (`limit=0`: counts only). */
  diff: { min: 0, max: 500, default: 100 },
  /** Versions on one page of `GET /projects/{slug}/versions`. */
  versions: { min: 1, max: 1000, default: 100 },
  /** Versions on one page of MCP's `list_versions`. */
  toolVersions: { min: 1, max: 100, default: 20 },
  /** Filters of one view. */
  filters: 20,
  /** Values of one `in` filter. */
  inValues: 100,
  /** Characters of one filter value, and of a search. */
  valueChars: 1000,
  /** Facet columns of one page. */
  facets: 5,
  /** Part digests one manifest request may list in `have`. */
  have: 100,
  /** Records in one contribution. */
  records: 500,
  /** Bytes of the records of one contribution. */
  batchBytes: 512 * 1024,
  /** Bytes of a request body. */
  bodyBytes: 1024 * 1024,
  /** Items on one page of a Delta Sharing listing (`maxResults`). */
  sharingResults: 1000,
} as const;
