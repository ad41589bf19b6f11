/**
 * The node's memory as operators see it and as it comes back: `/healthz`'s
 * `memory` (the budget, its shares, what is resident now), and the idle trim
 * that gives memory back once the node has had no request for a while (the
 * page cache down to its steady share after 15 s and, for a node holding a
 * real share of its budget, a full garbage collection after 45 s; the SQL
 * pool stops its idle workers on its own).
 *
 * @module
 */
import process from "node:process";
import { collectGarbage, unrefTimer } from "../runtime/mod.ts";
import type { MemoryHealth, MemoryPlan } from "../wire/mod.ts";
import type { PageReader, ParquetWriters, ReadEngine } from "../parquet/mod.ts";
import type { SqlPoolStats } from "../sql/mod.ts";

/** What the node's memory is judged by: its plan and its SQL pool (a part of `NodeState`, which holds the gate). */
export interface MemoryView {
  memory: MemoryPlan;
  /** What the SQL workers hold (resident bytes, as each said after its latest query) and how many run. */
  sql: { stats(): Pick<SqlPoolStats, "resident" | "workers"> };
}

/** What the idle trim watches and trims. */
interface IdleView {
  memory: MemoryPlan;
  activity: { inFlight: number; lastEnded: number };
  /** What the trim has done, written by it (`/healthz` shows it). */
  idle: IdleRecord;
  pages: Pick<PageReader, "trimCache">;
  engine: Pick<ReadEngine, "returnFreeMemory">;
  parquetWriters: Pick<ParquetWriters, "closeIdle">;
  now(): number;
  /** The node's resident bytes now (its process's resident set, as `/healthz` last looked, when not given). */
  resident?: () => number;
  /** A full garbage collection ({@linkcode collectGarbage} when not given). */
  collect?: () => void;
}

/** How long without a request before the node trims at first (the SQL pool stops idle workers after 20 s). */
export const TRIM_AFTER_MS = 15_000;
/**
 * The longest the trim's wait grows to. Load that comes back within one
 * more wait of a trim doubles the wait (15, 30, 45 s): the memory the trim
 * handed back was wanted again at once, and taking it back costs the first
 * seconds of that load (its blocks made plain again, its pages faulted in;
 * docs/benchmarks.md, "budget"). A node under load every 20 s paid that every
 * 20 s. A trim followed by an idle spell as long as its wait was worth it,
 * and the wait goes back to 15 s. At most 45 s: a node idle for a minute
 * has given its memory back whatever came before.
 */
export const TRIM_AFTER_MAX_MS = 45_000;

/**
 * How long without a request before the idle trim collects garbage, once
 * per idle spell, when the node holds a real share of its budget (its trim
 * of the page cache comes first, at {@linkcode TRIM_AFTER_MS}). The
 * collection is what costs the next load most: run with no request alive, it
 * throws away the code V8 optimized for requests (a 512 MiB node's first 2 s
 * after one ran at 0.61-0.87x of the 4 s after; docs/benchmarks.md,
 * "budget"). A node idle between bursts up to 45 s apart keeps that code; one
 * idle for 45 s is at rest, and gives the rest of its memory back. As long
 * as the trim's longest wait ({@linkcode TRIM_AFTER_MAX_MS}): a node idle for
 * 46 s (the trim looks every second) has given its memory back whatever came
 * before.
 */
export const COLLECT_AFTER_MS = 45_000;

/** What the idle trim has done: how long it waits now, and how many times it has trimmed (`/healthz`'s `memory.idleTrim`). */
export interface IdleRecord {
  /** How long without a request before the next trim, in ms. */
  waitMs: number;
  /** Trims since the node started. */
  trims: number;
  /** Garbage collections the trim has run since the node started (after {@linkcode COLLECT_AFTER_MS} idle). */
  collections: number;
}

/**
 * A node's idle record before its first trim.
 *
 * @example
 * ```ts
 * import { idleRecord } from "./memory.ts";
 * idleRecord(); // { waitMs: 15000, trims: 0, collections: 0 }
 * ```
 */
