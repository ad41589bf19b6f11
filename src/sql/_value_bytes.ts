/**
 * How many bytes of JSON a result chunk will take at least, read from
 * DuckDB's vectors before any value is turned into a JavaScript one: the
 * lengths of strings, blobs and other variable-size values, and a byte for
 * every other value, nested ones included. A value larger than an answer may carry is refused here:
 * turning it into a string first would ask the runtime for as much memory
 * again, and past the worker's ceiling the runtime aborts the process
 * instead of failing the query.
 *
 * @module
 */
import duckdb from "@duckdb/node-bindings";
import type { DuckDBDataChunk } from "@duckdb/node-api";

/** DuckDB types stored as `duckdb_string_t` (16 bytes: a length, then inline bytes or a pointer). */
const STRING_TYPES: ReadonlySet<number> = new Set([
  duckdb.Type.VARCHAR,
  duckdb.Type.BLOB,
  duckdb.Type.BIT,
  duckdb.Type.BIGNUM,
  duckdb.Type.GEOMETRY,
]);

/** Whether row `row` is valid in a validity mask (null: every row is). */
function valid(mask: Uint8Array | null, row: number): boolean {
  return mask === null || mask.length === 0 || (mask[row >> 3] & (1 << (row & 7))) !== 0;
}

/** The least JSON bytes of the first `count` rows of `vector`, stopping once past `limit`. */
function vectorBytes(vector: duckdb.Vector, count: number, limit: number): number {
  if (count === 0) return 0;
  const type = duckdb.vector_get_column_type(vector);
  const id = duckdb.get_type_id(type);
  if (STRING_TYPES.has(id)) {
    const data = duckdb.vector_get_data(vector, count * 16);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const mask = duckdb.vector_get_validity(vector, Math.ceil(count / 64) * 8) ?? null;
    let total = 0;
    for (let row = 0; row < count && total <= limit; row++) {
      total += valid(mask, row) ? view.getUint32(row * 16, true) + 2 : 1;
    }
    return total;
  }
  if (id === duckdb.Type.LIST || id === duckdb.Type.MAP) {
    return vectorBytes(duckdb.list_vector_get_child(vector), duckdb.list_vector_get_size(vector), limit);
  }
  if (id === duckdb.Type.ARRAY) {
    const size = count * duckdb.array_type_array_size(type);
    return vectorBytes(duckdb.array_vector_get_child(vector), size, limit);
  }
  if (id === duckdb.Type.STRUCT || id === duckdb.Type.UNION) {
    let total = 0;
    const fields = duckdb.struct_type_child_count(type);
    for (let i = 0; i < fields && total <= limit; i++) {
      total += vectorBytes(duckdb.struct_vector_get_child(vector, i), count, limit - total);
    }
    return total;
  }
  // Every other value is at least one character of JSON: a list of a hundred million numbers is refused too.
  return count;
}

/**
 * The least bytes of JSON `chunk`'s values take: the lengths of the
 * variable-size ones (strings, blobs, bits, big numbers) and one for every
 * other value, nested ones included; the count stops soon after passing
 * `limit`.
 */
export function leastJsonBytes(chunk: DuckDBDataChunk, limit: number): number {
  const raw = chunk.chunk;
  const rows = duckdb.data_chunk_get_size(raw);
  let total = 0;
  for (let c = 0; c < duckdb.data_chunk_get_column_count(raw) && total <= limit; c++) {
    total += vectorBytes(duckdb.data_chunk_get_vector(raw, c), rows, limit - total);
  }
  return total;
}
