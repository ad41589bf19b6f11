/**
 * The memory gate: how a node holds its budget under load. Costly requests
 * (pages, SQL, exports, downloads, MCP) pass it; at the budget they wait
 * their turn while garbage is collected, and only a request that waited too
 * long, or finds too many waiting, is refused with 503. What the node holds
 * with no request at work (its baseline: the store's summaries, the duplicate
 * gate's identities, the runtime) is not what waiting can give back: a node
 * found over its budget at rest sheds what it can, says what holds the
 * memory, and from then on measures requests against that baseline instead
 * of refusing every one for good.
 *
 * @module
 */
import process from "node:process";
import { NodeError } from "../errors/mod.ts";
import { collectGarbage } from "../runtime/mod.ts";
import type { MemoryView } from "./memory.ts";
import { restWatch } from "./_rest_watch.ts";

/** How the node holds its budget under load. */
export interface MemoryGate {
  /**
   * Resolves once the node is under its budget. A request that finds it at
   * the budget waits in turn, and is refused (`NodeError("unavailable")`,
   * 503 with `Retry-After: 1`) after waiting {@linkcode WAIT_MOST_MS}, or at
   * once when {@linkcode WAITING_MOST} already wait. A request whose
   * `signal` aborts (its client left) leaves the line, rejected with the
   * signal's reason.
   */
  admit(signal?: AbortSignal): Promise<void>;
  /** The bytes held at the latest look: the node, and its SQL workers as they last said. */
  held(): number;
  /** Requests refused at the budget so far. */
  refused(): number;
  /** Requests waiting at the budget now. */
  waiting(): number;
  /** What the node held the latest time it was seen with no request at work (0 before). */
  baseline(): number;
  /** Whether that baseline is over the point where requests wait (the node runs over its budget at rest). */
  overAtRest(): boolean;
}

/** Options of {@linkcode memoryGate}, for tests. */
export interface MemoryGateOptions {
  /** The clock looks are timed by (default `performance.now`). */
  clock?: () => number;
  /** What the node holds now (default: its resident bytes and its SQL workers' own). */
  measure?: () => number;
  /** How long a request waits at the budget before it is refused (default {@linkcode WAIT_MOST_MS}). */
  waitMostMs?: number;
  /** Requests at work now (costly or not, waiting at the gate included); without it no baseline is kept. */
  activity?: { readonly inFlight: number };
  /** Gives back what the node can (caches, garbage) when it is found over its budget at rest. */
  shed?: () => void;
  /** Told, once each way, when the node is found over its budget at rest and when it is back under. */
  warn?: (message: string) => void;
  /** Bytes of array buffers the node keeps on purpose (its page cache): a collection frees none of them. */
  kept?: () => number;
  /** The JavaScript heap's bytes and the array buffers' (default: from `process.memoryUsage()`). */
  javascript?: () => { heapTotal: number; arrayBuffers: number };
}

/** How long a request waits at the budget before it is refused with 503. */
export const WAIT_MOST_MS = 2_000;
/** How many requests may wait at the budget at once; the next is refused at once. */
export const WAITING_MOST = 256;

/** Past this share of the budget costly requests wait (and after {@linkcode WAIT_MOST_MS} are refused). */
const WAIT_AT = 0.95;
/** Past this share a full garbage collection runs: a busy heap is mostly garbage (at 0.8 they cost a fifth of the speed). */
const COLLECT_AT = 0.88;
/** At most this often (measured: every 5 s held more and refused more than every second, at the same speed). */
const COLLECT_EVERY_MS = 1_000;
/** ... and this often while requests wait at the budget: a collection took 30-80 ms and freed 50-100 MiB there. */
const COLLECT_WAITING_MS = 250;
/**
 * ... and only while the JavaScript heap, and the array buffers it may free
 * (not the page cache's), hold more than this share of the budget: a forced
 * collection slowed the node threefold when it ran every second for memory
 * the heap did not hold (the workers', DuckDB's); at 15% none ran with a small
 * young generation, and the gate refused thousands. Array buffers count:
 * blocks decoded into the cache and the ones compressed there left garbage
 * outside the heap that no collection came for, and a 512 MiB node stayed at
 * its budget, refusing pages, until the next idle trim (docs/benchmarks.md,
 * "budget").
 */
const COLLECT_HEAP_SHARE = 0.08;
/** How often waiting requests look again. */
const WAIT_TICK_MS = 20;
/** How long a look at what the node holds stands. */
const LOOK_EVERY_MS = 100;

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

/**
 * The JavaScript heap's bytes and the array buffers': Deno gives no
 * `arrayBuffers` (always 0) but counts them in `external`, which Node counts
 * them in too.
 */
function javascriptMemory(): { heapTotal: number; arrayBuffers: number } {
  const { heapTotal, arrayBuffers, external } = process.memoryUsage();
  return { heapTotal, arrayBuffers: Math.max(arrayBuffers, external) };
}

