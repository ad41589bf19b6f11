/**
 * The batches benchmark `longlife` contributes: 1-10 records of an `id` and
 * a short text each, from a seeded generator, so every run sends the same.
 *
 * @module
 */

/** A batch's records. */
export type NoteBatch = { id: number; text: string }[];

/**
 * Batches from `seed`, their ids counting up from `firstId` (the first is
 * `firstId + 1`), each text starting with `label`.
 *
 * @example
 * ```ts
 * import { noteBatches } from "./_longlife_batches.ts";
 * const next = noteBatches(42, 0, "note");
 * next()[0].id; // 1
 * ```
 */
export function noteBatches(seed: number, firstId: number, label: string): () => NoteBatch {
  let s = seed >>> 0;
  const random = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  let id = firstId;
  return () =>
    Array.from({ length: 1 + Math.floor(random() * 10) }, () => {
      id++;
      return { id, text: `${label} ${id}: ${"lorem ipsum ".repeat(1 + Math.floor(random() * 4))}` };
    });
}
