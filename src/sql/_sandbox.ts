/**
 * A DuckDB instance locked down for one version's user SQL: no extension
 * autoload or install, external access off with only the version's part
 * files allowed, a private size-capped temp directory, memory and thread
 * limits, the view `records` (lining parts up by column name when their
 * columns differ), then the configuration locked.
 *
 * @module
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { sqlString } from "../parquet/mod.ts";

/** Resource limits of one sandbox. */
export interface SandboxLimits {
  /** DuckDB `memory_limit`, e.g. `1GB`. */
  memoryLimit: string;
  /** DuckDB `threads`. */
  threads: number;
  /** DuckDB `max_temp_directory_size`, e.g. `2GB`. */
  tempLimit: string;
  /**
   * Tests only (never a setting): DuckDB's own walls down (external access
   * on, no allowed paths, configuration not locked), to show what the
   * operating system's walls hold alone.
   */
  unguarded?: boolean;
}

/** An open sandbox: its instance and the one connection user SQL runs on. */
export interface Sandbox {
  /** The instance. */
  db: DuckDBInstance;
  /** The connection. */
  connection: DuckDBConnection;
}

/**
 * Whether every part has the same columns in the same order, so the view can
 * skip `union_by_name` (which opens every part's footer on each bind).
 */
async function sameColumns(connection: DuckDBConnection, list: string): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    `SELECT file_name, name, type, logical_type::VARCHAR FROM parquet_schema(${list})`,
  );
  const signatures = new Map<string, string>();
  for (const [file, ...column] of reader.getRows()) {
    const key = String(file);
    signatures.set(key, `${signatures.get(key) ?? ""}|${column.join(":")}`);
  }
  return new Set(signatures.values()).size <= 1;
}

/**
 * Opens a sandbox over `parts` (real paths of regular files) with its temp
 * directory at `tempDir`.
 */
export async function openSandbox(parts: string[], tempDir: string, limits: SandboxLimits): Promise<Sandbox> {
  await mkdir(tempDir, { recursive: true });
  const db = await DuckDBInstance.create(":memory:", {
    autoload_known_extensions: "false",
    autoinstall_known_extensions: "false",
    threads: String(limits.threads),
    memory_limit: limits.memoryLimit,
  });
  const connection = await db.connect();
  try {
    const list = `[${parts.map(sqlString).join(", ")}]`;
    const setup = [
      `SET temp_directory = ${sqlString(tempDir)}`,
      `SET max_temp_directory_size = ${sqlString(limits.tempLimit)}`,
      `SET extension_directory = ${sqlString(join(tempDir, "extensions"))}`,
      // DuckDB's defaults for these name the user's home directory.
      `SET home_directory = ${sqlString(tempDir)}`,
      `SET secret_directory = ${sqlString(join(tempDir, "secrets"))}`,
      ...(limits.unguarded
        ? []
        : [`SET allowed_paths = ${parts.length > 0 ? list : "[]"}`, `SET enable_external_access = false`]),
    ];
    for (const sql of setup) await connection.run(sql);
    const byName = parts.length > 1 && !(await sameColumns(connection, list)) ? ", union_by_name = true" : "";
    const view = parts.length > 0
      ? `CREATE VIEW records AS SELECT * FROM read_parquet(${list}${byName})`
      : `CREATE VIEW records AS SELECT * FROM (SELECT NULL AS "empty") WHERE false`;
    // Parts never change once written, so their footers may be cached.
    const lock = limits.unguarded ? [] : [`SET lock_configuration = true`];
    for (const sql of [view, `SET parquet_metadata_cache = true`, ...lock]) {
      await connection.run(sql);
    }
  } catch (e) {
    connection.closeSync();
    db.closeSync();
    throw e;
  }
  return { db, connection };
}

/** Closes a sandbox. */
export function closeSandbox(sandbox: Sandbox): void {
  sandbox.connection.closeSync();
  sandbox.db.closeSync();
}
