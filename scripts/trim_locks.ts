/**
 * Takes DuckDB's musl builds out of `deno.lock` and `deno.dev.lock`. Deno
 * installs every package of its lock file's npm snapshot before a program
 * starts, and matches the platform packages of `@duckdb/node-bindings` on
 * their `os` and `cpu` only (not npm's `libc`, denoland/deno#35038): on
 * Linux it would fetch the musl build (70 MB) beside the glibc one. Under
 * Deno the package never loads the musl build (it asks `process.report` for
 * the libc, and Deno's names glibc on any host), so neither lock holds it;
 * Node users get theirs from npm, which reads `libc`. Run this after a
 * dependency update rewrote a lock file (`tests/scripts/locks_test.ts`
 * fails until it is run).
 *
 * ```sh
 * deno run -A scripts/trim_locks.ts
 * ```
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The lock files trimmed. */
export const LOCK_FILES = ["deno.lock", "deno.dev.lock"];

/** Whether an npm package (name, or `name@version` as a lock file keys it) is a musl build Deno would install needlessly. */
export function isMuslBuild(name: string): boolean {
  return /^@duckdb\/node-bindings-[a-z0-9]+-[a-z0-9]+-musl(@|$)/.test(name);
}

/**
 * `text` (a lock file) without the musl builds: their entries, and their
 * names in other packages' dependency lists, taken out line by line so that
 * the rest keeps Deno's layout. Answers the text unchanged when there were
 * none.
 *
 * @example
 * ```ts
 * import { trimLock } from "./trim_locks.ts";
 * const lock = `{
 *   "npm": {
 *     "@duckdb/node-bindings@1.0.0": {
 *       "optionalDependencies": [
 *         "@duckdb/node-bindings-linux-x64",
 *         "@duckdb/node-bindings-linux-x64-musl"
 *       ]
 *     },
 *     "@duckdb/node-bindings-linux-x64-musl@1.0.0": {
 *       "os": ["linux"]
 *     }
 *   }
 * }
 * `;
 * JSON.parse(trimLock(lock)).npm; // { "@duckdb/node-bindings@1.0.0": { optionalDependencies: ["@duckdb/node-bindings-linux-x64"] } }
 * ```
 */
export function trimLock(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const entry = /^(\s*)"([^"]+)": \{$/.exec(line);
    if (entry && isMuslBuild(entry[2])) {
      // The entry's object, to its closing brace at the same indent.
      while (i < lines.length && !new RegExp(`^${entry[1]}\\},?$`).test(lines[i])) i++;
      if (!lines[i].endsWith(",")) out[out.length - 1] = out[out.length - 1].replace(/,$/, "");
      continue;
    }
    const listed = /^\s*"([^"]+)",?$/.exec(line);
    if (listed && isMuslBuild(listed[1])) {
      if (!line.endsWith(",")) out[out.length - 1] = out[out.length - 1].replace(/,$/, "");
      continue;
    }
    out.push(line);
  }
  const trimmed = out.join("\n");
  JSON.parse(trimmed); // still JSON, or this throws before anything is written
  return trimmed;
}

if (import.meta.main) {
  for (const name of LOCK_FILES) {
    const path = join(ROOT, name);
    const text = await readFile(path, "utf8");
    const trimmed = trimLock(text);
    if (trimmed !== text) {
      await writeFile(path, trimmed);
      console.error(`trimmed DuckDB's musl builds from ${name}`);
    }
  }
}
