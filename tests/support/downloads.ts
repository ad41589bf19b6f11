/**
 * Reading downloads back in tests: CSV parsed as RFC 4180 says, Parquet read
 * with its own DuckDB into the data page's record JSON.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertEquals } from "./assert.ts";
import { DOWNLOAD_FOLDER_PREFIX, recordEncoder, WRITER_FOLDER_PREFIX } from "../../src/parquet/mod.ts";

/** RFC 4180 fields (an unquoted empty field as null), lines ended by CRLF. */
export function parseCsv(text: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  let i = 0;
  while (i < text.length) {
    let field: string | null;
    if (text[i] === '"') {
      field = "";
      for (i++;; i++) {
        if (text[i] === '"' && text[i + 1] === '"') [field, i] = [field + '"', i + 1];
        else if (text[i] === '"') break;
        else field += text[i];
      }
      i++;
    } else {
      let end = i;
      while (end < text.length && text[end] !== "," && text[end] !== "\r") end++;
      field = end === i ? null : text.slice(i, end);
      i = end;
    }
    row.push(field);
    if (text[i] === ",") i++;
    else if (text.startsWith("\r\n", i)) [rows[rows.length], row, i] = [row, [], i + 2];
    else throw new Error(`bad CSV at ${i}: ${JSON.stringify(text.slice(i, i + 20))}`);
  }
  assertEquals(row, [], "the last line ends with CRLF");
  return rows;
}

/** The records of a Parquet file as the data page's encoder writes them, and its columns' types. */
export async function readParquet(bytes: Uint8Array): Promise<{ records: string[]; types: string[][] }> {
  const path = join(tmpdir(), `svc-test-read-${crypto.randomUUID()}.parquet`);
  await writeFile(path, bytes);
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  try {
    const file = `'${path}'`;
    const types = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${file})`)).getRows()
      .map(([n, t]) => [String(n), String(t)]);
    const result = await c.run(`SELECT * FROM read_parquet(${file})`);
    const encode = recordEncoder(result);
    const records: string[] = [];
    for (const chunk of await result.fetchAllChunks()) records.push(...encode(chunk));
    return { records, types };
  } finally {
    c.closeSync();
    db.closeSync();
    await rm(path, { force: true });
  }
}

/**
 * How this process's Parquet writers' folders begin (`svc-parquet-writer-<pid>-`): another node running on the
 * machine has its own, whose downloads are none of a test's business.
 */
export function ownWriterFolderPrefix(): string {
  return `${WRITER_FOLDER_PREFIX}${Deno.pid}-`;
}

/**
 * The folders of Parquet downloads now under the system's temporary
 * directory: at its top, and in the folders of this process's DuckDBs kept
 * warm to write them (as `<writer>/<download>`).
 */
export async function downloadFolders(): Promise<Set<string>> {
  const found = new Set<string>();
  for (const name of await readdir(tmpdir())) {
    if (name.startsWith(DOWNLOAD_FOLDER_PREFIX)) found.add(name);
    if (!name.startsWith(ownWriterFolderPrefix())) continue;
    const inside = await readdir(join(tmpdir(), name)).catch(() => []);
    for (const n of inside) if (n.startsWith(DOWNLOAD_FOLDER_PREFIX)) found.add(`${name}/${n}`);
  }
  return found;
}
