/**
 * Waiting for a promise with a deadline, leaving no timer behind.
 *
 * @module
 */

/** What {@linkcode within} resolves to when the deadline passes first. */
export const LATE: unique symbol = Symbol("late");

/** `promise`'s value, or {@linkcode LATE} when `ms` pass first. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => resolve(LATE), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
