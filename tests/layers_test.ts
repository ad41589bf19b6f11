/**
 * The house's layers, held: every module of `src/` has a floor, and a module
 * imports only modules on lower floors, only through their `mod.ts`, never
 * another module's `_` files; no module or file imports itself round a
 * circle; no function of `src/` runs over 80 lines, from the first line of
 * its signature to the last of its body, as the TypeScript compiler's syntax
 * tree has it. DEVELOPERS.md draws the same floors.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { assert, assertEquals } from "./support/assert.ts";
import { ROOT } from "./support/cli_process.ts";
import { type Edge, importGraph, moduleOf, tsFiles } from "./support/import_graph.ts";
import { functionSpans, namesPassedOn } from "./support/ts_syntax.ts";

/** The floors, lowest first: a module may import the modules of the floors below its own. */
export const FLOORS: string[][] = [
  ["src/errors", "src/wire", "src/metrics", "src/version.ts", "src/launch"],
  ["src/catalog", "src/origin/wire"],
  ["src/http", "src/gates", "src/client"],
  ["src/runtime", "src/objectstore", "src/origin/client"],
  ["src/store", "src/origin/mod.ts"],
  ["src/parquet", "src/trust"],
  ["src/sql", "src/writes"],
  ["src/service", "src/settings"],
  ["src/mcp", "src/local", "src/sharing"],
  ["src/node", "src/follow", "src/origin/pay"],
  ["src/cli"],
  ["src/container", "src/origin/cli"],
  ["src/svc"],
  ["."],
];

const floorOf = new Map(FLOORS.flatMap((mods, floor) => mods.map((m) => [m, floor] as const)));

/** The cycles among `nodes` given `next`, as lists of nodes (Tarjan's strongly connected components). */
function cycles(nodes: string[], next: (n: string) => string[]): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next(v).includes(v)) found.push(component.sort());
    }
  };
  for (const n of nodes) if (!indices.has(n)) visit(n);
  return found;
}

function crossing(edges: Edge[]): Edge[] {
  return edges.filter((e) => moduleOf(e.from) !== moduleOf(e.to));
}

Deno.test("every module has a floor and imports only modules on lower floors", async () => {
  const { files, edges } = await importGraph();
  const unplaced = [...new Set(files.map(moduleOf))].filter((m) => !floorOf.has(m));
  assertEquals(unplaced, [], "modules without a floor");
  const upward = crossing(edges)
    .filter((e) => floorOf.get(moduleOf(e.to))! >= floorOf.get(moduleOf(e.from))!)
    .map((e) => `${e.from} -> ${e.to}`);
  assertEquals(upward, []);
});

Deno.test("cross-module imports go through each module's mod.ts, never into another module's _ files", async () => {
  const { edges } = await importGraph();
  const around = crossing(edges)
    .filter((e) => !e.viaPackage && moduleOf(e.to) !== e.to && e.to !== `${moduleOf(e.to)}/mod.ts`)
    .map((e) => `${e.from} -> ${e.to}`);
  assertEquals(around, []);
});

Deno.test("no module and no file imports itself round a circle", async () => {
  const { files, edges } = await importGraph();
  const byFile = new Map<string, string[]>();
  for (const e of edges) byFile.set(e.from, [...(byFile.get(e.from) ?? []), e.to]);
  assertEquals(cycles(files, (f) => byFile.get(f) ?? []), [], "file cycles");
  const byModule = new Map<string, Set<string>>();
  for (const e of crossing(edges)) {
    const from = moduleOf(e.from);
    byModule.set(from, new Set([...(byModule.get(from) ?? []), moduleOf(e.to)]));
  }
  const modules = [...new Set(files.map(moduleOf))];
  assertEquals(cycles(modules, (m) => [...(byModule.get(m) ?? [])]), [], "module cycles");
});

Deno.test("no function of src/ runs over 80 lines", async () => {
  const long: string[] = [];
  for (const file of await tsFiles("src")) {
    const text = await readFile(join(ROOT, file), "utf8");
    for (const f of functionSpans(file, text)) {
      if (f.lines > 80) long.push(`${file}:${f.line}: ${f.name} (${f.lines} lines)`);
    }
  }
  assertEquals(long, []);
});

Deno.test("a function's length counts its signature, however it is laid out", () => {
  const text = [
    "export async function spread(",
    "  a: number,",
    "  b: number,",
    "): Promise<number> {",
    "  return a + b;",
    "}",
    "const arrow = (x: number) => {",
    "  return x;",
    "};",
    "class C {",
    "  method(",
    "    y: string,",
    "  ) {",
    "    return y;",
    "  }",
    "}",
  ].join("\n");
  const spans = functionSpans("x.ts", text).map((f) => [f.name, f.line, f.lines]);
  assertEquals(spans, [["spread", 1, 6], ["arrow", 7, 3], ["method", 11, 5]]);
});

Deno.test("every door names what it passes on: no mod.ts (nor the command line's kit.ts) passes on every name of a file", async () => {
  const doors = (await tsFiles("src")).filter((f) => f.endsWith("/mod.ts") || f === "src/cli/kit.ts");
  assert(doors.length > 30, "the doors are read");
  const wholesale: string[] = [];
  for (const door of doors) {
    if (namesPassedOn(door, await readFile(join(ROOT, door), "utf8")).includes("*")) wholesale.push(door);
  }
  assertEquals(wholesale, []);
  assertEquals(namesPassedOn("x.ts", 'export { a, type B } from "./a.ts";\nexport type * from "./b.ts";'), [
    "a",
    "B",
    "*",
  ]);
});
