/**
 * Stable JSON: keys sorted (by UTF-16 code units, recursively), no
 * whitespace, non-ASCII kept, numbers as JavaScript's `JSON.stringify` writes
 * them and `bigint` as its digits. Used for record identity (the duplicate
 * gate) and for the bytes manifests are signed over. Written with a stack of
 * its own, not by recursion: a value nested however deep (a client's record
 * 5,000 levels down) costs memory, never the call stack.
 *
 * @module
 */

/** Text written as is between the values. */
class Raw {
  constructor(readonly text: string) {}
}

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
  const out: string[] = [];
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Raw) {
      out.push(item.text);
      continue;
    }
    if (item === null || item === undefined) {
      out.push("null");
      continue;
    }
    switch (typeof item) {
      case "bigint":
        out.push(item.toString());
        continue;
      case "number":
      case "boolean":
      case "string":
        out.push(JSON.stringify(item) ?? "null");
        continue;
    }
    // Pushed in reverse: the stack gives them back in order.
    if (Array.isArray(item)) {
      work.push(new Raw("]"));
      for (let i = item.length - 1; i >= 0; i--) work.push(item[i], ...(i > 0 ? [new Raw(",")] : []));
      work.push(new Raw("["));
      continue;
    }
    const keys = Object.keys(item as object)
      .filter((k) => (item as Record<string, unknown>)[k] !== undefined)
      .sort();
    work.push(new Raw("}"));
    for (let i = keys.length - 1; i >= 0; i--) {
      work.push((item as Record<string, unknown>)[keys[i]], new Raw(`${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:`));
    }
    work.push(new Raw("{"));
  }
  return out.join("");
}
