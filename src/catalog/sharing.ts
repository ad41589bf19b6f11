/**
 * Delta Sharing's operations (delta-io/delta-sharing PROTOCOL.md), a table
 * of their own mounted under `/delta-sharing`: the share, its schema and
 * tables listed with paging, a table's version, metadata, files (one
 * schema for the protocol's `QueryTableRequest`) and change feed. They
 * answer JSON or JSON lines, and their errors are the protocol's
 * `{"errorCode", "message"}`.
 *
 * @module
 */
import { WIRE_LIMITS } from "../wire/mod.ts";
import type { Encoding } from "./operation.ts";
import type { Fields } from "./schema.ts";

/** Where the table is mounted. */
export const SHARING_PREFIX = "/delta-sharing";

/** One operation of the protocol. */
export interface SharingOperation {
  /** Its name, as the protocol's reference server names it. */
  readonly name: string;
  /** Its methods (HEAD goes with GET; the version route of a table is HEAD alone). */
  readonly methods: readonly ("GET" | "HEAD" | "POST")[];
  /** Its path under {@linkcode SHARING_PREFIX}. */
  readonly path: string;
  /** What it does. */
  readonly about: string;
  /** Its query string's fields (GET), or its body's (POST). */
  readonly input: Fields;
  /** How it answers: JSON, JSON lines (`application/x-ndjson`), or headers alone. */
  readonly encoding: Encoding | "lines" | "head";
}

const WHOLE = Number.MAX_SAFE_INTEGER;
const INT32 = 2147483647;
const version = (about: string) => ({ type: "integer", min: 0, max: WHOLE, optional: true, about }) as const;
const timestamp = (about: string) => ({ type: "string", optional: true, about }) as const;

const PAGED: Fields = {
  maxResults: {
    type: "integer",
    min: 1,
    max: WIRE_LIMITS.sharingResults,
    optional: true,
    about: `Items on a page, 1-${WIRE_LIMITS.sharingResults}.`,
  },
  pageToken: { type: "string", optional: true, about: "Where the previous page ended (`nextPageToken`)." },
};

/** The protocol's `QueryTableRequest`: which files of which version (or which versions' changes) to list. */
export const QUERY_TABLE_REQUEST = {
  predicateHints: {
    type: "array",
    items: { type: "string", about: "" },
    optional: true,
    about: "SQL predicates the files' statistics may rule out (best effort).",
  },
  jsonPredicateHints: {
    type: "string",
    optional: true,
    about: "A JSON predicate tree the files' statistics may rule out (best effort).",
  },
  limitHint: { type: "integer", min: 0, max: INT32, optional: true, about: "Stop once files hold this many rows." },
  version: version("The version to read (time travel)."),
  timestamp: timestamp("The newest version made at or before this instant (time travel)."),
  startingVersion: version("A change feed from this version on."),
  endingVersion: version("A change feed up to this version."),
  maxFiles: { type: "integer", min: 1, max: INT32, optional: true, about: "Files in one answer (then a page token)." },
  pageToken: { type: "string", optional: true, about: "Where the previous answer ended (`nextPageToken`)." },
} as const satisfies Fields;

const TABLE = "/shares/{share}/schemas/{schema}/tables/{table}";

/** The protocol's operations. */
export const SHARING_OPERATIONS: readonly SharingOperation[] = [
  { name: "list_shares", methods: ["GET"], path: "/shares", about: "The shares.", input: PAGED, encoding: "json" },
  { name: "get_share", methods: ["GET"], path: "/shares/{share}", about: "One share.", input: {}, encoding: "json" },
  {
    name: "list_schemas",
    methods: ["GET"],
    path: "/shares/{share}/schemas",
    about: "A share's schemas (one: `default`).",
    input: PAGED,
    encoding: "json",
  },
  {
    name: "list_all_tables",
    methods: ["GET"],
    path: "/shares/{share}/all-tables",
    about: "Every table of a share.",
    input: PAGED,
    encoding: "json",
  },
  {
    name: "list_tables",
    methods: ["GET"],
    path: "/shares/{share}/schemas/{schema}/tables",
    about: "A schema's tables (the shared projects).",
    input: PAGED,
    encoding: "json",
  },
  {
    name: "table_version_head",
    methods: ["HEAD"],
    path: TABLE,
    about: "A table's newest version, in `Delta-Table-Version`.",
    input: {},
    encoding: "head",
  },
  {
    name: "table_version",
    methods: ["GET"],
    path: `${TABLE}/version`,
    about: "A table's newest version (or the first made at or after `startingTimestamp`), in `Delta-Table-Version`.",
    input: { startingTimestamp: timestamp("The first version made at or after this instant.") },
    encoding: "head",
  },
  {
    name: "table_metadata",
    methods: ["GET"],
    path: `${TABLE}/metadata`,
    about: "A version's `protocol` and `metaData` lines.",
    input: {
      version: version("The version (time travel)."),
      timestamp: timestamp("The newest version made at or before this instant."),
    },
    encoding: "lines",
  },
  {
    name: "query_table",
    methods: ["POST"],
    path: `${TABLE}/query`,
    about: "A version's files (or a range's changes), skipping files the predicates rule out, paged.",
    input: QUERY_TABLE_REQUEST,
    encoding: "lines",
  },
  {
    name: "table_changes",
    methods: ["GET"],
    path: `${TABLE}/changes`,
    about: "The change feed of a range of versions: the files each added.",
    input: {
      startingVersion: version("From this version on."),
      startingTimestamp: timestamp("From the first version made at or after this instant."),
      endingVersion: version("Up to this version."),
      endingTimestamp: timestamp("Up to the newest version made at or before this instant."),
    },
    encoding: "lines",
  },
];
