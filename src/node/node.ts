/**
 * A node over a store: its context, handler and resources.
 *
 * @module
 */
import { mkdir, realpath, stat } from "node:fs/promises";
import process from "node:process";
import { resolve } from "node:path";
import {
  openReadEngine,
  pageCache,
  type PageReader,
  pageReader,
  parquetWriters,
  type ReadEngine,
} from "../parquet/mod.ts";
import { nodeMemoryPlan } from "../settings/mod.ts";
import { mcpEndpoint } from "../mcp/mod.ts";
import { DEFAULT_SHARE_NAME, footerReader, keptFooters, pageKeyFor, recipientBook } from "../sharing/mod.ts";
import { createSqlPool, type SqlPool, type SqlPoolOptions } from "../sql/mod.ts";
import {
  createExportCache,
  DEFAULT_EXPORT_CACHE_BYTES,
  type ObjectStore,
  openStore,
  reportRefusedLinks,
  type Store,
} from "../store/mod.ts";
import type { FollowView, NodeContext, SharingSetup } from "./context.ts";
import { createHandler, type Handler } from "./handler.ts";
import {
  idleRecord,
  idleTrim,
  KEPT_COLUMNS_SHARE,
  keptColumns,
  type LogSink,
  type MemoryGate,
  memoryGate,
  type NodeLog,
  nodeLog,
  nodeMetrics,
  PARQUET_AT_ONCE,
  PARQUET_WAIT_MS,
  readCopies,
  sandboxWalls,
  turns,
} from "../service/mod.ts";
import type { MemoryPlan, SandboxWall } from "../wire/mod.ts";
import { createWriteCache, type WriteCache } from "../writes/mod.ts";
import { collectGarbage, tempRoot } from "../runtime/mod.ts";
import { sweepStaleTempFolders, SWEPT_FOLDERS_ENV, sweptFoldersLine } from "../launch/mod.ts";
import { tidyStore } from "./maintenance.ts";
import { isLoopback, type QuickHandler } from "../http/mod.ts";
import { createQuickHandler } from "./quick.ts";
import { storeFooters } from "./store_footers.ts";

/** How to run a node. */
export interface NodeOptions {
  /** The store directory; with `objectStore`, the local folder where the parts being read are kept. */
  store: string;
  /**
   * The store in an S3-compatible bucket instead of the folder (see
   * `openObjectStoreNode`, its root the real path of `store`, where it
   * keeps the parts being read): the node reads it and takes no write of
   * its own (a follower may write the bucket). `svc serve` opens it.
   * @internal
   */
  objectStore?: ObjectStore;
  /** The address the node is bound to (for the Host guard). */
  host: string;
  /** The port clients reach it at, for the Host guard (default 8686; `serveNode` sets the bound one). */
  port?: number;
  /** The node token, or null for none. */
  token: string | null;
  /** Refuse every write. */
  readOnly?: boolean;
  /** Bytes of finished exports kept for the next download (default 1 GiB; 0 keeps none; a read-only node keeps none). */
  exportCache?: number;
  /** Keep only the newest N versions of every project (pruned at start, after merges and followed versions). */
  keepVersions?: number | null;
  /**
   * The memory budget and its shares (`--memory`; default: three quarters
   * of the cgroup's limit, else a quarter of the machine's memory).
   */
  memory?: MemoryPlan;
  /**
   * Bytes of decoded row groups kept in memory for data pages (default: the
   * memory plan's share; 0 keeps none). Read only without `memory`, whose
   * `pageCache` it is otherwise.
   */
  pageCache?: number;
  /** Host names the node answers to besides its own address. */
  allowedHosts?: string[];
  /** Where request log lines go; null for none. */
  log?: LogSink;
  /** Where warnings and errors go (default: standard error). */
  warnings?: (line: string) => void;
  /** The clock (tests move it). */
  now?: () => number;
  /** SQL pool settings beyond the spec's defaults (time limit, waiting, memory). */
  sql?: Omit<SqlPoolOptions, "storeRoot">;
  /** The Delta Sharing share's name (default `svc`). */
  shareName?: string;
  /** The follow loop, whose status `/healthz` shows and whose projects cannot be created here. */
  follow?: FollowView;
  /** Longest a followed project may go without a good sync before `/readyz` says not ready (default: no limit). */
  readyMaxLagMs?: number | null;
  /** Whether `GET /metrics` answers (default true). */
  metrics?: boolean;
}

