/**
 * Stable JSON: keys sorted (by UTF-16 code units, recursively), no
 * whitespace, non-ASCII kept, numbers as JavaScript's `JSON.stringify` writes
 * them and `bigint` as its digits. Used for record identity (the duplicate
 * gate) and for the bytes manifests are signed over.
 *
 * @module
 */

/**
 * The stable JSON text of `value`.
 *
 * @example
 * ```ts
 * import { stableStringify } from "./stable_json.ts";
 * stableStringify({ b: 1, a: [true, null, 2n ** 64n] }); // '{"a":[true,null,18446744073709551616],"b":1}'
 * ```
 */
export function stableStringify(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "number":
    case "boolean":
    case "string":
      return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const entries = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}
