/**
 * Builds the npm form of svc into `dist/npm/`: the source compiled by
 * `tsc` (JS and declarations, relative `.ts` imports rewritten to `.js`),
 * a `package.json` worked out from `deno.json`, the `svc` bin, the package's
 * own README (`npm/README.md`) and the LICENSE.
 *
 * ```sh
 * deno task build:npm
 * ```
 *
 * @module
 */
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { spawnSync } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  BIN_SVC,
  type DenoConfig,
  npmDependencies,
  npmEntries,
  npmSpecifier,
  packageJson,
  packageOf,
} from "./_npm_package.ts";
import { PAYMENT_PACKAGES } from "../src/origin/pay/packages.ts";

/** The repository root. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The compiler and the Node type definitions (Node 20, the oldest Node the package runs on) the build uses. */
const BUILD_TOOLS = ["typescript@5.9.3", "@types/node@20.19.43"];

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

/**
 * The compiler options of the npm build (a `tsconfig.json`): ES2022 modules
 * for Node 20, with declarations; `paths` resolve the workspace's package
 * specifiers (`@svc/cli/client`, `@svc/origin/pay`) to their sources.
 */
function compilerOptions(outDir: string, typeRoot: string, paths: Record<string, string[]>): Record<string, unknown> {
  return {
    paths,
    rewriteRelativeImportExtensions: true,
    module: "es2022",
    moduleResolution: "bundler",
    target: "es2022",
    declaration: true,
    types: ["node"],
    typeRoots: [typeRoot],
    strict: true,
    skipLibCheck: true,
    noEmitOnError: true,
    rootDir: ROOT,
    outDir,
    newLine: "lf",
    listEmittedFiles: true,
    pretty: false,
  };
}

/**
 * Bare specifiers a compiled file imports (`import ... from "x"`, `export ... from "x"`, `import "x"`, `import("x")`):
 * statements as tsc writes them, each at the start of its line, and `import(` of a string; never a string that holds
 * the word, such as `" changes from " + x` or `name: "from", type: "y"`.
 *
 * @example
 * ```ts ignore
 * importedSpecifiers('import { a } from "x";\nconst t = " from " + (b ? "c" : "d");\nawait import("y");'); // ["x", "y"]
 * ```
 */
