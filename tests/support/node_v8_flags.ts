/**
 * Reading a node's V8 flags off its command line in tests.
 *
 * @module
 */
import { assertEquals } from "./assert.ts";
import { NODE_TIER_UP_FLAGS } from "../../src/launch/mod.ts";

/**
 * The heap's flags among a node's arguments: its `--v8-flags=` ones, once
 * the tier-up flags are checked to come last (no V8 flags at all: none).
 *
 * @example
 * ```ts ignore
 * heapV8Flags(narrowedNode(args, env)!.flags); // ["--v8-flags=--no-memory-reducer"]
 * ```
 */
export function heapV8Flags(args: readonly string[]): string[] {
  const all = args.filter((a) => a.startsWith("--v8-flags="));
  if (all.length === 0) return all;
  const tierUp = NODE_TIER_UP_FLAGS.map((f) => `--v8-flags=${f}`);
  assertEquals(all.slice(-tierUp.length), tierUp, "the tier-up flags come last");
  return all.slice(0, -tierUp.length);
}
