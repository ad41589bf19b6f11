/**
 * What the npm form of svc is made of besides the compiled code: its
 * `package.json`, worked out from `deno.json`, and the `svc` bin script.
 *
 * @module
 */
import { builtinModules } from "node:module";

/** Where the project lives. */
export const REPOSITORY = "https://github.com/svc-dev/svc";

/** The parts of `deno.json` the npm build reads (the root's, or a workspace member's). */
export interface DenoConfig {
  /** The package name, the same on npm and JSR (`@svc/cli`). */
  name: string;
  /** The SPDX license. */
  license: string;
  /** The release. */
  version: string;
  /** Import map: bare name to `npm:` (or other) specifier. */
  imports?: Record<string, string>;
  /** Entry points: subpath to `.ts` file, e.g. `"./server": "./server.ts"`. */
  exports?: Record<string, string>;
  /** The workspace's members (folders holding a `deno.json` each). */
  workspace?: string[];
}

/**
 * Where the npm package carries a workspace package of its own: `@svc/origin`
 * is `@svc/cli/origin` (one npm package holds both parts; JSR publishes them
 * apart), and its `./pay` is also the package's `./pay`, as before it moved.
 */
export const NPM_SUBPATHS: Readonly<Record<string, string>> = { "@svc/origin": "./origin" };

/** Subpaths the npm package keeps for what moved into a workspace package: `./pay` is `./origin/pay`. */
export const NPM_ALIASES: Readonly<Record<string, string>> = { "./pay": "./origin/pay" };

/**
 * The npm package's entry points: the root's exports as they are, and each
 * member's under its subpath (`@svc/origin/pay` is `./origin/pay`), files
 * relative to the root; then the aliases.
 *
 * @example
 * ```ts
 * import { npmEntries } from "./_npm_package.ts";
 * npmEntries({ name: "@svc/cli", license: "MIT", version: "1.0.0", exports: { ".": "./mod.ts" } }, []);
 * // { ".": "./mod.ts" }
 * ```
 */
export function npmEntries(
  root: DenoConfig,
  members: { dir: string; config: DenoConfig }[],
): Record<string, string> {
  const entries: Record<string, string> = { ...(root.exports ?? { ".": "./mod.ts" }) };
  for (const { dir, config } of members) {
    const base = NPM_SUBPATHS[config.name];
    if (base === undefined) continue;
    for (const [sub, file] of Object.entries(config.exports ?? {})) {
      entries[sub === "." ? base : `${base}${sub.slice(1)}`] = `./${dir.replace(/^\.\//, "")}/${
        file.replace(/^\.\//, "")
      }`;
    }
  }
  for (const [alias, target] of Object.entries(NPM_ALIASES)) if (entries[target]) entries[alias] = entries[target];
  return entries;
}

/**
 * A workspace package's specifier as the npm package self-references it:
 * `@svc/origin/cli` is `@svc/cli/origin/cli`; any other is unchanged.
 *
 * @example
 * ```ts
 * import { npmSpecifier } from "./_npm_package.ts";
 * npmSpecifier("@svc/origin/cli", "@svc/cli"); // "@svc/cli/origin/cli"
 * ```
 */
export function npmSpecifier(specifier: string, self: string): string {
  for (const [name, base] of Object.entries(NPM_SUBPATHS)) {
    if (specifier === name || specifier.startsWith(`${name}/`)) {
      return `${self}${base.slice(1)}${specifier.slice(name.length)}`;
    }
  }
  return specifier;
}

/** The bin script: runs the command line under Node and exits with its code. */
export const BIN_SVC = `#!/usr/bin/env node
import process from "node:process";
import { main } from "../cli.js";

process.exit(await main(process.argv.slice(2)));
`;

/**
 * The package a bare import specifier names (`@scope/name/sub` gives
 * `@scope/name`), or null for relative, absolute, URL and Node built-in
 * specifiers.
 */
export function packageOf(specifier: string): string | null {
  if (/^(\.{1,2}\/|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier)) return null;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return builtinModules.includes(name) ? null : name;
}

/** Splits `npm:name@version/sub` (or `npm:/name@version`) into name and version; null when it is not one. */
function parseNpmSpecifier(specifier: string): { name: string; version: string | null } | null {
  const m = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)(?:@([^/]+))?/.exec(specifier);
  return m ? { name: m[1], version: m[2] ?? null } : null;
}

/**
 * The `dependencies` of the npm package: each imported package, at the
 * version its `npm:` mapping in `deno.json` pins (an alias such as
 * `"foo": "npm:bar@1"` becomes `"foo": "npm:bar@1"`). Throws when a package
 * is not mapped to a pinned `npm:` specifier.
 */
export function npmDependencies(
  packages: Iterable<string>,
  imports: Record<string, string>,
): Record<string, string> {
  const deps: Record<string, string> = {};
  for (const pkg of [...new Set(packages)].sort()) {
    const target = imports[pkg] ?? imports[`${pkg}/`];
    const npm = target === undefined ? null : parseNpmSpecifier(target);
    if (!npm?.version) {
      throw new Error(`"${pkg}" is imported but deno.json's imports do not map it to a pinned npm: specifier`);
    }
    deps[pkg] = npm.name === pkg ? npm.version : `npm:${npm.name}@${npm.version}`;
  }
  return deps;
}

/** `"./server.ts"` as the compiled file `"./server<ext>"`. */
function compiled(path: string, ext: ".js" | ".d.ts"): string {
  return path.replace(/\.tsx?$/, ext);
}

/**
 * The `package.json` of the npm package: ESM, the `svc` bin, the entry
 * points `entries` (`deno.json`'s exports and its members', compiled JS with
 * their declarations), Node 20 or later, and `dependencies`.
 */
export function packageJson(
  config: DenoConfig,
  entries: Record<string, string>,
  dependencies: Record<string, string>,
): Record<string, unknown> {
  const exports: Record<string, { types: string; default: string }> = {};
  for (const [subpath, file] of Object.entries(entries)) {
    exports[subpath] = { types: compiled(file, ".d.ts"), default: compiled(file, ".js") };
  }
  return {
    name: config.name,
    version: config.version,
    description: "svc dataset node: serve a store of versioned Parquet datasets over HTTP, SQL and MCP",
    license: config.license,
    repository: { type: "git", url: `git+${REPOSITORY}.git` },
    homepage: `${REPOSITORY}#readme`,
    bugs: { url: `${REPOSITORY}/issues` },
    keywords: ["dataset", "parquet", "duckdb", "mcp", "sql", "data-node"],
    type: "module",
    bin: { svc: "bin/svc.js" },
    exports,
    types: exports["."]?.types,
    files: ["bin/", "src/", "*.js", "*.d.ts", "README.md", "LICENSE"],
    engines: { node: ">=20" },
    dependencies,
  };
}
