/**
 * A request head seen as much of a `Request` as guards read: method, URL and
 * header fields, without building one.
 *
 * @module
 */
import type { RequestHead } from "./_head.ts";
import type { RequestHeadView } from "./types.ts";

/**
 * The view of `head` (whose authority is known).
 */
export function headView(head: RequestHead): RequestHeadView {
  const fields = head.fields;
  const get = (name: string): string | null => {
    const key = name.toLowerCase();
    let value: string | null = null;
    for (const [n, v] of fields) if (n === key) value = value === null ? v : `${value}, ${v}`;
    return value;
  };
  return {
    method: head.method,
    url: `http://${head.authority}${head.target === "*" ? "/" : head.target}`,
    headers: { get, has: (name) => get(name) !== null },
  };
}
