/**
 * The `instructions` of the node's `initialize` answer: what the node is,
 * how to start (the schema first), the table name and the limits, so a model
 * needs no trial and error.
 *
 * @module
 */
import { DEFAULT_ROWS, MAX_ROWS, MAX_SQL_CHARS, QUERY_TIMEOUT_MS } from "../sql/mod.ts";
import { MAX_BATCH_BYTES, MAX_RECORDS } from "../service/mod.ts";
import { MCP_PAGE_DEFAULT, MCP_PAGE_MAX } from "./tools.ts";

/** What the instructions depend on. */
export interface InstructionFacts {
  /** Whether the node takes no writes. */
  readOnly: boolean;
  /** Versions kept per project, or null to keep all. */
  keepVersions: number | null;
}

/**
 * The instructions for a node with `facts`.
 *
 * @example
 * ```ts
 * import { mcpInstructions } from "./instructions.ts";
 * mcpInstructions({ readOnly: true, keepVersions: null }).includes("dataset_info"); // true
 * ```
 */
export function mcpInstructions(facts: InstructionFacts): string {
  const lines = [
    "This is an svc dataset node: it serves versioned datasets (projects) from its own store. " +
    "A version is an immutable table of records with a fixed schema; versions are numbered from 1, and leaving " +
    "`version` out means the newest.",
    "Start with `list_datasets`, then read a dataset's schema and README with `dataset_info` before reading or " +
    "querying its records.",
    `\`read_dataset\` gives records in order, ${MCP_PAGE_MAX} at most per page (default ${MCP_PAGE_DEFAULT}); ` +
    "page on with `offset`; `filters`, `search`, `sort` and `facets` narrow, order and summarise a page " +
    "without SQL. `dataset_statistics` gives every column's nulls, distinct values, ranges, histograms and top " +
    "values, computed once per version.",
    `\`query_dataset\` runs one read-only DuckDB statement of at most ${MAX_SQL_CHARS} characters over one ` +
    `version, seen as the table \`records\`; it returns at most ${MAX_ROWS} rows (default ${DEFAULT_ROWS}) and ` +
    `is stopped after ${QUERY_TIMEOUT_MS / 1000} seconds. Aggregate in SQL rather than paging through everything.`,
    facts.readOnly
      ? "This node is read-only: it takes no writes."
      : "`create_dataset` makes a new project on this node; `contribute_records` appends " +
        `1-${MAX_RECORDS} records (at most ${MAX_BATCH_BYTES / 1024} KiB) to one, which pass the schema, ` +
        "personal-data and duplicate gates and merge into a new version at once. Give `idempotencyKey` to make " +
        "a retry safe. Projects copied from the origin take no writes.",
    "A tool error reads `<HTTP status>: <message>`.",
  ];
  if (facts.keepVersions !== null) {
    lines.push(`This node keeps the newest ${facts.keepVersions} versions of each project.`);
  }
  return lines.join("\n");
}
