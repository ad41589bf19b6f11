/**
 * JSON shapes of what a node says about itself: `GET /healthz` (its store,
 * what it follows, its memory, its sandbox) and `GET /readyz`.
 *
 * @module
 */

/** A version held on disk but not served, and why. */
export interface IncompleteVersion {
  /** Project slug. */
  project: string;
  /** Version number. */
  version: number;
  /** What is wrong with it, for people. */
  reason: string;
}

/**
 * The outcome of a signature check: `verified` (by a key pinned for the
 * origin, or endorsed by one), `unsigned`, or `untrusted`.
 *
 * @example
 * ```ts
 * import type { SignatureStatus } from "./health_types.ts";
 * const status: SignatureStatus = "verified";
 * ```
 */
export type SignatureStatus = "verified" | "unsigned" | "untrusted";

/**
 * How following one project goes, as `/healthz` reports it.
 *
 * @example
 * ```ts
 * import type { FollowStatus } from "./health_types.ts";
 * const status: FollowStatus = {
 *   version: 2, at: "2026-11-22T03:00:00.000Z", error: null, signature: "verified", from: "https://origin.example",
 *   syncedAt: "2026-11-22T03:00:00.000Z", behind: 0, failures: 0,
 * };
 * ```
 */
export interface FollowStatus {
  /** The newest version held (null before the first version arrived). */
  version: number | null;
  /** When the last sync ended (null before the first). */
  at: string | null;
  /** Why the last sync failed, or null. */
  error: string | null;
  /** `verified`, `unsigned` or `untrusted` for the newest version seen (null before any). */
  signature: SignatureStatus | null;
  /** Where the project is followed from. */
  from: string;
  /** Ours: when the last sync that went well ended (null before the first since the node started). */
  syncedAt: string | null;
  /** Ours: versions the source had beyond the one held, as of the last sync that reached it (null before any). */
  behind: number | null;
  /** Ours: syncs that failed since the node started. */
  failures: number;
}

/**
 * What `GET /readyz` answers: whether the node should be sent traffic, and
 * if not, why (`projects` says it per followed project, for token holders).
 *
 * @example
 * ```ts
 * import type { Readiness } from "./health_types.ts";
 * const r: Readiness = { ready: false, reason: "cities: first sync not done" };
 * ```
 */
export interface Readiness {
  /** Whether the node is ready for traffic. */
  ready: boolean;
  /** Why not, when not ready. */
  reason?: string;
  /** Why not, per followed project that is not ready (token holders only). */
  projects?: Record<string, string>;
}

/** The full answer of `GET /healthz` (token holders, or nodes without a token). */
export interface Health {
  /** Always true while the node answers. */
  ok: true;
  /** Always true: how clients tell a node from the origin. */
  node: true;
  /** Whether the node refuses every write. */
  readOnly: boolean;
  /** The store directory as configured. */
  store: string;
  /** When the node started, ISO 8601. */
  since: string;
  /** Projects in the store. */
  projects: number;
  /** Whole versions across all projects. */
  versions: number;
  /** Slugs of projects created on this node. */
  localProjects: string[];
  /** Versions kept per project (`--keep-versions`), or null when all are kept. */
  keepVersions: number | null;
  /** `token` when a node token is set, else `none`. */
  auth: "token" | "none";
  /** Follow status per followed project. */
  follow: Record<string, FollowStatus>;
  /** Followed projects whose last sync failed (they keep serving the version held). */
  followFailing: string[];
  /** Versions on disk that are not served because they are not whole. */
  incomplete: IncompleteVersion[];
  /** Ours: the data pages' cache of decoded row groups (bytes held and allowed, groups, pages served from memory and not), or null when off. */
  pageCache:
    | { maxBytes: number; bytes: number; groups: number; hits: number; misses: number; compressed: boolean }
    | null;
  /** Ours: the walls up around the node and its SQL workers (see {@linkcode SandboxWall}), strongest first. */
  sandbox: SandboxWall[];
  /** Ours: the memory budget, its shares, and what the node holds now (see {@linkcode MemoryHealth}). */
  memory: MemoryHealth;
}

