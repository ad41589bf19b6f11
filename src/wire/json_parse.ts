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
  let at = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${at}`);
  };
  const space = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const value = (depth: number): ExactJson => {
    if (depth > JSON_MAX_DEPTH) throw new JsonTooDeep(at);
    space();
    const c = text[at];
    if (c === "{") {
      at++;
      const out: { [key: string]: ExactJson } = {};
      space();
      if (text[at] === "}") {
        at++;
        return out;
      }
      while (true) {
        space();
        if (text[at] !== '"') fail("expected a string key");
        const key = string();
        space();
        if (text[at++] !== ":") fail("expected ':'");
        Object.defineProperty(out, key, {
          value: value(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        space();
        const next = text[at++];
        if (next === "}") return out;
        if (next !== ",") fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      at++;
      const out: ExactJson[] = [];
      space();
      if (text[at] === "]") {
        at++;
        return out;
      }
      while (true) {
        out.push(value(depth + 1));
        space();
        const next = text[at++];
        if (next === "]") return out;
        if (next !== ",") fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (text.startsWith("true", at)) return (at += 4, true);
    if (text.startsWith("false", at)) return (at += 5, false);
    if (text.startsWith("null", at)) return (at += 4, null);
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(text);
    if (!m) return fail("unexpected character");
    at = NUMBER.lastIndex;
    const literal = m[0];
    if (/^-?\d+$/.test(literal)) {
      const n = Number(literal);
      return Number.isSafeInteger(n) ? n : BigInt(literal);
    }
    return Number(literal);
  };
  const string = (): string => {
    const start = at;
    at++;
    while (at < text.length) {
      const c = text.charCodeAt(at);
      if (c === 0x22) {
        at++;
        return JSON.parse(text.slice(start, at));
      }
      if (c === 0x5c) at += 2;
      else if (c < 0x20) fail("control character in string");
      else at++;
    }
    return fail("unterminated string");
  };
  const result = value(0);
  space();
  if (at !== text.length) fail("unexpected text after JSON");
  return result;
}
