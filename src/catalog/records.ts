/**
 * A version's records: a page (or a view of them), SQL, statistics, the
 * manifest, what versions added, and the whole version as an export.
 *
 * @module
 */
import { type DataPage, type Manifest, type QueryAnswer, WIRE_LIMITS } from "../wire/mod.ts";
import { OFFSET, PAGE_LIMIT, SLUG, VERSION } from "./fields.ts";
import type { Operation } from "./operation.ts";
import type { Fields, IntegerField } from "./schema.ts";

const SCALAR = { type: "scalar", maxLength: WIRE_LIMITS.valueChars, about: "" } as const;
const COLUMN = { type: "string", minLength: 1, maxLength: 200, about: "" } as const;
const OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "contains", "startswith", "isnull", "notnull", "in"] as const;

/** `read_dataset`'s view in JSON: what the data page's query string names as `COLUMN__OP=VALUE`, `q`, `sort`, `facet`. */
const VIEW_ARGS = {
  filters: {
    type: "array",
    maxItems: WIRE_LIMITS.filters,
    optional: true,
    about: `Up to ${WIRE_LIMITS.filters} filters, all of which must hold, e.g. ` +
      '`[{"column": "country", "op": "eq", "value": "FR"}, {"column": "population", "op": "gte", "value": 100000}]`.',
    items: {
      type: "object",
      about: "",
      fields: {
        column: { ...COLUMN, about: "A column of the version, e.g. `country`." },
        op: {
          type: "string",
          enum: OPS,
          about: "eq, ne, gt, gte, lt, lte (compare as the column's type), contains, startswith (text), " +
            "isnull, notnull (no value), in (`values`).",
        },
        value: { ...SCALAR, optional: true, about: "The operand of every op but isnull, notnull and in." },
        values: {
          type: "array",
          items: SCALAR,
          minItems: 1,
          maxItems: WIRE_LIMITS.inValues,
          optional: true,
          about: `The 1-${WIRE_LIMITS.inValues} operands of \`in\`.`,
        },
      },
    },
  },
  search: {
    type: "string",
    minLength: 1,
    maxLength: WIRE_LIMITS.valueChars,
    optional: true,
    about: "Text a record holds in one of its string columns (any case), e.g. `lyon`.",
  },
  sort: {
    type: "object",
    optional: true,
    about: 'Order by one column, e.g. `{"column": "population", "descending": true}`.',
    fields: {
      column: COLUMN,
      descending: {
        type: "boolean",
        optional: true,
        about: "Largest first (default false). Nulls come last either way.",
      },
    },
  },
  facets: {
    type: "array",
    items: COLUMN,
    maxItems: WIRE_LIMITS.facets,
    optional: true,
    about: `Up to ${WIRE_LIMITS.facets} columns whose 30 most frequent values (under the filters) the answer lists, ` +
      'e.g. `["country"]`.',
  },
} as const satisfies Fields;

/** The data page's view in its query string (and `COLUMN__OP=VALUE` filters, which no field can name). */
const VIEW_QUERY = {
  q: { ...VIEW_ARGS.search, about: "Text a record holds in one of its string columns (any case)." },
  sort: { type: "string", optional: true, about: "Order by this column, smallest first." },
  sort_desc: { type: "string", optional: true, about: "Order by this column, largest first." },
  facet: { ...VIEW_ARGS.facets, about: "A column whose most frequent values the answer lists (repeated)." },
  format: {
    type: "string",
    enum: ["csv", "json", "jsonl", "parquet"],
    optional: true,
    about: "Download the whole view in this format instead of a page.",
  },
} as const satisfies Fields;

const ROWS = {
  type: "integer",
  ...WIRE_LIMITS.rows,
  about: (f: IntegerField): string => `Rows to return, ${f.min}-${f.max} (default ${f.default}).`,
} as const;