/** How long an export waits for its turn at being made before it is refused as busy (429). */
const EXPORT_WAIT_MS = 60_000;
/**
 * Blocks of records decoded into the page cache at once, at most: a decode
 * holds its block's records three times over (DuckDB's vectors, their JSON
 * texts, the bytes being compressed), and with four at once a budgeted node
 * peaked about 25 MiB higher under the mixed load.
 */
const DECODES_AT_ONCE = 2;

/** The node's page reader: its cache as the plan sizes it, its decodes bounded, its parts leased as read from a bucket. */
function nodePages(engine: ReadEngine, plan: MemoryPlan, store: Store): PageReader {
  return pageReader(engine, {
    cache: pageCache(plan.pageCache, { compressed: plan.pageCacheCompressed }),
    decodeTurns: turns(DECODES_AT_ONCE, null, "blocks being decoded"),
    remote: store.remote ? { lease: (parts) => store.lease(parts) } : undefined,
  });
}

/**
 * What the Delta Sharing routes keep for a node over `store`, with the
 * footers kept per part (settled when the node closes; in memory only on a
 * read-only node or over a bucket).
 */
function sharingSetup(engine: ReadEngine, store: Store, options: NodeOptions, logs: NodeLog) {
  const readOnly = (options.readOnly ?? false) || store.remote;
  const footers = keptFooters({ readOnly, warn: (m) => logs.warn(m) });
  const sharing: SharingSetup = {
    share: options.shareName ?? DEFAULT_SHARE_NAME,
    footers: storeFooters(footerReader(engine, footers), store),
    recipients: recipientBook(store.root),
    pageKey: pageKeyFor(options.token),
  };
  return { sharing, footers };
}

/** A node: the handler to serve and how to release what it holds. */
export interface SvcNode {
  /** The Web-standard request handler. */
  handler: Handler;
  /** The quick lane: health checks answered from their request heads (see `quick.ts`). */
  quick: QuickHandler;
  /** Starts the SQL workers now, so the first queries do not wait for them. */
  warmSql(): Promise<void>;
  /** Process ids of the SQL workers now running. */
  sqlPids(): number[];
  /** The walls up around the node and its SQL workers, as `/healthz` says them (`deno`, `landlock`, `view`, `duckdb`). */
  sandbox(): Promise<SandboxWall[]>;
  /** Says the node is stopping: `/readyz` answers 503 from now on, so balancers send nothing new. */
  drain(): void;
  /** Stops the SQL workers and releases the node's DuckDB; call after the server has stopped. */
  close(): Promise<void>;
}

/**
 * DuckDB's memory for writing contributions' parts: a batch of at most 512 KiB
 * and the small parts it folds (each under 1 MiB).
 */
const WRITER_MEMORY = 64 * 1024 * 1024;

/** What {@linkcode nodeGate} watches and sheds. */
interface GateParts {
  plan: MemoryPlan;
  sql: SqlPool;
  activity: { inFlight: number };
  pages: PageReader;
  engine: ReadEngine;
  writes: WriteCache;
  logs: NodeLog;
}

/**
 * The node's memory gate. Found over its budget at rest, the node sheds what
 * it can give back: the page cache, the duplicate gate's identities (read
 * again from disk by the next write), garbage, DuckDB's free memory.
 */
function nodeGate(parts: GateParts): MemoryGate {
  return memoryGate({ memory: parts.plan, sql: parts.sql }, {
    activity: parts.activity,
    kept: () => parts.pages.cacheStats()?.bytes ?? 0,
    warn: (message) => parts.logs.warn(message),
    shed: () => {
      parts.pages.trimCache(0);
      parts.writes.recordsByProject.clear();
      collectGarbage();
      parts.engine.returnFreeMemory().catch(() => {});
    },
  });
}

/**
 * The node's store (its folder, or the bucket `svc serve` opened), tidied
 * as the node starts, and whether the node refuses writes.
 */
async function nodeStore(
  options: NodeOptions,
  root: string,
  realRoot: string,
  logs: NodeLog,
): Promise<{ store: Store; readOnly: boolean }> {
  reportRefusedLinks((line) => logs.warn(line));
  const bucket = options.objectStore;
  if (bucket && bucket.root !== realRoot) throw new Error(`the object store keeps its parts in ${bucket.root}`);
  const store = bucket ?? openStore(root);
  // A node over a bucket takes no write of its own (see docs/operations.md, "Object store").
  const readOnly = (options.readOnly ?? false) || bucket !== undefined;
  await tidyStore(store, {
    keepVersions: options.keepVersions ?? null,
    readOnly,
    report: (line) => logs.info(line),
    warn: (message) => logs.warn(message),
  });
  return { store, readOnly };
}

/**
 * The node's store, made when missing, tidied (and upgraded) as the node
 * starts, with the node's log; and the SQL workers' folders a stopped node
 * left behind swept.
 */
