/**
 * Timers that never keep the process alive on their own, on both runtimes.
 *
 * @module
 */

/**
 * Lets the process exit while `timer` is pending (Node's `unref()`, Deno's
 * `Deno.unrefTimer`); returns it.
 */
export function unrefTimer<T>(timer: T): T {
  (timer as unknown as { unref?: () => void }).unref?.();
  if (typeof timer === "number") (globalThis as { Deno?: { unrefTimer(id: number): void } }).Deno?.unrefTimer(timer);
  return timer;
}
