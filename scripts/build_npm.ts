/**
 * Builds the npm form of svc into `dist/npm/`: the source compiled by
 * `tsc` (JS and declarations, relative `.ts` imports rewritten to `.js`),
 * a `package.json` worked out from `deno.json`, the `svc` bin, and README
 * and LICENSE when the repository has them.
 *
 * ```sh
 * deno task build:npm
 * ```
 *
 * @module
 */
import ts from "typescript";
import { chmod, copyFile, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { BIN_SVC, type DenoConfig, npmDependencies, packageJson, packageOf } from "./_npm_package.ts";

/** The repository root. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Modules the package starts as processes rather than imports, so no entry point reaches them. */
const PROCESS_ENTRIES = ["src/sql/worker_main.ts"];

/** Options of {@linkcode buildNpm}. */
export interface BuildNpmOptions {
  /** Where to write the package; emptied first. Default: `dist/npm` in the repository. */
  outDir?: string;
}

/** What {@linkcode buildNpm} wrote. */
export interface BuiltNpm {
  /** The package directory. */
  outDir: string;
  /** The package's version (`deno.json`'s). */
  version: string;
  /** Every file written, relative to `outDir`, sorted. */
  files: string[];
  /** The `dependencies` of the package. */
  dependencies: Record<string, string>;
}

/** A build that `tsc` rejected; the message holds its diagnostics. */
export class CompileError extends Error {
  /** @param message the formatted diagnostics */
  constructor(message: string) {
    super(message);
    this.name = "CompileError";
  }
}

/** The compiler options of the npm build: ES2022 modules for Node 20, with declarations. */
function compilerOptions(outDir: string): ts.CompilerOptions {
  return {
    rewriteRelativeImportExtensions: true,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    declaration: true,
    types: ["node"],
    typeRoots: [join(ROOT, "node_modules", "@types")],
    strict: true,
    skipLibCheck: true,
    noEmitOnError: true,
    rootDir: ROOT,
    outDir,
    newLine: ts.NewLineKind.LineFeed,
  };
}

/** Compiles `entries` (and what they import) into `outDir`; returns the written paths and the packages they import. */
function compile(entries: string[], outDir: string): { written: string[]; packages: Set<string> } {
  const program = ts.createProgram(entries, compilerOptions(outDir));
  const written: string[] = [];
  const packages = new Set<string>();
  const result = program.emit(undefined, (path, text, bom) => {
    ts.sys.writeFile(path, text, bom);
    written.push(path);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const pkg = packageOf(fileName);
      if (pkg) packages.add(pkg);
    }
  });
  const diagnostics = ts.sortAndDeduplicateDiagnostics([...ts.getPreEmitDiagnostics(program), ...result.diagnostics]);
  if (diagnostics.length > 0 || result.emitSkipped) {
    const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    throw new CompileError(format(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => "\n",
    }));
  }
  return { written, packages };
}

/** Copies `name` from the repository root into `outDir` when it exists; returns whether it did. */
async function copyIfPresent(name: string, outDir: string): Promise<boolean> {
  const from = join(ROOT, name);
  if (!(await stat(from).catch(() => null))?.isFile()) return false;
  await copyFile(from, join(outDir, name));
  return true;
}

/**
 * Builds the npm package: empties `outDir`, compiles `deno.json`'s entry
 * points with `tsc`, then writes `package.json`, `bin/svc.js`, README and
 * LICENSE. Throws {@linkcode CompileError} when `tsc` reports any error.
 *
 * @example
 * ```ts ignore
 * const built = await buildNpm({ outDir: "/tmp/svc-npm" });
 * console.log(built.files.length, built.dependencies);
 * ```
 */
export async function buildNpm(options: BuildNpmOptions = {}): Promise<BuiltNpm> {
  const outDir = resolve(options.outDir ?? join(ROOT, "dist", "npm"));
  const config = JSON.parse(await readFile(join(ROOT, "deno.json"), "utf8")) as DenoConfig;
  const entries = [...Object.values(config.exports ?? { ".": "./mod.ts" }), ...PROCESS_ENTRIES].map((p) =>
    join(ROOT, p)
  );
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const { written, packages } = compile(entries, outDir);
  const dependencies = npmDependencies(packages, config.imports ?? {});
  const files = written.map((p) => relative(outDir, p));
  await writeFile(join(outDir, "package.json"), JSON.stringify(packageJson(config, dependencies), null, 2) + "\n");
  await mkdir(join(outDir, "bin"));
  await writeFile(join(outDir, "bin", "svc.js"), BIN_SVC);
  await chmod(join(outDir, "bin", "svc.js"), 0o755);
  files.push("package.json", join("bin", "svc.js"));
  for (const name of ["README.md", "LICENSE"]) {
    if (await copyIfPresent(name, outDir)) files.push(name);
  }
  return { outDir, version: config.version, files: files.sort(), dependencies };
}

if (import.meta.main) {
  try {
    const built = await buildNpm();
    const count = (ext: string) => built.files.filter((f) => f.endsWith(ext)).length;
    const deps = Object.entries(built.dependencies).map(([name, v]) => `${name}@${v}`).join(", ") || "none";
    console.log(`built svc ${built.version} into ${relative(process.cwd(), built.outDir) || "."}`);
    console.log(`  ${count(".d.ts")} declaration files, ${count(".js")} JS files (bin/svc.js included)`);
    console.log(`  other: ${built.files.filter((f) => !f.endsWith(".js") && !f.endsWith(".d.ts")).join(", ")}`);
    console.log(`  dependencies: ${deps}`);
  } catch (e) {
    console.error(e instanceof CompileError ? e.message : e);
    console.error("error: npm build failed");
    process.exit(1);
  }
}