/**
 * The node's memory budget (`--memory`) and how it is carved, in bytes, as
 * `/healthz` says it: every share is carved from `budget`, and `outside`
 * names any share set by hand past it.
 *
 * @example
 * ```ts
 * import type { MemoryPlan } from "./health_types.ts";
 * const plan: MemoryPlan = {
 *   budget: 536870912, source: "flag", pageCache: 32212254, pageCacheCompressed: true, readEngine: 134217728,
 *   readConnections: 4,
 *   download: 33554432, sqlWorkers: 1, sqlWorker: 134217728, sqlRecycleAbove: 264241152, exportsAtOnce: 1, exportBlocks: 1,
 *   sqlWorkerShared: 75497472, semiSpace: 16777216, outside: [],
 * };
 * ```
 */
export interface MemoryPlan {
  /** The budget of the node and its SQL workers together. */
  budget: number;
  /** Where it came from: `flag` (`--memory`/`SVC_NODE_MEMORY`), `cgroup` (a share of the container's limit), `machine`. */
  source: "flag" | "cgroup" | "machine";
  /** The page cache's size. */
  pageCache: number;
  /** Whether the page cache keeps its blocks compressed (it does below its full share, 256 MiB). */
  pageCacheCompressed: boolean;
  /** `memory_limit` of the node's own DuckDB (data pages, exports, statistics). */
  readEngine: number;
  /** Queries the node's own DuckDB runs at once (its pooled connections, four); the next waits for one. */
  readConnections: number;
  /** `memory_limit` of the DuckDB writing one Parquet download. */
  download: number;
  /** SQL workers that run queries at once, each a process of its own: one under a 1 GiB budget, two from it. */
  sqlWorkers: number;
  /** `memory_limit` of each SQL worker's DuckDB. */
  sqlWorker: number;
  /** A SQL worker whose resident size passes this after a query is replaced. */
  sqlRecycleAbove: number;
  /** Exports made at once (each holds blocks of lines being built and sent); the next waits its turn. */
  exportsAtOnce: number;
  /** Blocks of 16,384 lines an export has DuckDB build in one query (1 to 8): fewer hold less, more go faster. */
  exportBlocks: number;
  /** What a SQL worker's resident size holds of pages the node maps too (its runtime's binary, DuckDB's library): counted once. */
  sqlWorkerShared: number;
  /** Each semi-space of V8's young generation in the node and its SQL workers, or null for V8's own size. */
  semiSpace: number | null;
  /** Shares set by hand past what the budget gives them. */
  outside: string[];
}

/**
 * `/healthz`'s `memory`: the plan, and the resident bytes now of the node
 * process and of its SQL workers (as each last reported).
 *
 * @example
 * ```ts
 * import type { MemoryHealth } from "./health_types.ts";
 * const seen: Pick<MemoryHealth, "resident" | "overBudgetAtRest"> = {
 *   resident: { node: 120_000_000, sqlWorkers: 0 },
 *   overBudgetAtRest: false,
 * };
 * ```
 */
export interface MemoryHealth extends MemoryPlan {
  /** Resident bytes now: the node process, and its running SQL workers together. */
  resident: { node: number; sqlWorkers: number };
  /**
   * What holds the node's memory now, in bytes: the JavaScript heap in use,
   * memory outside it (buffers), the page cache's blocks.
   */
  held: { jsHeap: number; external: number; pageCache: number };
  /** What the node held the latest time it had no request at work (0 before it was seen so). */
  atRest: number;
  /** Whether that is over the point where requests wait: the node then serves on, measuring against it. */
  overBudgetAtRest: boolean;
  /**
   * The idle trim: how long without a request before its next trim (ms; 15 s, doubled up to 45 s while load keeps
   * coming back within a wait of a trim), how many times it has trimmed since the node started, and how many of its
   * idle spells ended in a full garbage collection (after 45 s without a request, for a node holding more than an
   * eighth of its budget).
   */
  idleTrim: { waitMs: number; trims: number; collections: number };
}

/**
 * A wall `/healthz` says is up: `deno`, the node runs under narrowed Deno
 * permissions; `landlock`, SQL workers are confined by Landlock (reading the
 * store, writing their temp folder); `view`, SQL workers see the store in a
 * private view of the filesystem at a neutral path; `duckdb`, DuckDB's own
 * settings (external access off, only the version's parts, locked).
 *
 * @example
 * ```ts
 * import type { SandboxWall } from "./health_types.ts";
 * const walls: SandboxWall[] = ["deno", "landlock", "view", "duckdb"];
 * ```
 */
export type SandboxWall = "deno" | "landlock" | "view" | "duckdb";
