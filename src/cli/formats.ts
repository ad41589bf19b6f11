/**
 * Rows and records as text for pipes: JSON that keeps big integers exact
 * and key order, JSON lines, and RFC 4180 CSV; and writing to stdout at the
 * pace the reader takes it.
 *
 * @module
 */
import process from "node:process";
import { exit } from "../runtime/mod.ts";

/**
 * JSON text of `value` in its own key order, `bigint` written as its digits
 * (what `parseExactJson` reads back).
 *
 * @example
 * ```ts
 * import { exactJson } from "./formats.ts";
 * exactJson({ id: 9007199254740993n, name: "a" }); // '{"id":9007199254740993,"name":"a"}'
 * ```
 */
export function exactJson(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(exactJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}:${exactJson(v)}`);
  return `{${entries.join(",")}}`;
}

/**
 * Query rows as JSON lines, one object a row keyed by column name (a name
 * seen twice keeps its last value, as in JSON).
 *
 * @example
 * ```ts
 * import { jsonLines } from "./formats.ts";
 * jsonLines(["id", "name"], [[1, "a"]]); // '{"id":1,"name":"a"}\n'
 * ```
 */
export function jsonLines(columns: string[], rows: unknown[][]): string {
  return rows.map((row) => exactJson(Object.fromEntries(columns.map((c, i) => [c, row[i]])))).join("\n") +
    (rows.length > 0 ? "\n" : "");
}

function csvField(value: unknown): string {
  const text = value === null || value === undefined
    ? ""
    : typeof value === "string"
    ? value
    : typeof value === "object"
    ? exactJson(value)
    : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Query rows as CSV (RFC 4180): a header line, CRLF line ends, fields with a
 * comma, quote or line break quoted and their quotes doubled; NULL is an
 * empty field, lists and objects their JSON.
 *
 * @example
 * ```ts
 * import { csv } from "./formats.ts";
 * csv(["id", "note"], [[1, 'say "hi", then go']]); // 'id,note\r\n1,"say ""hi"", then go"\r\n'
 * ```
 */
export function csv(columns: string[], rows: unknown[][]): string {
  return [columns, ...rows].map((row) => row.map(csvField).join(",") + "\r\n").join("");
}

/**
 * Writes `text` to stdout, waiting when the reader is slower; a reader that
 * went away (`| head`) ends the command quietly.
 *
 * @example
 * ```ts
 * import { writeOut } from "./formats.ts";
 * await writeOut('{"id":1}\n');
 * ```
 */
export async function writeOut(text: string | Uint8Array): Promise<void> {
  if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once("drain", resolve));
}

/**
 * From now on, a stdout whose reader went away (`svc data x | head`) ends
 * the command at once with exit 0 instead of an error.
 *
 * @example
 * ```ts
 * import { endQuietlyWhenStdoutCloses } from "./formats.ts";
 * endQuietlyWhenStdoutCloses();
 * ```
 */
export function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on("error", (e: { code?: string }) => {
    if (e?.code !== "EPIPE") throw e;
    exit(0);
  });
}