/** The reads of a version's records. */
export const RECORD_OPERATIONS = {
  read_page: {
    name: "read_page",
    method: "GET",
    path: "/projects/{slug}/data",
    about: "A page of a version's records, or of a view of them (filters, search, sort, facets), or a download.",
    input: { slug: SLUG, version: VERSION, limit: PAGE_LIMIT, offset: OFFSET, ...VIEW_QUERY },
    answer: undefined as unknown as DataPage,
    encoding: "json",
    costly: true,
    public: false,
    write: false,
    tool: {
      name: "read_dataset",
      title: "Read records",
      description: "A page of records of one version, in order, with `total` and `next` (the next `offset`, or " +
        "null at the end). Narrow and order it without SQL: `filters` per column, `search` over the string " +
        "columns, `sort` by a column, and `facets` for the most frequent values of up to five columns, e.g. " +
        '`{"slug": "cities", "filters": [{"column": "country", "op": "eq", "value": "FR"}], ' +
        '"sort": {"column": "population", "descending": true}, "facets": ["admin1"], "limit": 10}`.',
      guide: `\`read_dataset\` gives records in order, ${WIRE_LIMITS.toolPage.max} at most per page (default ` +
        `${WIRE_LIMITS.toolPage.default}); page on with \`offset\`; \`filters\`, \`search\`, \`sort\` and ` +
        "`facets` narrow, order and summarise a page without SQL.",
      narrow: { limit: WIRE_LIMITS.toolPage },
      omit: ["q", "sort", "sort_desc", "facet", "format"],
      extra: VIEW_ARGS,
    },
    command: { name: "data", about: "print a version's records as JSON lines", group: "datasets" },
  },
  manifest: {
    name: "manifest",
    method: "GET",
    path: "/projects/{slug}/manifest",
    about: "A version's manifest: its Parquet parts with digests and URLs on this node, and its signature.",
    input: {
      slug: SLUG,
      version: VERSION,
      have: {
        type: "string",
        optional: true,
        about: `Up to ${WIRE_LIMITS.have} part SHA-256 digests, comma-separated, the caller holds (no URL for them).`,
      },
    },
    answer: undefined as unknown as Manifest,
    encoding: "json",
    costly: false,
    public: false,
    write: false,
    tool: {
      name: "dataset_manifest",
      title: "Dataset manifest",
      description: "The version manifest: its Parquet parts with sizes, digests and download URLs on this node, " +
        "totals, and the origin's signature when the version came from the origin.",
      omit: ["have"],
    },
  },
  query: {
    name: "query",
    method: "POST",
    path: "/projects/{slug}/query",
    about: "One read-only SQL statement over one version, seen as the table `records`.",
    input: {
      slug: SLUG,
      sql: {
        type: "string",
        minLength: 1,
        maxLength: WIRE_LIMITS.sqlChars,
        about: "The statement, e.g. `SELECT country, count(*) FROM records GROUP BY 1`.",
      },
      version: VERSION,
      limit: ROWS,
    },
    answer: undefined as unknown as QueryAnswer,
    encoding: "json",
    costly: true,
    public: false,
    write: false,
    tool: {
      name: "query_dataset",
      title: "Query with SQL",
      description: "One read-only SQL statement (DuckDB dialect: SELECT, WITH, FROM, VALUES, DESCRIBE, SUMMARIZE) " +
        `over one version, seen as the table \`records\`. At most ${WIRE_LIMITS.rows.max} rows; \`truncated\` says ` +
        `when more existed. Stops after ${WIRE_LIMITS.queryTimeoutMs / 1000} seconds.`,
      guide: `\`query_dataset\` runs one read-only DuckDB statement of at most ${WIRE_LIMITS.sqlChars} characters ` +
        `over one version, seen as the table \`records\`; it returns at most ${WIRE_LIMITS.rows.max} rows (default ` +
        `${WIRE_LIMITS.rows.default}) and is stopped after ${WIRE_LIMITS.queryTimeoutMs / 1000} seconds. ` +
        "Aggregate in SQL rather than paging through everything.",
    },
    command: { name: "query", about: "SQL over a version (local store, or --remote)", group: "datasets" },
  },
  statistics: {
    name: "statistics",
    method: "GET",
    path: "/projects/{slug}/statistics",
    about: "Every column's statistics of one version, computed once per version and kept.",
    input: { slug: SLUG, version: VERSION },
    answer: undefined as unknown as Record<string, unknown>,
    encoding: "json",
    costly: true,
    public: false,
    write: false,
    tool: {
      name: "dataset_statistics",
      title: "Column statistics",
      description: 'Statistics of every column of one version, e.g. `{"slug": "cities"}`: records, and per ' +
        "column nulls, distinct values (approximate), for numbers min/max/mean, quantiles (approximate) and a " +
        "histogram, for strings the top values and lengths, for booleans true/false counts, for dates and times " +
        "min/max; plus `suggestedFacets`, columns worth filtering or faceting on. Computed once per version, then " +
        "cheap: read it before writing SQL to learn the columns' ranges and values.",
      guide: "`dataset_statistics` gives every column's nulls, distinct values, ranges, histograms and top " +
        "values, computed once per version.",
    },
  },
  diff: {
    name: "diff",
    method: "GET",
    path: "/projects/{slug}/diff",
    about: "What versions `(from, to]` added: the contributions, and their records.",
    input: {
      slug: SLUG,
      from: { type: "integer", min: 0, about: "The version compared from (0: since nothing)." },
      to: { type: "integer", min: 1, about: "The version compared to, after `from`." },
      limit: {
        type: "integer",
        ...WIRE_LIMITS.diff,
        about: (f: IntegerField): string => `Records listed, ${f.min}-${f.max} (default ${f.default}; 0: counts only).`,
      },
    },
    answer: undefined as unknown as Record<string, unknown>,
    encoding: "json",
    costly: true,
    public: false,
    write: false,
  },
  export: {
    name: "export",
    method: "GET",
    path: "/projects/{slug}/export",
    about: "Every record of a version as gzip-compressed JSON lines, resumable with ranges.",
    input: { slug: SLUG, version: { ...VERSION, optional: false, about: "The version (required)." } },
    answer: undefined as unknown as ReadableStream<Uint8Array>,
    encoding: "stream",
    costly: true,
    public: false,
    write: false,
    command: { name: "export", about: "download a version as gzip JSON lines (resumable)", group: "datasets" },
  },
} as const satisfies Record<string, Operation>;
