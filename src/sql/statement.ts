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
  return /^[A-Za-z_]+/.exec(sql.slice(i))?.[0].toUpperCase() ?? "";
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
  return READ_KEYWORDS.has(leadingKeyword(sql));
}