/** What a collection might free: the heap, and the array buffers but the kept ones. */
function freeableOf(options: MemoryGateOptions): () => number {
  const kept = options.kept ?? (() => 0);
  const javascript = options.javascript ?? javascriptMemory;
  return () => {
    const { heapTotal, arrayBuffers } = javascript();
    return heapTotal + Math.max(0, arrayBuffers - kept());
  };
}

interface Waiter {
  since: number;
  resolve(): void;
  reject(e: unknown): void;
}

/** A place in `queue` from `since`, left when `signal` aborts (rejected with its reason). */
function inLine(queue: Waiter[], since: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const left = () => {
      const at = queue.indexOf(waiter);
      if (at >= 0) queue.splice(at, 1);
      reject(signal!.reason);
    };
    const settled = () => signal?.removeEventListener("abort", left);
    const waiter: Waiter = {
      since,
      resolve: () => (settled(), resolve()),
      reject: (e) => (settled(), reject(e)),
    };
    signal?.addEventListener("abort", left, { once: true });
    queue.push(waiter);
  });
}

/**
 * The gate of `ctx`'s costly requests. It looks at what the node holds at
 * most every 100 ms and collects garbage past 88% of the budget (at most
 * every second, every 250 ms while requests wait, and only while the
 * JavaScript heap holds 8% of it). Past 95% new requests wait, first come
 * first in, until a look finds the node under it again; one that waited
 * {@linkcode WAIT_MOST_MS} is refused with 503. A burst is slowed, then shed,
 * before the process outgrows its container, and clients that retry at once
 * do not spin against it (a gate that refused at once answered three 503s
 * for each request it served under the benchmark's mixed load).
 *
 * @example
 * ```ts
 * import { memoryGate } from "./memory_gate.ts";
 * import { memoryPlan } from "../settings/mod.ts";
 * const memory = memoryPlan(512 * 1024 ** 2, "flag");
 * const gate = memoryGate({ memory, sql: { stats: () => ({ resident: 0, workers: 0 }) } }, {
 *   measure: () => 100 * 1024 ** 2,
 * });
 * await gate.admit(); // 100 MiB of 512: in at once
 * ```
 */
export function memoryGate(ctx: MemoryView, options: MemoryGateOptions = {}): MemoryGate {
  const clock = options.clock ?? (() => performance.now());
  const measure = options.measure ?? (() => heldNow(ctx));
  const waitMost = options.waitMostMs ?? WAIT_MOST_MS;
  const freeable = freeableOf(options);
  const queue: Waiter[] = [];
  let ticking: ReturnType<typeof setInterval> | null = null;
  let lookedAt = -Infinity;
  let collectedAt = -Infinity;
  let held = 0;
  let refused = 0;
  const mib = (n: number) => Math.round(n / (1024 * 1024));
  const rest = restWatch({
    budget: ctx.memory.budget,
    waitAt: ctx.memory.budget * WAIT_AT,
    measure,
    shed: options.shed,
    warn: options.warn,
  });
  const full = () => held > rest.limit();
  /** At rest: no request at work but those waiting at the gate (and the caller, `calling`, when it is in `admit`). */
  const atRest = (calling: number) =>
    options.activity !== undefined && options.activity.inFlight - queue.length - calling <= 0;
  const look = (calling = 0) => {
    const now = clock();
    if (now - lookedAt < LOOK_EVERY_MS) return;
    lookedAt = now;
    held = measure();
    const every = queue.length > 0 || full() ? COLLECT_WAITING_MS : COLLECT_EVERY_MS;
    if (
      held > ctx.memory.budget * COLLECT_AT && now - collectedAt > every &&
      freeable() > ctx.memory.budget * COLLECT_HEAP_SHARE
    ) {
      collectedAt = now;
      collectGarbage();
      held = measure();
    }
    if (atRest(calling)) held = rest.note(held);
  };
  const refusal = () => {
    refused++;
    return new NodeError(
      "unavailable",
      `the node is at its memory budget (${mib(held)} of ${mib(ctx.memory.budget)} MiB held): try again shortly`,
      { "retry-after": "1" },
    );
  };
  const tick = () => {
    look();
    const open = !full();
    const now = clock();
    while (queue.length > 0 && (open || now - queue[0].since >= waitMost)) {
      const waiter = queue.shift()!;
      if (open) waiter.resolve();
      else waiter.reject(refusal());
    }
    if (queue.length === 0 && ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
  };
  return {
    admit(signal) {
      look(1);
      if (queue.length === 0 && !full()) return Promise.resolve();
      if (queue.length >= WAITING_MOST) return Promise.reject(refusal());
      if (signal?.aborted) return Promise.reject(signal.reason);
      const waiting = inLine(queue, clock(), signal);
      ticking ??= setInterval(tick, WAIT_TICK_MS);
      return waiting;
    },
    held: () => (look(), held),
    refused: () => refused,
    waiting: () => queue.length,
    baseline: () => rest.baseline(),
    overAtRest: () => rest.over(),
  };
}