async function openNodeStore(options: NodeOptions) {
  const root = resolve(options.store);
  // Made only when missing: a narrowed read-only node may not write even an existing folder's entry.
  if (!(await stat(root).catch(() => null))) await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  const logs = nodeLog(options.log ?? null, options.warnings);
  const { store, readOnly } = await nodeStore(options, root, realRoot, logs);
  // With those the launcher swept before it became this node (it could tell which nodes were alive; this one may not).
  const swept = (await sweepStaleTempFolders(tempRoot())) + (Number(process.env[SWEPT_FOLDERS_ENV]) || 0);
  if (swept > 0) logs.info(sweptFoldersLine(swept));
  return { root, realRoot, logs, store, readOnly };
}

/**
 * Builds a node over `options.store`.
 *
 * @example
 * ```ts
 * import { createNode } from "./node.ts";
 *
 * const node = await createNode({ store: await Deno.makeTempDir(), host: "127.0.0.1", token: null });
 * const res = await node.handler(new Request("http://127.0.0.1:8686/projects"));
 * console.log(res.status, await res.json()); // 200 []
 * await node.close();
 * ```
 */
export async function createNode(options: NodeOptions): Promise<SvcNode> {
  const { root, realRoot, logs, store, readOnly } = await openNodeStore(options);
  const plan = options.memory ?? nodeMemoryPlan(null, process.env, { pageCache: options.pageCache ?? null });
  for (const line of plan.outside) logs.warn(line);
  const engine = await openReadEngine(root, { memoryLimit: plan.readEngine, connections: plan.readConnections });
  const writer = await openReadEngine(root, { memoryLimit: WRITER_MEMORY, connections: 1, caches: false });
  const pages = nodePages(engine, plan, store);
  const sql = createSqlPool({
    duckdbMemory: plan.sqlWorker,
    recycleAbove: plan.sqlRecycleAbove,
    semiSpace: plan.semiSpace,
    size: plan.sqlWorkers,
    ...options.sql,
    storeRoot: realRoot,
    warn: (message) => logs.warn(message),
  });
  const activity = { inFlight: 0, lastEnded: (options.now ?? Date.now)() };
  const writes = createWriteCache();
  const state: Omit<NodeContext, "mcp" | "sharing"> = {
    store,
    exports: createExportCache(root, {
      maxBytes: options.exportCache ?? DEFAULT_EXPORT_CACHE_BYTES,
      readOnly,
    }),
    engine,
    readCopies: readCopies(engine, store),
    keptColumns: keptColumns(engine, store, Math.floor(plan.pageCache / KEPT_COLUMNS_SHARE)),
    writer,
    pages,
    sql,
    storeRealPath: realRoot,
    token: options.token,
    readOnly,
    keepVersions: options.keepVersions ?? null,
    storeAsNamed: store.remote ? store.location : options.store,
    since: new Date(),
    address: { host: options.host, port: options.port ?? 8686, allowedHosts: options.allowedHosts ?? [] },
    loopbackNode: isLoopback(options.host),
    now: options.now ?? Date.now,
    follow: options.follow ?? null,
    log: logs,
    writes,
    readyMaxLagMs: options.readyMaxLagMs ?? null,
    lifecycle: { stopping: false },
    metrics: options.metrics === false ? null : nodeMetrics(),
    memory: plan,
    exportTurns: turns(plan.exportsAtOnce, EXPORT_WAIT_MS, "exports being made"),
    parquetTurns: turns(PARQUET_AT_ONCE, PARQUET_WAIT_MS, "Parquet downloads being written", 2),
    parquetWriters: parquetWriters(),
    activity,
    idle: idleRecord(),
    memoryGate: nodeGate({ plan, sql, activity, pages, engine, writes, logs }),
  };
  const { sharing, footers } = sharingSetup(engine, store, options, logs);
  const context: NodeContext = Object.assign(state, { mcp: mcpEndpoint(state), sharing });
  const trim = idleTrim(state);
  // A first look at rest: a node whose baseline is over its budget says so now, and serves on.
  state.memoryGate.held();
  return {
    handler: createHandler(context),
    quick: createQuickHandler(context),
    sqlPids: () => sql.pids(),
    sandbox: () => sandboxWalls(state),
    drain: () => state.lifecycle.stopping = true,
    warmSql: () => sql.warm(),
    close: async () => {
      await trim.stop();
      await sql.close();
      await pages.settle();
      await footers.settle();
      await engine.close();
      await writer.close();
      await state.parquetWriters.closeIdle();
    },
  };
}
