/**
 * SQL built from a string, and what a query could learn of the host if it
 * got past every refusal: every DuckDB function whose name says it runs SQL,
 * reads settings, variables, logs, secrets, files or memory is reviewed
 * here (a DuckDB upgrade that adds one fails the first test until it is);
 * each that runs SQL from a string or describes the node is refused over
 * HTTP however it is spelled; and the settings of a sandbox name no path of
 * the host where the workers run in a private view of the filesystem.
 *
 * @module
 */
import { realpath } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { DuckDBInstance } from "@duckdb/node-api";
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { sql } from "./_query.ts";
import { createSqlPool, DYNAMIC_SQL_CALLS, NODE_INTERNALS, sqlSource } from "../../src/sql/mod.ts";
import { openStore } from "../../src/store/mod.ts";

type Review = "runs SQL from a string" | "describes the node" | "harmless";

/** Every function the pattern below finds in DuckDB, reviewed. */
const REVIEWED: Record<string, Review> = {
  query: "runs SQL from a string",
  query_table: "runs SQL from a string",
  json_execute_serialized_sql: "runs SQL from a string",
  current_setting: "describes the node",
  duckdb_settings: "describes the node",
  duckdb_profiling_settings: "describes the node",
  duckdb_variables: "describes the node",
  duckdb_prepared_statements: "describes the node",
  duckdb_extensions: "describes the node",
  duckdb_external_file_cache: "describes the node",
  duckdb_temporary_files: "describes the node",
  duckdb_logs: "describes the node",
  duckdb_logs_parsed: "describes the node",
  duckdb_log_contexts: "describes the node",
  truncate_duckdb_logs: "describes the node",
  write_log: "describes the node",
  duckdb_secrets: "describes the node",
  duckdb_secret_types: "describes the node",
  which_secret: "describes the node",
  pragma_database_size: "describes the node",
  pragma_storage_info: "describes the node",
  pragma_metadata_info: "describes the node",
  // Text in, text out, or the catalog of the sandbox (which holds only `records`): nothing runs, no path shows.
  current_query: "harmless",
  current_query_id: "harmless",
  json_serialize_sql: "harmless",
  json_deserialize_sql: "harmless",
  sql_auto_complete: "harmless",
  json_extract_path: "harmless",
  json_extract_path_text: "harmless",
  parse_path: "harmless",
  parse_duckdb_log_message: "harmless",
  in_search_path: "harmless",
  log: "harmless",
  parquet_file_metadata: "harmless",
  duckdb_approx_database_count: "harmless",
  duckdb_columns: "harmless",
  duckdb_connection_count: "harmless",
  duckdb_constraints: "harmless",
  duckdb_coordinate_systems: "harmless",
  duckdb_databases: "harmless",
  duckdb_dependencies: "harmless",
  duckdb_functions: "harmless",
  duckdb_indexes: "harmless",
  duckdb_keywords: "harmless",
  duckdb_memory: "harmless",
  duckdb_optimizers: "harmless",
  duckdb_schemas: "harmless",
  duckdb_sequences: "harmless",
  duckdb_table_sample: "harmless",
  duckdb_tables: "harmless",
  duckdb_types: "harmless",
  duckdb_views: "harmless",
  pragma_collations: "harmless",
  pragma_platform: "harmless",
  pragma_show: "harmless",
  pragma_table_info: "harmless",
  pragma_user_agent: "harmless",
  pragma_version: "harmless",
  // PRAGMA-only functions: the sandbox runs no PRAGMA but table_info('records') and show_tables.
  disable_object_cache: "harmless",
  enable_object_cache: "harmless",
  extension_versions: "harmless",
  show_databases: "harmless",
};

const PATTERN = "(^|_)(sql|query|exec|execute|eval|prepare|prepared|pragma|variable|variables|setting|settings|" +
  "secret|secrets|env|temporary|log|logs|extension|extensions|cache|file|files|path|directory|databases|memory)(_|$)";

Deno.test("every DuckDB function that could run SQL or describe the node is reviewed, and refused when it must be", async () => {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT DISTINCT function_name FROM duckdb_functions()
       WHERE regexp_matches(function_name, '${PATTERN}') OR function_name LIKE 'duckdb\\_%' ESCAPE '\\' ORDER BY 1`,
    );
    const found = reader.getRows().map((r) => String(r[0]));
    assertEquals(found, Object.keys(REVIEWED).sort(), "DuckDB's list changed: review the new names here");
  } finally {
    connection.closeSync();
    db.closeSync();
  }
  const refused = new Set([...NODE_INTERNALS, ...DYNAMIC_SQL_CALLS]);
  for (const [name, review] of Object.entries(REVIEWED)) {
    assertEquals(refused.has(name), review !== "harmless", `${name} (${review})`);
  }
});

Deno.test("SQL built from a string is refused however the function is named; describing the node too", async () => {
  await withNode({}, async ({ url }) => {
    const attacks = [
      "select * from json_execute_serialized_sql(json_serialize_sql('select hex(current_' || " +
      "'setting(''allowed_paths'')::varchar) as h'))",
      "select * from JSON_EXECUTE_SERIALIZED_SQL(json_serialize_sql('select 1'))",
      "select * from \"json_execute_serialized_sql\"(json_serialize_sql('select 1'))",
      "select * from main.json_execute_serialized_sql(json_serialize_sql('select 1'))",
      "select * from query('select 1')",
      "select * from system.main.query('select 1')",
      "select * from \"QUERY\"('select 1')",
      "from query_table('records')",
      "select * from query_table(['rec' || 'ords'])",
      "select * from duckdb_profiling_settings()",
      "select * from duckdb_logs_parsed('QueryLog')",
      "select write_log('x')",
      "select * from duckdb_prepared_statements()",
      "select * from pragma_storage_info('records')",
    ];
    for (const attack of attacks) {
      const r: Json = await sql(url, attack);
      assertEquals(r.status, 400, `${attack}: ${r.text}`);
      assert(/is not available here: it describes the node, not the data/.test(r.body.error), attack);
    }
    const fine = await sql(
      url,
      "SELECT json_serialize_sql('SELECT 1') IS NOT NULL AS ok, count(*) AS query FROM records",
    );
    assertEquals(fine.body.rows, [[true, 600]], fine.text);
  });
});

Deno.test("a sandbox's settings name no path of the host when its worker runs in a private view", async () => {
  const dir = await tempDir();
  const pool = createSqlPool({ storeRoot: await realpath(dir.path), size: 1 });
  try {
    await citiesStore(dir.path);
    const store = openStore(dir.path);
    const version = await store.version("cities", 2);
    assert(version !== null);
    const { privateView, settings } = await pool.confinement(await sqlSource(await realpath(dir.path), version));
    const unshared = await new Deno.Command("unshare", {
      args: ["--user", "--map-root-user", "--mount", "true"],
      stdout: "null",
      stderr: "null",
    }).output().then((o) => o.success, () => false);
    assertEquals(privateView, unshared, "workers run in a private view wherever user namespaces work");
    const names = settings.map(([name]) => name);
    assert(names.includes("allowed_paths") && names.includes("temp_directory"), names.join(", "));
    if (!privateView) return;
    const host = [dir.path, await realpath(dir.path), homedir(), tmpdir() + "/svc-"];
    for (const [name, value] of settings) {
      for (const path of host) assert(!value.includes(path), `${name} = ${value} names ${path}`);
      assert(/^\[?(\/tmp\/(store|spill)\b|\/tmp\]?$)/.test(value), `${name} = ${value}`);
    }
  } finally {
    await pool.close();
    await dir.cleanup();
  }
});
