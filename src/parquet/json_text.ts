/**
 * DuckDB values as exact JSON text. Built as text rather than through
 * `JSON.stringify` so that 64-bit integers keep every digit and 32-bit floats
 * print without float noise.
 *
 * @module
 */
import {
  DuckDBBlobValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  type DuckDBType,
  DuckDBTypeId,
  DuckDBUnionValue,
  type DuckDBValue,
} from "@duckdb/node-api";
import { temporalText } from "./_temporal.ts";

/** How integers beyond JavaScript's safe range are written. */
export type BigIntForm = "number" | "string";

/** Writes one non-null value as JSON text. */
export type JsonWriter = (value: DuckDBValue) => string;

/**
 * The shortest decimal that reads back as the same 32-bit float.
 *
 * @example
 * ```ts
 * import { float32Text } from "./json_text.ts";
 * float32Text(Math.fround(0.1)); // "0.1"
 * ```
 */
export function float32Text(value: number): string {
  if (!Number.isFinite(value)) return "null";
  for (let digits = 1; digits < 10; digits++) {
    const text = value.toPrecision(digits);
    if (Math.fround(Number(text)) === value) return JSON.stringify(Number(text));
  }
  return JSON.stringify(value);
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b];
  return out;
}

/**
 * Writes any DuckDB value as JSON text, choosing the form by its JavaScript
 * class. `bigints` says how integers outside +-2^53 are written.
 *
 * @example
 * ```ts
 * import { valueText } from "./json_text.ts";
 * valueText(9007199254740993n, "number"); // "9007199254740993"
 * valueText(9007199254740993n, "string"); // "\"9007199254740993\""
 * ```
 */
export function valueText(value: DuckDBValue, bigints: BigIntForm): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      if (bigints === "string" && (value > 9007199254740991n || value < -9007199254740991n)) return `"${value}"`;
      return value.toString();
  }
  if (value === null) return "null";
  if (value instanceof DuckDBListValue) return `[${value.items.map((v) => valueText(v, bigints)).join(",")}]`;
  if (value instanceof DuckDBStructValue) {
    const fields = Object.entries(value.entries).map(([k, v]) => `${JSON.stringify(k)}:${valueText(v, bigints)}`);
    return `{${fields.join(",")}}`;
  }
  if (value instanceof DuckDBMapValue) {
    const fields = value.entries.map((e) => `${JSON.stringify(String(e.key))}:${valueText(e.value, bigints)}`);
    return `{${fields.join(",")}}`;
  }
  if (value instanceof DuckDBBlobValue) return `"${hex(value.bytes)}"`;
  if (value instanceof DuckDBDecimalValue) return value.toString();
  if (value instanceof DuckDBUnionValue) return valueText(value.value, bigints);
  const temporal = temporalText(value);
  if (temporal !== null) return JSON.stringify(temporal);
  if ("items" in value && Array.isArray(value.items)) {
    return `[${value.items.map((v: DuckDBValue) => valueText(v, bigints)).join(",")}]`;
  }
  return JSON.stringify(String(value));
}

/**
 * A writer for the values of one column of type `type`: 32-bit floats get
 * their shortest form; everything else goes through {@linkcode valueText}.
 *
 * @example
 * ```ts
 * import { FLOAT } from "@duckdb/node-api";
 * import { columnWriter } from "./json_text.ts";
 * columnWriter(FLOAT, "number")(Math.fround(1.1)); // "1.1"
 * ```
 */
export function columnWriter(type: DuckDBType, bigints: BigIntForm): JsonWriter {
  if (type.typeId === DuckDBTypeId.FLOAT) return (v) => float32Text(v as number);
  return (v) => valueText(v, bigints);
}
