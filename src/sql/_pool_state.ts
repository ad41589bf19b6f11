/**
 * What a SQL pool holds (its slots, the queries waiting for one, its
 * settings) and what it says of itself for `/metrics` and the memory gate.
 *
 * @module
 */
import type { WorkerProcess, WorkerSettings } from "./_worker_process.ts";

/** What a pool is doing now, for `/metrics` and the memory gate. */
export interface SqlPoolStats {
  /** Queries holding a worker (a worker starting counts). */
  running: number;
  /** Queries waiting for a worker. */
  queued: number;
  /** Queries that may run at once. */
  slots: number;
  /** Seconds queries spent waiting for a worker since the pool started, all together. */
  waitedSeconds: number;
  /** Resident bytes of the running workers, as each last reported (after its latest query). */
  resident: number;
  /** Workers that reported a resident size (those counted in `resident`). */
  workers: number;
}

/** Whether the slot's running worker has said its resident size. */
function reported(slot: Slot): boolean {
  return slot.rss !== undefined && slot.worker === slot.rss.of;
}

/** One worker's place in the pool: the worker, its start under way, whether a query holds it, its idle timer. */
export interface Slot {
  worker: WorkerProcess | null;
  starting: Promise<WorkerProcess> | null;
  busy: boolean;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** What the worker said its resident size was after its latest query. */
  rss?: { of: WorkerProcess; bytes: number };
}

/** A pool: its slots, the queries waiting for one, and its settings. */
export interface PoolState {
  slots: Slot[];
  waiters: { grant: (slot: Slot) => void }[];
  /** Milliseconds queries spent waiting for a worker, all together. */
  waitedMs: number;
  nextId: number;
  closed: boolean;
  storeRoot: string;
  timeoutMs: number;
  queueWaitMs: number;
  graceMs: number;
  idleMs: number;
  settings: WorkerSettings;
  /** The walls of the latest worker to start, null before one did. */
  walls: { landlock: boolean; view: boolean } | null;
}

/** What `pool` is doing now. */
export function poolStats(pool: PoolState): SqlPoolStats {
  return {
    running: pool.slots.filter((slot) => slot.busy).length,
    queued: pool.waiters.length,
    slots: pool.slots.length,
    waitedSeconds: pool.waitedMs / 1000,
    resident: pool.slots.reduce((n, slot) => n + (reported(slot) ? slot.rss!.bytes : 0), 0),
    workers: pool.slots.filter(reported).length,
  };
}
