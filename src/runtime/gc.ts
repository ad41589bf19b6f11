/**
 * A full garbage collection on demand, under Deno and Node alike (both take
 * V8's `--expose-gc` at run time for contexts made after it), so that an idle
 * node's heap shrinks now rather than at its next allocation.
 *
 * @module
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collector: (() => void) | null | undefined;

/**
 * Runs a full collection; false when the runtime offers none.
 *
 * @example
 * ```ts
 * import { collectGarbage } from "./gc.ts";
 * collectGarbage(); // true
 * ```
 */
export function collectGarbage(): boolean {
  if (collector === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc");
      collector = typeof gc === "function" ? gc : null;
    } catch {
      collector = null;
    }
  }
  collector?.();
  return collector !== null;
}
