/**
 * Assertions for tests (`@std/assert` is not reachable here), over
 * `node:assert`'s strict deep equality.
 *
 * @module
 */
import { AssertionError, deepStrictEqual, doesNotMatch, match, ok } from "node:assert";

/** A parsed JSON answer, read freely in tests. */
// deno-lint-ignore no-explicit-any
export type Json = any;

/** Fails unless `actual` deep-equals `expected` (strictly). */
export function assertEquals<T>(actual: unknown, expected: T, message?: string): void {
  deepStrictEqual(actual, expected, message);
}

/** Fails unless `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  ok(value, message);
}

/** Fails unless `text` matches `pattern`. */
export function assertMatch(text: string, pattern: RegExp, message?: string): void {
  match(text, pattern, message);
}

/** Fails if `text` matches `pattern`. */
export function assertNotMatch(text: string, pattern: RegExp, message?: string): void {
  doesNotMatch(text, pattern, message);
}

/** Fails unless `fn` rejects (or throws); returns the error. */
export async function assertRejects(fn: () => Promise<unknown>, pattern?: RegExp): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    if (pattern) match(String((e as Error)?.message ?? e), pattern);
    return e as Error;
  }
  throw new AssertionError({ message: "expected a rejection" });
}

/** Fails unless `fn` throws; returns the error. */
export function assertThrows(fn: () => unknown, pattern?: RegExp): Error {
  try {
    fn();
  } catch (e) {
    if (pattern) match(String((e as Error)?.message ?? e), pattern);
    return e as Error;
  }
  throw new AssertionError({ message: "expected an exception" });
}