export function idleRecord(): IdleRecord {
  return { waitMs: TRIM_AFTER_MS, trims: 0, collections: 0 };
}
/**
 * What the page cache keeps through an idle spell, as a share of its size: a
 * quarter. The trim compresses blocks before it drops any, so the share holds
 * about every record a whole cache held plain (the bench's million records:
 * 113 MiB plain, 14 MiB compressed), and the next pages make them plain again
 * in a few ms a block instead of decoding them again from the parts. An
 * eighth (10.6 MiB at 512 MiB) could not hold them: every round after a trim
 * decoded 80-90 blocks again, 24-32 ms of CPU each, and a 512 MiB node fell
 * to 0.67x of its first round (docs/benchmarks.md, "budget"). Compressed
 * first, a quarter costs the memory an eighth did at most a few MiB more.
 */
const STEADY_PAGE_CACHE = 0.25;
/**
 * A page cache whose whole size is at most this share of the memory budget
 * is left whole through an idle spell: it cannot hold enough of the budget
 * to matter at rest, and making its blocks plain again cost every round
 * after a trim 8-15% more CPU a page (the default budget's 256 MiB cache in
 * 6 GiB: 0.080-0.091 ms a page after trims, 0.074-0.077 without; docs/
 * benchmarks.md, "budget"). A 512 MiB node's 85 MiB cache is trimmed.
 */
const UNTRIMMED_CACHE_SHARE = 1 / 16;
/**
 * The idle trim collects garbage and empties the allocators only when the
 * node holds more than this share of its budget: below it, what they give
 * back does not matter to the budget, and both cost the rounds after them.
 * (V8's own memory reducer, which did this about ten seconds into every idle
 * spell, is off in the node: `nodeHeapFlags`, src/launch/memory_budget.ts.)
 * Each forced collection left V8 collecting more often afterwards (the
 * default budget's node, a 10 s round of random pages after each of four
 * trims: 47, 114, 109, 84 full collections, their helper threads' CPU 1.4 to
 * 2.2 s, answers down to 0.87x of the first round; without it 17-24 and no
 * fall), and the memory handed back is faulted in again by the next round
 * (30,000 faults a round against 17,000). A 512 MiB node holds more than an
 * eighth (docs/benchmarks.md, "budget"), and pays for it in the first
 * seconds of its next load: collected with no request alive, the objects
 * optimized code embedded die, and V8 drops that code (about a hundred
 * functions compiled again, within about a second at the node's sooner
 * tier-up, `NODE_TIER_UP_FLAGS`, src/launch/node_v8_flags.ts).
 */
const REST_SHARE = 1 / 8;

/**
 * `/healthz`'s `memory` for the node of `ctx`.
 *
 * @example
 * ```ts ignore
 * import { memoryHealth } from "./memory.ts";
 * const { budget, resident } = memoryHealth(state);
 * ```
 */
export function memoryHealth(
  ctx: MemoryView & {
    /** The memory gate: what the node holds at rest (`MemoryGate`). */
    memoryGate: { baseline(): number; overAtRest(): boolean };
    pages: Pick<PageReader, "cacheStats">;
    idle: IdleRecord;
  },
): MemoryHealth {
  const usage = usageNow();
  return {
    ...ctx.memory,
    resident: { node: usage.rss, sqlWorkers: ctx.sql.stats().resident },
    held: { jsHeap: usage.heapUsed, external: usage.external, pageCache: ctx.pages.cacheStats()?.bytes ?? 0 },
    atRest: ctx.memoryGate.baseline(),
    overBudgetAtRest: ctx.memoryGate.overAtRest(),
    idleTrim: { ...ctx.idle },
  };
}

/** How long a look at the node's memory stands for `/healthz`. */
const USAGE_LOOK_MS = 250;
let usageLook: { at: number; usage: NodeJS.MemoryUsage | null } = { at: -Infinity, usage: null };

/**
 * The node's memory usage, looked at most every 250 ms: the look costs
 * more than the rest of a health check (a third of `/healthz`'s time under
 * a monitor polling it at full speed).
 */