export function importedSpecifiers(text: string): string[] {
  const found: string[] = [];
  const statement = /^\s*(?:import|export)\b(?:[^;"'`]|\n)*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;
  for (const m of text.matchAll(statement)) found.push(m[1] ?? m[2]);
  for (const m of text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]);
  return found;
}

/**
 * Compiles `entries` (and what they import) into `outDir` with the build's
 * own `tsc`; returns the written paths and the packages they import.
 */
async function compile(
  entries: string[],
  outDir: string,
  tools: string,
  paths: Record<string, string[]>,
): Promise<{ written: string[]; packages: Set<string> }> {
  const config = join(tools, "tsconfig.json");
  const options = compilerOptions(outDir, join(tools, "node_modules", "@types"), paths);
  await writeFile(config, JSON.stringify({ compilerOptions: options, files: entries }, null, 2));
  const tsc = spawnSync("node", [
    join(tools, "node_modules", "typescript", "bin", "tsc"),
    "-p",
    config,
  ], { encoding: "utf8", cwd: ROOT });
  const written: string[] = [];
  const diagnostics: string[] = [];
  for (const line of (tsc.stdout ?? "").split("\n")) {
    if (line.startsWith("TSFILE: ")) written.push(line.slice("TSFILE: ".length).trim());
    else if (line.trim()) diagnostics.push(line);
  }
  if (tsc.status !== 0 || diagnostics.length > 0) {
    throw new CompileError([...diagnostics, tsc.stderr ?? "", `tsc exited ${tsc.status ?? tsc.signal}`].join("\n"));
  }
  const packages = new Set<string>();
  for (const path of written) {
    for (const specifier of importedSpecifiers(await readFile(path, "utf8"))) {
      const pkg = packageOf(specifier);
      if (pkg) packages.add(pkg);
    }
  }
  return { written, packages };
}

/** The workspace's packages besides the root: each member's folder and `deno.json` (those with a name). */
async function members(config: DenoConfig): Promise<{ dir: string; config: DenoConfig }[]> {
  const found: { dir: string; config: DenoConfig }[] = [];
  for (const dir of config.workspace ?? []) {
    const member = JSON.parse(await readFile(join(ROOT, dir, "deno.json"), "utf8")) as Partial<DenoConfig>;
    if (typeof member.name === "string") found.push({ dir: dir.replace(/^\.\//, ""), config: member as DenoConfig });
  }
  return found;
}

/** `paths` for `tsc`: each package specifier of the workspace (`@svc/cli/client`, `@svc/origin`) to its source. */
function workspacePaths(root: DenoConfig, all: { dir: string; config: DenoConfig }[]): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const { dir, config } of [{ dir: ".", config: root }, ...all]) {
    for (const [sub, file] of Object.entries(config.exports ?? {})) {
      paths[sub === "." ? config.name : `${config.name}${sub.slice(1)}`] = [join(ROOT, dir, file)];
    }
  }
  return paths;
}

/**
 * Rewrites the workspace's own package specifiers in the compiled files to
 * the npm package's self-references (`@svc/origin/cli` becomes
 * `@svc/cli/origin/cli`, which Node resolves through the package's exports).
 */
async function selfReferences(written: string[], self: string): Promise<void> {
  for (const path of written) {
    const text = await readFile(path, "utf8");
    const rewritten = text.replace(
      /(["'])(@svc\/origin(?:\/[\w-]+)*)\1/g,
      (_, q, s) => `${q}${npmSpecifier(s, self)}${q}`,
    );
    if (rewritten !== text) await writeFile(path, rewritten);
  }
}

/**
 * The build's own tools, {@linkcode BUILD_TOOLS}, installed with npm into
 * `dist/.build-tools` on first use and kept out of `deno.json` and its
 * lock, so that running the node never downloads them. Returns the folder.
 */
async function buildTools(): Promise<string> {
  const prefix = join(ROOT, "dist", ".build-tools");
  const stamp = join(prefix, "installed.json");
  const installed = await readFile(stamp, "utf8").then((text) => JSON.parse(text) as string[], () => null);
  if (JSON.stringify(installed) !== JSON.stringify(BUILD_TOOLS)) {
    await mkdir(prefix, { recursive: true });
    const npm = spawnSync(
      "npm",
      ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", ...BUILD_TOOLS],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (npm.status !== 0) {
      throw new Error(`npm could not install ${BUILD_TOOLS.join(" ")} (exit ${npm.status ?? npm.signal})`);
    }
    await writeFile(stamp, JSON.stringify(BUILD_TOOLS));
  }
  return prefix;
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
  const workspace = await members(config);
  const exported = npmEntries(config, workspace);
  const entries = [...new Set([...Object.values(exported), ...PROCESS_ENTRIES])].map((p) => join(ROOT, p));
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const { written, packages } = await compile(entries, outDir, await buildTools(), workspacePaths(config, workspace));
  await selfReferences(written, config.name);
  // The workspace's own packages are this package's parts, not dependencies.
  const own = new Set([config.name, ...workspace.map((m) => m.config.name)]);
  const imported = [...packages].filter((p) => !own.has(p));
  // The payment packages load by a specifier built at run time (src/origin/pay/packages.ts): no import names them.
  const all = { ...npmDependencies(imported, config.imports ?? {}), ...PAYMENT_PACKAGES };
  const dependencies = Object.fromEntries(Object.entries(all).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
  const files = written.map((p) => relative(outDir, p));
  const pkg = packageJson(config, exported, dependencies);
  await writeFile(join(outDir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  await mkdir(join(outDir, "bin"));
  await writeFile(join(outDir, "bin", "svc.js"), BIN_SVC);
  await chmod(join(outDir, "bin", "svc.js"), 0o755);
  files.push("package.json", join("bin", "svc.js"));
  // The package's own README (no Deno commands in it), and the repository's license.
  await copyFile(join(ROOT, "npm", "README.md"), join(outDir, "README.md"));
  await copyFile(join(ROOT, "LICENSE"), join(outDir, "LICENSE"));
  files.push("README.md", "LICENSE");
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
