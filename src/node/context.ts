/**
 * What every handler needs: the store, the readers over it, the node's
 * settings and a clock.
 *
 * @module
 */
import type { PageReader, ReadEngine } from "../parquet/mod.ts";
import type { SqlPool } from "../sql/mod.ts";
import type { ExportCache, Store } from "../store/mod.ts";
import type { FollowStatus } from "../wire/types.ts";
import type { NodeAddress } from "./guards/host.ts";

/** The node's view of its follow loop. */
export interface FollowView {
  /** The status of every followed project. */
  status(): Record<string, FollowStatus>;
}

/** The node's settings and services, passed to every handler. */
export interface NodeContext {
  /** The store, read side. */
  store: Store;
  /** Finished exports kept for the next download. */
  exports: ExportCache;
  /** The node's own DuckDB for pages and exports. */
  engine: ReadEngine;
  /** Pages of records by row range. */
  pages: PageReader;
  /** The worker pool that runs user SQL. */
  sql: SqlPool;
  /** The store's real path (resolved symlinks), for the SQL sandbox. */
  realRoot: string;
  /** The node token, or null when the node has none. */
  token: string | null;
  /** Whether every write is refused. */
  readOnly: boolean;
  /** Versions kept per project, or null to keep all. */
  keepVersions: number | null;
  /** The store directory as the operator named it (shown in `/healthz`). */
  storeLabel: string;
  /** When the node started. */
  since: Date;
  /** Where the node listens, for the Host guard (the port is set once bound). */
  address: NodeAddress;
  /** Whether `address.host` is loopback (the node's pages are then trusted); it never changes. */
  loopbackNode: boolean;
  /** The clock, in milliseconds since the epoch. */
  now(): number;
  /** The follow loop, when the node follows projects. */
  follow: FollowView | null;
}
