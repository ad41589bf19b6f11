/**
 * Records out of DuckDB result chunks, as JSON text: null columns left out,
 * the `_extra` column (fields beyond the schema) folded back into the record.
 *
 * @module
 */
import type { DuckDBDataChunk, DuckDBResult } from "@duckdb/node-api";
import { columnWriter, type JsonWriter } from "./json_text.ts";

/** The column that keeps a record's fields beyond the schema, as a JSON object. */
export const EXTRA_COLUMN = "_extra";

/** Turns the rows of a chunk into one JSON text per record. */
export type RecordEncoder = (chunk: DuckDBDataChunk) => string[];

/**
 * An encoder for the chunks of `result`, built once from its column types.
 */
export function recordEncoder(result: DuckDBResult): RecordEncoder {
  const names = result.columnNames();
  const types = result.columnTypes();
  const keys = names.map((n) => JSON.stringify(n) + ":");
  const writers: (JsonWriter | null)[] = types.map((t, i) =>
    names[i] === EXTRA_COLUMN ? null : columnWriter(t, "number")
  );
  return (chunk) => {
    const columns = chunk.getColumns();
    const rows = chunk.rowCount;
    const out = new Array<string>(rows);
    for (let r = 0; r < rows; r++) {
      let text = "";
      for (let c = 0; c < columns.length; c++) {
        const value = columns[c][r];
        if (value === null || value === undefined) continue;
        const writer = writers[c];
        const piece = writer ? keys[c] + writer(value) : extraFields(value);
        if (piece === "") continue;
        text += text === "" ? piece : "," + piece;
      }
      out[r] = "{" + text + "}";
    }
    return out;
  };
}

/** The inner members of a stored `_extra` object, or "" when it holds none. */
function extraFields(value: unknown): string {
  if (typeof value !== "string") return "";
  const text = value.trim();
  if (text.length < 2 || text[0] !== "{" || text[text.length - 1] !== "}") return "";
  return text.slice(1, -1).trim();
}
