/**
 * V8's flags for the node's own process, as a Deno command line takes them
 * (each in `--v8-flags=`): its heap's ({@linkcode nodeHeapFlags}) and how
 * soon V8 optimizes its functions ({@linkcode NODE_TIER_UP_FLAGS}).
 *
 * @module
 */
import { nodeHeapFlags } from "./memory_budget.ts";

/**
 * How soon V8 compiles the node's functions with its optimizing compilers:
 * after 100 calls with Maglev and 1,000 with TurboFan, against V8's own 400
 * and 3,000. The idle trim's full collection (src/service/memory.ts) runs
 * with no request alive, so the objects that optimized code embedded die
 * with their requests and V8 drops about a hundred functions' code; at V8's
 * own counts a 512 MiB node compiled them again over its next 6-8 s of load
 * and answered its first 2 s at 0.67-0.75x of a twin that had not idled.
 * At these it is done within about a second (docs/benchmarks.md, "budget").
 * Node 20's V8 knows no `--invocation-count-for-turbofan`: a node run
 * under Node keeps V8's own counts.
 *
 * @example
 * ```ts
 * import { NODE_TIER_UP_FLAGS } from "./node_v8_flags.ts";
 * NODE_TIER_UP_FLAGS.length; // 2
 * ```
 */
export const NODE_TIER_UP_FLAGS: readonly string[] = [
  "--invocation-count-for-maglev=100",
  "--invocation-count-for-turbofan=1000",
];

/**
 * The node's V8 flags for a young generation of `young` bytes a semi-space
 * (null for V8's own size), as a Deno command line takes them.
 *
 * @example
 * ```ts
 * import { denoNodeV8Flags } from "./node_v8_flags.ts";
 * denoNodeV8Flags(null)[0]; // "--v8-flags=--no-memory-reducer"
 * ```
 */
export function denoNodeV8Flags(young: number | null): string[] {
  return [...nodeHeapFlags(young), ...NODE_TIER_UP_FLAGS].map((flag) => `--v8-flags=${flag}`);
}
