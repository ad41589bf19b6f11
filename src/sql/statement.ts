/**
 * What a statement is, before DuckDB runs it: its first keyword, read past
 * comments and parentheses. DuckDB's own parser then counts the statements
 * and names their type; both must agree that it is one read.
 *
 * @module
 */

/** Leading keywords of read statements. */
export const READ_KEYWORDS: ReadonlySet<string> = new Set([
  "SELECT",
  "WITH",
  "FROM",
  "VALUES",
  "DESCRIBE",
  "SUMMARIZE",
  "SHOW",
  "TABLE",
  "EXPLAIN",
]);

/**
 * The first keyword of `sql` in upper case, skipping whitespace, `--` and
 * `/* *\/` comments and opening parentheses; "" when there is none.
 *
 * @example
 * ```ts
 * import { leadingKeyword } from "./statement.ts";
 * leadingKeyword("/* hi *\/ (select 1)"); // "SELECT"
 * ```
 */
export function leadingKeyword(sql: string): string {
  return firstWord(sql).word;
}

/** The first keyword of `sql` in upper case and the index just after it (see {@linkcode leadingKeyword}). */
function firstWord(sql: string): { word: string; end: number } {
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s|\(/.test(c)) i++;
    else if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else break;
  }
  const word = /^[A-Za-z_]+/.exec(sql.slice(i))?.[0] ?? "";
  return { word: word.toUpperCase(), end: i + word.length };
}

/**
 * Whether `sql` starts like a read statement.
 *
 * @example
 * ```ts
 * import { startsAsRead } from "./statement.ts";
 * startsAsRead("WITH t AS (SELECT 1) SELECT * FROM t"); // true
 * startsAsRead("PRAGMA version"); // false
 * ```
 */
export function startsAsRead(sql: string): boolean {
  const { word: keyword, end } = firstWord(sql);
  if (keyword === "PRAGMA") return READ_PRAGMA.test(sql);
  if (keyword !== "EXPLAIN") return READ_KEYWORDS.has(keyword);
  // EXPLAIN [ANALYZE] explains what follows: it must be a read itself, so that a refused statement is refused
  // with the read-only message, not DuckDB's permission error.
  let rest = sql.slice(end);
  const next = firstWord(rest);
  if (next.word === "ANALYZE" || next.word === "ANALYSE") rest = rest.slice(next.end);
  return leadingKeyword(rest) !== "EXPLAIN" && startsAsRead(rest);
}

/**
 * The two PRAGMAs that describe the table and nothing else: `PRAGMA
 * table_info('records')` and `PRAGMA show_tables` (DuckDB runs them as
 * SELECTs over the sandbox's catalog, which holds only `records`).
 */
const READ_PRAGMA = /^\s*pragma\s+(?:table_info\s*\(\s*(?:'records'|"records"|records)\s*\)|show_tables)\s*;?\s*$/i;

/**
 * Functions that run SQL held in a string (`json_execute_serialized_sql`
 * runs the JSON `json_serialize_sql` makes of any text, so a name refused
 * here could be rebuilt from pieces), and names whose results describe the
 * node rather than the data: settings (where DuckDB keeps canonical absolute
 * paths, such as `allowed_paths`), variables, prepared statements, temp
 * files, caches, logs, extensions, secrets, storage. They are refused
 * wherever they appear, even in a string or a comment: a false refusal costs
 * a rewording, a miss costs the server's paths. `tests/sql/dynamic_sql_test.ts`
 * reviews DuckDB's whole function list against this one.
 */
export const NODE_INTERNALS: readonly string[] = [
  "json_execute_serialized_sql",
  "duckdb_settings",
  "current_setting",
  "pg_settings",
  "duckdb_variables",
  "getvariable",
  "duckdb_prepared_statements",
  "duckdb_temporary_files",
  "duckdb_external_file_cache",
  "duckdb_logs",
  "duckdb_logs_parsed",
  "duckdb_log_contexts",
  "truncate_duckdb_logs",
  "write_log",
  "duckdb_profiling_settings",
  "duckdb_extensions",
  "duckdb_secrets",
  "duckdb_secret_types",
  "which_secret",
  "getenv",
  "pragma_database_size",
  "pragma_storage_info",
  "pragma_metadata_info",
];
const INTERNAL_WORD = new RegExp(`\\b(${NODE_INTERNALS.join("|")})\\b`, "i");
/** Functions that run SQL held in a string whose names are also ordinary column names: refused only as calls. */
export const DYNAMIC_SQL_CALLS: readonly string[] = ["query", "query_table"];
const DYNAMIC_SQL = new RegExp(`\\b(${DYNAMIC_SQL_CALLS.join("|")})\\b`, "gi");

/** The index after whitespace and comments (nested block comments included) from `i`. */
function skipSpace(sql: string, i: number): number {
  while (i < sql.length) {
    if (/\s/.test(sql[i])) i++;
    else if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith("/*", i)) {
      let depth = 0;
      while (i < sql.length) {
        if (sql.startsWith("/*", i)) (depth++, i += 2);
        else if (sql.startsWith("*/", i)) {
          i += 2;
          if (--depth === 0) break;
        } else i++;
      }
    } else break;
  }
  return i;
}

/**
 * The first name in `sql` that would describe the node itself (see the list
 * above), or null.
 *
 * @example
 * ```ts
 * import { nodeInternal } from "./statement.ts";
 * nodeInternal("SELECT hex(current_setting('temp_directory'))"); // "current_setting"
 * nodeInternal("SELECT query FROM records"); // null
 * nodeInternal("FROM query /* x *\/ ('SELECT 1')"); // "query"
 * nodeInternal(`FROM "QUERY"('SELECT 1')`); // "query"
 * ```
 */
export function nodeInternal(sql: string): string | null {
  const word = INTERNAL_WORD.exec(sql);
  if (word) return word[1].toLowerCase();
  for (const m of sql.matchAll(DYNAMIC_SQL)) {
    // A quoted name ("QUERY") calls the same function.
    const after = m.index + m[0].length;
    if (sql[skipSpace(sql, sql[after] === '"' ? after + 1 : after)] === "(") return m[1].toLowerCase();
  }
  return null;
}
