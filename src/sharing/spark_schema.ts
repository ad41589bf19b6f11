/**
 * A version's Parquet schema as Spark's StructType JSON, the
 * `schemaString` of Delta Sharing's metadata. Types are read through
 * DuckDB (`DESCRIBE`), so the mapping is from DuckDB's names of the Parquet
 * types; docs/delta-sharing.md lists it.
 *
 * @module
 */

/** A Spark SQL type as the protocol's schema JSON writes it. */
export type SparkType =
  | string
  | { type: "struct"; fields: SparkField[] }
  | { type: "array"; elementType: SparkType; containsNull: boolean }
  | { type: "map"; keyType: SparkType; valueType: SparkType; valueContainsNull: boolean };

/** One field of a struct. */
export interface SparkField {
  /** The column's name. */
  name: string;
  /** Its type. */
  type: SparkType;
  /** Whether it may be null (always, for the node's columns). */
  nullable: boolean;
  /** Column metadata (none). */
  metadata: Record<string, never>;
}

const PRIMITIVES: Readonly<Record<string, string>> = {
  VARCHAR: "string",
  JSON: "string",
  UUID: "string",
  BIGINT: "long",
  INTEGER: "integer",
  SMALLINT: "short",
  TINYINT: "byte",
  UINTEGER: "long",
  USMALLINT: "integer",
  UTINYINT: "short",
  UBIGINT: "decimal(20,0)",
  HUGEINT: "decimal(38,0)",
  DOUBLE: "double",
  FLOAT: "float",
  BOOLEAN: "boolean",
  BLOB: "binary",
  DATE: "date",
  TIMESTAMP: "timestamp",
  "TIMESTAMP WITH TIME ZONE": "timestamp",
  TIMESTAMP_S: "timestamp",
  TIMESTAMP_MS: "timestamp",
  TIMESTAMP_NS: "timestamp",
};

/** Splits `a, b(c, d), e` at the top-level commas. */
function topLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === "(") depth++;
    else if (!quoted && ch === ")") depth--;
    else if (!quoted && depth === 0 && ch === ",") {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out.filter((s) => s !== "");
}

/** A named struct field (`name TYPE`), or null for a field DuckDB shows without its name. */
function structField(entry: string): SparkField | null {
  const m = /^("(?:[^"]|"")*"|\S+)\s+(.+)$/.exec(entry);
  if (!m) return null;
  const name = m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1];
  return { name, type: sparkType(m[2]), nullable: true, metadata: {} };
}

/**
 * A struct's Spark type, or `string` when DuckDB shows its fields without
 * names (a Parquet group with a child named "", as a DuckDB `UNION` is
 * written): Spark reads a struct's fields by name, and those names are lost.
 */
function structType(body: string): SparkType {
  const fields = topLevel(body).map(structField);
  if (fields.some((f) => f === null)) return "string";
  return { type: "struct", fields: fields as SparkField[] };
}

/**
 * The Spark type of DuckDB type `duckType` (as `DESCRIBE` names it).
 *
 * @example
 * ```ts
 * import { sparkType } from "./spark_schema.ts";
 * sparkType("BIGINT"); // "long"
 * sparkType("VARCHAR[]"); // { type: "array", elementType: "string", containsNull: true }
 * ```
 */
export function sparkType(duckType: string): SparkType {
  const t = duckType.trim();
  if (t.endsWith("[]")) return { type: "array", elementType: sparkType(t.slice(0, -2)), containsNull: true };
  const fixedList = /^(.*)\[\d+\]$/.exec(t);
  if (fixedList) return { type: "array", elementType: sparkType(fixedList[1]), containsNull: true };
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/i.exec(t);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  const struct = /^STRUCT\((.*)\)$/is.exec(t);
  if (struct) return structType(struct[1]);
  const map = /^MAP\((.*)\)$/is.exec(t);
  if (map) {
    const [key, value] = topLevel(map[1]);
    return { type: "map", keyType: sparkType(key), valueType: sparkType(value), valueContainsNull: true };
  }
  return PRIMITIVES[t.toUpperCase()] ?? "string";
}

/**
 * The `schemaString` of columns `columns` (name and DuckDB type, in order).
 *
 * @example
 * ```ts
 * import { sparkSchemaString } from "./spark_schema.ts";
 * sparkSchemaString([{ name: "id", type: "BIGINT" }]);
 * // '{"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}}]}'
 * ```
 */
export function sparkSchemaString(columns: readonly { name: string; type: string }[]): string {
  const fields: SparkField[] = columns.map((c) => ({
    name: c.name,
    type: sparkType(c.type),
    nullable: true,
    metadata: {},
  }));
  return JSON.stringify({ type: "struct", fields });
}
