/**
 * The node's memory as operators see it and as it comes back: `/healthz`'s
 * `memory` (the budget, its shares, what is resident now), and the idle trim
 * that gives memory back once the node has had no request for a while (the
 * page cache down to its steady share, a full garbage collection; the SQL
 * pool stops its idle workers on its own).
 *
 * @module
 */
import process from "node:process";
import { NodeError } from "../errors/mod.ts";
import { collectGarbage, unrefTimer } from "../runtime/mod.ts";
import type { MemoryHealth, MemoryPlan } from "../wire/mod.ts";
import type { PageReader, ReadEngine } from "../parquet/mod.ts";
import type { SqlPool } from "../sql/mod.ts";

/** What the node's memory is judged by: its plan and its SQL pool (a part of `NodeState`, which holds the gate). */
interface MemoryView {
  memory: MemoryPlan;
  sql: Pick<SqlPool, "stats">;
}

/** What the idle trim watches and trims. */
interface IdleView {
  memory: MemoryPlan;
  activity: { inFlight: number; lastEnded: number };
  pages: Pick<PageReader, "trimCache">;
  engine: Pick<ReadEngine, "returnFreeMemory">;
  now(): number;
}

/** How long without a request before the node trims (the SQL pool stops idle workers after 20 s). */
export const TRIM_AFTER_MS = 15_000;
/** What the page cache keeps through an idle spell, as a share of its size. */
const STEADY_PAGE_CACHE = 0.25;

/**
 * `/healthz`'s `memory` for the node of `ctx`.
 *
 * @example
 * ```ts ignore
 * import { memoryHealth } from "./memory.ts";
 * const { budget, resident } = memoryHealth(state);
 * ```
 */
export function memoryHealth(ctx: MemoryView): MemoryHealth {
  return { ...ctx.memory, resident: { node: process.memoryUsage.rss(), sqlWorkers: ctx.sql.stats().resident } };
}

/** The idle trim of one node. */
export interface IdleTrim {
  /** Trims now if the node has been idle for {@linkcode TRIM_AFTER_MS}; true when it did. */
  check(): boolean;
  /** Trims now, idle or not. */
  trim(): void;
  /** Stops watching; resolves once the last trim has handed its memory back. */
  stop(): Promise<void>;
}

/**
 * Watches `ctx`'s requests every second and trims once per idle spell, after
 * {@linkcode TRIM_AFTER_MS} with none in flight and none ended: the page cache
 * is cut to a quarter of its size (its most recently used blocks), a full
 * garbage collection runs (most of a busy node's heap is garbage V8 would
 * otherwise keep until its next allocation), and what that freed in the
 * allocators is handed back to the system.
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
  let returning: Promise<void> = Promise.resolve();
  const trim = () => {
    ctx.pages.trimCache(Math.floor(ctx.memory.pageCache * STEADY_PAGE_CACHE));
    collectGarbage();
    // The collection released DuckDB's results and buffers: to the system, not to the allocators' free lists.
    returning = returning.then(() => ctx.engine.returnFreeMemory()).catch(() => {});
  };
  const check = () => {
    const { inFlight, lastEnded } = ctx.activity;
    if (inFlight > 0 || lastEnded === trimmedAfter || ctx.now() - lastEnded < TRIM_AFTER_MS) return false;
    trimmedAfter = lastEnded;
    trim();
    return true;
  };
  // The watch alone keeps no process alive.
  const timer = unrefTimer(setInterval(check, everyMs));
  return {
    check,
    trim,
    stop: async () => {
      clearInterval(timer);
      await returning;
    },
  };
}

/** How the node holds its budget under load. */
export interface MemoryGate {
  /** Refuses (503, `Retry-After: 1`) when the node and its SQL workers are at their budget; collects garbage near it. */
  admit(): void;
  /** The bytes held at the latest look: the node, and its SQL workers as they last said. */
  held(): number;
  /** Requests refused at the budget so far. */
  refused(): number;
}

/**
 * The node's resident bytes and its SQL workers' own: what a worker's
 * resident size holds of the pages it shares with the node (the runtime's
 * binary, DuckDB's library) is counted once, in the node's, as a memory
 * cgroup charges them.
 */
function heldNow(ctx: Pick<MemoryView, "sql" | "memory">): number {
  const { resident, workers } = ctx.sql.stats();
  return process.memoryUsage.rss() + Math.max(0, resident - workers * ctx.memory.sqlWorkerShared);
}

/** Past this share of the budget costly requests wait outside (503). */
const REFUSE_AT = 0.95;
/** Past this share a full garbage collection runs: a busy heap is mostly garbage (at 0.8 they cost a fifth of the speed). */
const COLLECT_AT = 0.88;
/** At most this often (measured: every 5 s held more and refused more than every second, at the same speed). */
const COLLECT_EVERY_MS = 1_000;
/**
 * ... and only while the JavaScript heap holds more than this share of the
 * budget: a forced collection slowed the node threefold when it ran every
 * second for memory the heap did not hold (the workers', DuckDB's); at 15%
 * none ran with a small young generation, and the gate refused thousands.
 */
const COLLECT_HEAP_SHARE = 0.08;

/**
 * The gate of `ctx`'s costly requests (pages, SQL, exports, downloads, MCP):
 * it looks at what the node holds at most every 100 ms, collects garbage past
 * 88% of the budget (at most every second, and only while the JavaScript heap
 * holds 8% of it), and refuses with 503 past 95%,
 * so that a burst is shed before the process outgrows its container.
 *
 * @example
 * ```ts ignore
 * import { memoryGate } from "./memory.ts";
 * const gate = memoryGate(state);
 * gate.admit(); // throws NodeError("unavailable") at the budget
 * ```
 */
export function memoryGate(
  ctx: MemoryView,
  clock: () => number = () => performance.now(),
): MemoryGate {
  let lookedAt = -Infinity;
  let collectedAt = -Infinity;
  let held = 0;
  let refused = 0;
  const look = () => {
    const now = clock();
    if (now - lookedAt < 100) return;
    lookedAt = now;
    held = heldNow(ctx);
    if (
      held > ctx.memory.budget * COLLECT_AT && now - collectedAt > COLLECT_EVERY_MS &&
      process.memoryUsage().heapTotal > ctx.memory.budget * COLLECT_HEAP_SHARE
    ) {
      collectedAt = now;
      collectGarbage();
      held = heldNow(ctx);
    }
  };
  return {
    admit() {
      look();
      if (held > ctx.memory.budget * REFUSE_AT) {
        refused++;
        const mib = (n: number) => Math.round(n / (1024 * 1024));
        throw new NodeError(
          "unavailable",
          `the node is at its memory budget (${mib(held)} of ${mib(ctx.memory.budget)} MiB held): try again shortly`,
          { "retry-after": "1" },
        );
      }
    },
    held: () => (look(), held),
    refused: () => refused,
  };
}
