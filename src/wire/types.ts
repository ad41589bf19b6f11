/**
 * JSON shapes of the node's HTTP answers, shared by the node, the client and
 * the tests. Field names are the origin's, so clients of the origin read them
 * unchanged.
 *
 * @module
 */

/** A field of a project schema. */
export interface SchemaField {
  /** Column name. */
  name: string;
  /** `string`, `integer`, `number` or `boolean`. */
  type: string;
  /** A field is required unless this is `false`. */
  required?: boolean;
}

/** A project schema: typed fields, and whether records may carry others. */
export interface SchemaDef {
  /** The typed fields. */
  fields: SchemaField[];
  /** Whether records may carry fields the schema does not name. */
  allowExtra: boolean;
}

/** One part of a version, as published (with `url`) or stored (without). */
export interface ManifestPart {
  /** Lowercase SHA-256 hex of the Parquet file. */
  sha256: string;
  /** Exact size of the Parquet file in bytes. */
  bytes: number;
  /** Number of records in the part. */
  records?: number;
  /** Where to fetch the part; only in published manifests. */
  url?: string;
  /** Other keys pass through untouched. */
  [key: string]: unknown;
}

/** A version manifest as the node publishes it on `GET /projects/{slug}/manifest`. */
export interface Manifest {
  /** Always `svc-dataset-manifest/1` when published. */
  format: string;
  /** Project slug. */
  project: string;
  /** Version number. */
  version: number;
  /** The parts that make the version, in record order. */
  parts: ManifestPart[];
  /** Other keys (`parent`, `schema`, `totals`, `signature`, ...) pass through untouched. */
  [key: string]: unknown;
}

/** An entry of `GET /projects`. */
export interface ProjectEntry {
  /** Project slug. */
  slug: string;
  /** Display title (the slug when none is known). */
  title: string;
  /** `open`, `paused` or `archived`. */
  status: string;
  /** License string, `unknown` when none is known. */
  license: string;
  /** Always `public` on a node. */
  access: string;
  /** `public` or `private`. */
  visibility: string;
  /** Creation time, ISO 8601, or null when unknown. */
  createdAt: string | null;
  /** Stars on the origin (0 on a node). */
  stars: number;
  /** Contributions merged into the latest version. */
  contributions: number;
  /** Records in the latest local version. */
  records: number;
  /** Newest version known (0 when none). */
  latestVersion: number;
  /** How many versions this node holds whole. */
  localVersions: number;
  /** Whether the project was created on this node. */
  local: boolean;
}

/** A version in the project detail answer. */
export interface VersionSummary {
  /** Version number. */
  version: number;
  /** The published manifest, parts without `url`. */
  manifest: Record<string, unknown>;
  /** When the version was made, or null when unknown. */
  createdAt: string | null;
}

/** The answer of `GET /projects/{slug}`. */
export interface ProjectDetail {
  /** Origin id, null on a node. */
  id: string | null;
  /** Project slug. */
  slug: string;
  /** Display title. */
  title: string;
  /** README text. */
  readme: string;
  /** The project schema. */
  schemaDef: SchemaDef | null;
  /** License string. */
  license: string;
  /** Tags. */
  tags: string[];
  /** Always `public` on a node. */
  access: string;
  /** `public` or `private`. */
  visibility: string;
  /** Maintainer, null on a node. */
  maintainer: unknown;
  /** Whether the project was created on this node. */
  local: boolean;
  /** `open`, `paused` or `archived`. */
  status: string;
  /** Creation time or null. */
  createdAt: string | null;
  /** Stars on the origin. */
  stars: number;
  /** Newest version known (0 when none). */
  latestVersion: number;
  /** Versions held whole on this node, newest first. */
  localVersions: number[];
  /** Contributors (empty on a node). */
  contributors: unknown[];
  /** The newest (at most 10) local versions. */
  versions: VersionSummary[];
}

/** The answer of `GET /projects/{slug}/data`. */
export interface DataPage {
  /** Project slug. */
  project: string;
  /** Version the page was read from. */
  version: number;
  /** Number of records in this page. */
  count: number;
  /** The records, in part order then row order, null columns omitted. */
  records: Record<string, unknown>[];
  /** Records in the version (nodes, and the origin since 0.28). */
  total?: number;
  /** Offset of the next page, null after the last (nodes, and the origin since 0.28). */
  next?: number | null;
}

/** Every error answer: a message for people. */
export interface ErrorBody {
  /** What went wrong and, where possible, what to do. */
  error: string;
}

/** A contribution's answer, as the node gives and keeps it. */
export interface ContributionView {
  /** UUID v4. */
  id: string;
  /** A node answers `merged` or `rejected`; the origin, which screens later, may answer another state first. */
  status: "merged" | "rejected" | (string & Record<never, never>);
  /** Records sent. */
  recordCount: number;
  /** Records merged (null when rejected). */
  acceptedCount: number | null;
  /** `{ok, droppedDuplicates, parts}` when merged; `{gate, reason}` when rejected. */
  verdict: Record<string, unknown>;
  /** The version the merge made (null when rejected). */
  mergedVersion: number | null;
  /** When it was received, ISO 8601 with milliseconds. */
  createdAt: string;
  /** The contributor's declaration of where the records come from. */
  sourceDeclaration: string | null;
}

/** The answer of `POST /projects/{slug}/query` (a node's, the origin's, or a local query's). */
export interface QueryAnswer {
  /** Project slug. */
  project: string;
  /** Version queried. */
  version: number;
  /** Column names. */
  columns: string[];
  /** DuckDB type names. */
  types: string[];
  /** Rows as arrays. */
  rows: unknown[][];
  /** Rows returned. */
  count: number;
  /** Whether more rows existed. */
  truncated: boolean;
  /** Milliseconds on the engine. */
  ms: number;
  /** Bytes of the version's parts. */
  scannedBytes: number;
}
