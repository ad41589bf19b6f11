/**
 * The import graph of `src/` and the root entry files, read from the code:
 * every static import and re-export, and every `import()` of a string
 * literal, between files of this repository. For the tests that hold the
 * layers (`tests/layers_test.ts`).
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
  const edges: Edge[] = [];
  for (const from of files) {
    const text = (await readFile(join(ROOT, from), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const m of text.matchAll(IMPORT)) {
      const specifier = m[3] ?? m[4] ?? m[5];
      if (!specifier.startsWith(".")) continue;
      const to = normalize(relative(ROOT, join(ROOT, dirname(from), specifier)));
      edges.push({ from, to, typeOnly: m[2] !== undefined });
    }
  }
  return { files, edges };
}

/** The module a file belongs to: `src/<folder>` for files under a folder of src, a file of src itself, else the root (`.`). */
export function moduleOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] !== "src") return ".";
  return parts.length > 2 ? `src/${parts[1]}` : file;
}