function usageNow(): NodeJS.MemoryUsage {
  const now = performance.now();
  if (usageLook.usage === null || now - usageLook.at >= USAGE_LOOK_MS) {
    usageLook = { at: now, usage: process.memoryUsage() };
  }
  return usageLook.usage!;
}

/** The idle trim of one node. */
export interface IdleTrim {
  /** Trims (and collects) now if the node has been idle long enough; true when it did either. */
  check(): boolean;
  /** Trims and collects now, idle or not. */
  trim(): void;
  /** Stops watching; resolves once the last trim has handed its memory back. */
  stop(): Promise<void>;
}

/**
 * Watches `ctx`'s requests every second and, once per idle spell, trims after
 * `ctx.idle.waitMs` with none in flight and none ended (from
 * {@linkcode TRIM_AFTER_MS}, doubled up to {@linkcode TRIM_AFTER_MAX_MS}
 * while load keeps coming back within a wait of a trim), then collects after
 * {@linkcode COLLECT_AFTER_MS}. The trim cuts the page cache to a quarter of
 * its size (its blocks compressed, then the least recently used dropped,
 * their memory handed back at once) unless it is within a sixteenth of the
 * memory budget, and closes the DuckDB kept for Parquet downloads. The
 * collection runs when the node holds more than an eighth of its budget: a
 * full garbage collection (most of a busy node's heap is garbage V8 would
 * otherwise keep a while), then what that freed in the allocators is handed
 * back to the system.
 *
 * @example
 * ```ts ignore
 * import { idleTrim } from "./memory.ts";
 * const trim = idleTrim(state);
 * // ... later, when the node stops:
 * await trim.stop();
 * ```
 */
export function idleTrim(
  ctx: IdleView,
  everyMs = 1_000,
): IdleTrim {
  let trimmedAfter = -1;
  let collectedAfter = -1;
  /** When the latest trim ran, until load comes back after it. */
  let trimmedAt: number | null = null;
  let returning: Promise<void> = Promise.resolve();
  const trimCache = () => {
    if (ctx.memory.pageCache > ctx.memory.budget * UNTRIMMED_CACHE_SHARE) {
      ctx.pages.trimCache(Math.floor(ctx.memory.pageCache * STEADY_PAGE_CACHE));
    }
    returning = returning.then(() => ctx.parquetWriters.closeIdle()).catch(() => {});
  };
  const collect = () => {
    if ((ctx.resident ?? (() => usageNow().rss))() <= ctx.memory.budget * REST_SHARE) return false;
    (ctx.collect ?? collectGarbage)();
    ctx.idle.collections++;
    // The collection released DuckDB's results and buffers: to the system, not to the allocators' free lists.
    returning = returning.then(() => ctx.engine.returnFreeMemory()).catch(() => {});
    return true;
  };
  const check = () => {
    const { inFlight, lastEnded } = ctx.activity;
    const now = ctx.now();
    if (trimmedAt !== null && (inFlight > 0 || lastEnded !== trimmedAfter)) {
      const back = lastEnded !== trimmedAfter ? lastEnded : now;
      ctx.idle.waitMs = back - trimmedAt < ctx.idle.waitMs
        ? Math.min(ctx.idle.waitMs * 2, TRIM_AFTER_MAX_MS)
        : TRIM_AFTER_MS;
      trimmedAt = null;
    }
    if (inFlight > 0) return false;
    let did = false;
    if (lastEnded !== trimmedAfter && now - lastEnded >= ctx.idle.waitMs) {
      trimmedAfter = lastEnded;
      trimmedAt = now;
      ctx.idle.trims++;
      trimCache();
      did = true;
    }
    if (lastEnded === trimmedAfter && lastEnded !== collectedAfter && now - lastEnded >= COLLECT_AFTER_MS) {
      collectedAfter = lastEnded;
      did = collect() || did;
    }
    return did;
  };
  // The watch alone keeps no process alive.
  const timer = unrefTimer(setInterval(check, everyMs));
  return {
    check,
    trim: () => {
      trimCache();
      collect();
    },
    stop: async () => {
      clearInterval(timer);
      await returning;
    },
  };
}
