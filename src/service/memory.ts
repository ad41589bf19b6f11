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
import { collectGarbage, unrefTimer } from "../runtime/mod.ts";
import type { MemoryHealth } from "../wire/mod.ts";
import type { NodeState } from "./state.ts";

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
export function memoryHealth(ctx: Pick<NodeState, "memory" | "sql">): MemoryHealth {
  return { ...ctx.memory, resident: { node: process.memoryUsage.rss(), sqlWorkers: ctx.sql.stats().resident } };
}

/** The idle trim of one node. */
export interface IdleTrim {
  /** Trims now if the node has been idle for {@linkcode TRIM_AFTER_MS}; true when it did. */
  check(): boolean;
  /** Trims now, idle or not. */
  trim(): void;
  /** Stops watching. */
  stop(): void;
}

/**
 * Watches `ctx`'s requests every second and trims once per idle spell, after
 * {@linkcode TRIM_AFTER_MS} with none in flight and none ended: the page cache
 * is cut to a quarter of its size (its most recently used blocks) and a full
 * garbage collection runs (most of a busy node's heap is garbage V8 would
 * otherwise keep until its next allocation).
 *
 * @example
 * ```ts ignore
 * import { idleTrim } from "./memory.ts";
 * const trim = idleTrim(state);
 * // ... later, when the node stops:
 * trim.stop();
 * ```
 */
export function idleTrim(
  ctx: Pick<NodeState, "activity" | "pages" | "now" | "memory">,
  everyMs = 1_000,
): IdleTrim {
  let trimmedAfter = -1;
  const trim = () => {
    ctx.pages.trimCache(Math.floor(ctx.memory.pageCache * STEADY_PAGE_CACHE));
    collectGarbage();
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
  return { check, trim, stop: () => clearInterval(timer) };
}
