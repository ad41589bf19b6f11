/**
 * CSV as RFC 4180 writes it, for downloads: a header row of column names,
 * then one line per record, lines ended with CRLF. A field is quoted when
 * it holds a comma, a double quote, CR or LF, starts or ends with a space or
 * tab, or is the empty string (so that an empty string and a null differ:
 * a null is an empty field, an empty string `""`); a double quote inside is
 * doubled. Values are written as they are: text that starts with `=`, `+`,
 * `-` or `@` is not altered (spreadsheets may take it for a formula, as with
 * Datasette's CSV).
 *
 * A cell's text is what the record's JSON says, unquoted: strings as they
 * are, numbers with every digit (64-bit integers exact), booleans as
 * `true`/`false`, dates and times in ISO 8601, blobs as hex, lists and
 * structs as their JSON text; NaN and infinities (null in JSON) are empty.
 *
 * @module
 */
import type { DuckDBValue } from "@duckdb/node-api";
import type { JsonWriter } from "./json_text.ts";

/** The end of every CSV line. */
export const CSV_EOL = "\r\n";

const NEEDS_QUOTES = /[",\r\n]|^[ \t]|[ \t]$/;

/**
 * One CSV field: null as nothing, the rest quoted when they must be.
 *
 * @example
 * ```ts
 * import { csvField } from "./_csv.ts";
 * csvField('say "hi", twice'); // '"say ""hi"", twice"'
 * csvField(null); // ""
 * csvField(""); // '""'
 * ```
 */
export function csvField(text: string | null): string {
  if (text === null) return "";
  if (text === "") return '""';
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One CSV line of `fields`, with its line end.
 *
 * @example
 * ```ts
 * import { csvLine } from "./_csv.ts";
 * csvLine(["id", "name"]); // "id,name\r\n"
 * ```
 */
export function csvLine(fields: readonly (string | null)[]): string {
  return fields.map(csvField).join(",") + CSV_EOL;
}

/**
 * A cell's text from its JSON text (as a query's answer or a JSON writer
 * gives it): null (and NaN, written null) as null, a string unquoted,
 * anything else (numbers, booleans, lists, objects) as the JSON text itself.
 *
 * @example
 * ```ts
 * import { cellOfJson } from "./_csv.ts";
 * cellOfJson('"a\\nb"'); // "a\nb"
 * cellOfJson("9007199254740993"); // "9007199254740993"
 * cellOfJson("null"); // null
 * ```
 */
export function cellOfJson(json: string): string | null {
  if (json === "null") return null;
  return json.startsWith('"') ? JSON.parse(json) as string : json;
}

/**
 * A cell's text from a DuckDB value, through the column's JSON writer (so it
 * says what the record's JSON says); `raw` columns (`_extra`, JSON text kept
 * as a string) give their string as it is.
 *
 * @example
 * ```ts
 * import { cellOfValue } from "./_csv.ts";
 * import { valueText } from "./json_text.ts";
 * cellOfValue(12n, (v) => valueText(v, "number")); // "12"
 * ```
 */
export function cellOfValue(value: DuckDBValue | undefined, writer: JsonWriter | null): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || writer === null) return String(value);
  return cellOfJson(writer(value));
}
