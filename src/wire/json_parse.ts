/**
 * JSON parsing that keeps every integer exact: integers beyond JavaScript's
 * safe range become `bigint` (`JSON.parse` would round them), everything
 * else is what `JSON.parse` gives.
 *
 * @module
 */

/** A JSON value with big integers as `bigint`. */
export type ExactJson = null | boolean | number | bigint | string | ExactJson[] | { [key: string]: ExactJson };

/** The deepest nesting of arrays and objects read. */
export const JSON_MAX_DEPTH = 200;

/** JSON nested deeper than {@linkcode JSON_MAX_DEPTH}: valid, but past what is read. */
export class JsonTooDeep extends SyntaxError {
  /**
   * The error for a value deeper than the limit, met at character `at`.
   *
   * @example
   * ```ts
   * import { JsonTooDeep } from "./json_parse.ts";
   * new JsonTooDeep(4096).message; // "JSON nested deeper than 200 levels, at position 4096"
   * ```
   */
  constructor(at: number) {
    super(`JSON nested deeper than ${JSON_MAX_DEPTH} levels, at position ${at}`);
    this.name = "JsonTooDeep";
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/**
 * Parses `text` as JSON, integers beyond ±2^53 as `bigint`. Throws
 * `SyntaxError` on anything that is not JSON, {@linkcode JsonTooDeep} past
 * {@linkcode JSON_MAX_DEPTH} levels.
 *
 * @example
 * ```ts
 * import { parseExactJson } from "./json_parse.ts";
 * parseExactJson('{"id": 9007199254740993}'); // { id: 9007199254740993n }
 * ```
 */
export function parseExactJson(text: string): ExactJson {
  const cursor: Cursor = { text, at: 0 };
  const result = readValue(cursor, 0);
  skipSpace(cursor);
  if (cursor.at !== text.length) fail(cursor, "unexpected text after JSON");
  return result;
}

/** Where a parse is in its text. */
interface Cursor {
  readonly text: string;
  at: number;
}

function fail(c: Cursor, what: string): never {
  throw new SyntaxError(`${what} at position ${c.at}`);
}

function skipSpace(c: Cursor): void {
  WHITESPACE.lastIndex = c.at;
  WHITESPACE.exec(c.text);
  c.at = WHITESPACE.lastIndex;
}

function readValue(c: Cursor, depth: number): ExactJson {
  if (depth > JSON_MAX_DEPTH) throw new JsonTooDeep(c.at);
  skipSpace(c);
  const ch = c.text[c.at];
  if (ch === "{") return readObject(c, depth);
  if (ch === "[") return readArray(c, depth);
  if (ch === '"') return readString(c);
  if (c.text.startsWith("true", c.at)) return (c.at += 4, true);
  if (c.text.startsWith("false", c.at)) return (c.at += 5, false);
  if (c.text.startsWith("null", c.at)) return (c.at += 4, null);
  return readNumber(c);
}

function readObject(c: Cursor, depth: number): { [key: string]: ExactJson } {
  c.at++;
  const out: { [key: string]: ExactJson } = {};
  skipSpace(c);
  if (c.text[c.at] === "}") {
    c.at++;
    return out;
  }
  while (true) {
    skipSpace(c);
    if (c.text[c.at] !== '"') fail(c, "expected a string key");
    const key = readString(c);
    skipSpace(c);
    if (c.text[c.at++] !== ":") fail(c, "expected ':'");
    // defineProperty: a key "__proto__" is a plain key, as JSON.parse makes it.
    Object.defineProperty(out, key, {
      value: readValue(c, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    skipSpace(c);
    const next = c.text[c.at++];
    if (next === "}") return out;
    if (next !== ",") fail(c, "expected ',' or '}'");
  }
}

function readArray(c: Cursor, depth: number): ExactJson[] {
  c.at++;
  const out: ExactJson[] = [];
  skipSpace(c);
  if (c.text[c.at] === "]") {
    c.at++;
    return out;
  }
  while (true) {
    out.push(readValue(c, depth + 1));
    skipSpace(c);
    const next = c.text[c.at++];
    if (next === "]") return out;
    if (next !== ",") fail(c, "expected ',' or ']'");
  }
}

function readNumber(c: Cursor): number | bigint {
  NUMBER.lastIndex = c.at;
  const m = NUMBER.exec(c.text);
  if (!m) return fail(c, "unexpected character");
  c.at = NUMBER.lastIndex;
  const literal = m[0];
  if (/^-?\d+$/.test(literal)) {
    const n = Number(literal);
    return Number.isSafeInteger(n) ? n : BigInt(literal);
  }
  return Number(literal);
}

function readString(c: Cursor): string {
  const start = c.at;
  c.at++;
  while (c.at < c.text.length) {
    const code = c.text.charCodeAt(c.at);
    if (code === 0x22) {
      c.at++;
      return JSON.parse(c.text.slice(start, c.at));
    }
    if (code === 0x5c) c.at += 2;
    else if (code < 0x20) fail(c, "control character in string");
    else c.at++;
  }
  return fail(c, "unterminated string");
}

/**
 * Whether `value` nests deeper than `limit` levels as {@linkcode parseExactJson}
 * counts them (the value itself at level 0, what it holds at 1, ...): what a
 * value that did not come through that parser (an MCP tool's arguments) is
 * held to. Walks with a stack of its own, so any depth is safe to ask about.
 *
 * @example
 * ```ts
 * import { nestsDeeperThan } from "./json_parse.ts";
 * nestsDeeperThan({ a: [1] }, 2); // false: 1 is at level 2
 * nestsDeeperThan({ a: [1] }, 1); // true
 * ```
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const work: [unknown, number][] = [[value, 0]];
  while (work.length > 0) {
    const [item, depth] = work.pop()!;
    if (depth > limit) return true;
    if (item === null || typeof item !== "object") continue;
    for (const child of Array.isArray(item) ? item : Object.values(item)) work.push([child, depth + 1]);
  }
  return false;
}
