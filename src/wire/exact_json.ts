/**
 * JSON read and written with every integer exact, for documents that are
 * signed or carried on (manifests, keys documents): read with
 * `parseExactJson`'s values at `JSON.parse`'s speed when no number can be
 * beyond 2^53, and written as `JSON.stringify` writes them, byte for byte,
 * with `bigint` as its digits instead of a `TypeError`.
 *
 * @module
 */
import { type ExactJson, parseExactJson } from "./json_parse.ts";

/**
 * The start of a number of at least 16 digits (an integer beyond ±2^53 has
 * them): after `[`, `:`, `,`, whitespace or at the start, where JSON puts
 * numbers, so that digits inside hex strings (part digests) do not count.
 * Text without one parses the same either way.
 */
const LONG_NUMBER = /(?:^|[[:,\s])-?\d{16}/;

/**
 * Parses a document's JSON (a manifest, a keys document, a statement),
 * integers beyond ±2^53 as `bigint` as {@linkcode parseExactJson} does, at
 * `JSON.parse`'s speed: text with no number of 16 digits or more goes
 * through `JSON.parse`, which then gives the same values. Throws
 * `SyntaxError` on anything that is not JSON. (Bodies from strangers go
 * through `parseExactJson` itself, which also bounds their nesting.)
 *
 * @example
 * ```ts
 * import { parseDocumentJson } from "./exact_json.ts";
 * parseDocumentJson('{"max": 9223372036854775807, "mean": 1.5e-7}'); // { max: 9223372036854775807n, mean: 1.5e-7 }
 * ```
 */
export function parseDocumentJson(text: string): ExactJson {
  return LONG_NUMBER.test(text) ? parseExactJson(text) : JSON.parse(text);
}

/**
 * The text `JSON.stringify(value, null, indent)` writes, with `bigint`
 * written as its digits (what `parseDocumentJson` reads back). Without a
 * `bigint` the bytes are `JSON.stringify`'s own.
 *
 * @example
 * ```ts
 * import { stringifyExactJson } from "./exact_json.ts";
 * stringifyExactJson({ id: 2n ** 64n + 1n, x: [1e16, -0] }); // '{"id":18446744073709551617,"x":[10000000000000000,0]}'
 * ```
 */
export function stringifyExactJson(value: unknown, indent = 0): string {
  try {
    // Without the replacer and gap arguments V8 takes its fast path (`/healthz`'s answer: 1.5 µs, against 2.5).
    return indent === 0 ? JSON.stringify(value) : JSON.stringify(value, null, indent);
  } catch (e) {
    // A bigint (or a cycle, which the walk below reports in its turn).
    if (!(e instanceof TypeError)) throw e;
  }
  return write(value, "", " ".repeat(Math.min(10, Math.max(0, Math.trunc(indent)))), new Set()) as string;
}

/** One value as `JSON.stringify` writes it; `undefined` where it writes nothing. */
function write(input: unknown, key: string, indent: string, open: Set<object>, depth = ""): string | undefined {
  let value = input;
  if (value !== null && (typeof value === "object" || typeof value === "bigint")) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value, key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  if (value instanceof BigInt) value = value.valueOf();
  if (value === null) return "null";
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "number":
    case "boolean":
    case "string":
      return JSON.stringify(value);
    case "object":
      break;
    default:
      return undefined;
  }
  const object = value as object;
  if (open.has(object)) throw new TypeError("Converting circular structure to JSON");
  open.add(object);
  const inner = depth + indent;
  const [start, between, end] = indent ? [`\n${inner}`, `,\n${inner}`, `\n${depth}`] : ["", ",", ""];
  let text: string;
  if (Array.isArray(object)) {
    const items: string[] = [];
    for (let i = 0; i < object.length; i++) items.push(write(object[i], String(i), indent, open, inner) ?? "null");
    text = items.length === 0 ? "[]" : `[${start}${items.join(between)}${end}]`;
  } else {
    const entries: string[] = [];
    for (const k of Object.keys(object)) {
      const v = write((object as Record<string, unknown>)[k], k, indent, open, inner);
      if (v !== undefined) entries.push(`${JSON.stringify(k)}:${indent ? " " : ""}${v}`);
    }
    text = entries.length === 0 ? "{}" : `{${start}${entries.join(between)}${end}}`;
  }
  open.delete(object);
  return text;
}
