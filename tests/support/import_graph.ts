/**
 * The import graph of `src/` and the root entry files, read from the code:
 * every static import and re-export, and every `import()` of a string
 * literal, between files of this repository, by relative path or through a
 * workspace package's exports (`@svc/cli/client`, `@svc/origin/pay`). For
 * the tests that hold the layers (`tests/layers_test.ts`).
 *
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, normalize, relative } from "node:path";
import { ROOT } from "./cli_process.ts";

/** One import of one file by another, both relative to the repository root. */
export interface Edge {
  /** The importing file. */
  from: string;
  /** The imported file. */
  to: string;
  /** Whether it names only types (`import type`, `export type`). */
  typeOnly: boolean;
  /** Whether it names a package's export (`@svc/cli/client`, `@svc/origin/pay`): a door by definition. */
  viaPackage: boolean;
}

/** The workspace's packages: each one's name, folder and exports (`deno.json`). */
async function packages(): Promise<Map<string, { dir: string; exports: Record<string, string> }>> {
  const found = new Map<string, { dir: string; exports: Record<string, string> }>();
  const config = JSON.parse(await readFile(join(ROOT, "deno.json"), "utf8"));
  for (const dir of [".", ...(config.workspace ?? []) as string[]]) {
    const member = JSON.parse(await readFile(join(ROOT, dir, "deno.json"), "utf8"));
    if (typeof member.name === "string" && member.exports) {
      const exports = typeof member.exports === "string" ? { ".": member.exports } : member.exports;
      found.set(member.name, { dir: normalize(dir), exports });
    }
  }
  return found;
}

/** The file a package specifier (`@svc/cli/client`) names, relative to the root, or null when it names none here. */
function packageFile(
  specifier: string,
  known: Map<string, { dir: string; exports: Record<string, string> }>,
): string | null {
  for (const [name, { dir, exports }] of known) {
    if (specifier !== name && !specifier.startsWith(`${name}/`)) continue;
    const target = exports[`.${specifier.slice(name.length)}`];
    return target === undefined ? null : normalize(join(dir, target));
  }
  return null;
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?[^;'"]*?\s+from\s+["']([^"']+)["']|(?:^|\n)\s*import\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Every `.ts` file under `dir` (relative to the root), recursively. */
export async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await tsFiles(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out.sort();
}

/** The imports between this repository's files, from `src/` and the root entry files. */
export async function importGraph(): Promise<{ files: string[]; edges: Edge[] }> {
  const files = [...await tsFiles("src"), "mod.ts", "server.ts", "cli.ts"];
  const known = await packages();
  const edges: Edge[] = [];
  for (const from of files) {
    const text = (await readFile(join(ROOT, from), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const m of text.matchAll(IMPORT)) {
      const specifier = m[3] ?? m[4] ?? m[5];
      const typeOnly = m[2] !== undefined;
      if (specifier.startsWith(".")) {
        const to = normalize(relative(ROOT, join(ROOT, dirname(from), specifier)));
        edges.push({ from, to, typeOnly, viaPackage: false });
        continue;
      }
      const to = packageFile(specifier, known);
      if (to !== null) edges.push({ from, to, typeOnly, viaPackage: true });
    }
  }
  return { files, edges };
}

/**
 * The module a file belongs to: `src/<folder>` for files under a folder of
 * src (`src/origin/<folder>` in the origin's package, whose `mod.ts` is a
 * module of its own), a file of src itself, else the root (`.`).
 */
export function moduleOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] !== "src") return ".";
  if (parts[1] === "origin") return parts.length > 3 ? `src/origin/${parts[2]}` : file;
  return parts.length > 2 ? `src/${parts[1]}` : file;
}
