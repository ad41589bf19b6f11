/**
 * The npm form of svc as its users get it: built (`scripts/build_npm.ts`),
 * `npm pack`ed, and installed with `npm install` into a new project, for the
 * npm package's test and the memory benchmark's Node runtime.
 *
 * @module
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { buildNpm, type BuiltNpm } from "../../scripts/build_npm.ts";

/** What `npm pack --json` says of the tarball it wrote. */
export interface PackedTarball {
  filename: string;
  size: number;
  entryCount: number;
  files: { path: string }[];
}

/** The package built, packed and installed. */
export interface InstalledNpm {
  /** The built package folder and its dependencies. */
  built: BuiltNpm;
  /** The tarball, as `npm pack` described it. */
  packed: PackedTarball;
  /** The tarball's path. */
  tarball: string;
  /** The project (`npm init -y`) the tarball is installed in. */
  app: string;
  /** The installed `svc` bin (`node_modules/.bin/svc`). */
  svc: string;
}

/**
 * Runs `command` in `cwd` to completion; resolves with its standard output,
 * throws with both outputs unless it exits 0.
 *
 * @example
 * ```ts ignore
 * import { runOk } from "./npm_package.ts";
 * await runOk("npm", ["--version"], ".");
 * ```
 */
export async function runOk(command: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(command, { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  if (out.code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited ${out.code}\n--- stderr\n${text.decode(out.stderr)}\n` +
        `--- stdout\n${text.decode(out.stdout)}`,
    );
  }
  return text.decode(out.stdout);
}

/**
 * Builds the npm package into `dir/package`, packs it into `dir`, and
 * installs the tarball into a new project `dir/app`.
 *
 * @example
 * ```ts ignore
 * import { installPackedNpm } from "./npm_package.ts";
 * const { svc } = await installPackedNpm("/tmp/svc-npm");
 * ```
 */
export async function installPackedNpm(dir: string): Promise<InstalledNpm> {
  const built = await buildNpm({ outDir: join(dir, "package") });
  const [packed] = JSON.parse(
    await runOk("npm", ["pack", "--json", "--pack-destination", dir], built.outDir),
  ) as PackedTarball[];
  const tarball = join(dir, packed.filename);
  const app = join(dir, "app");
  await mkdir(app);
  await runOk("npm", ["init", "-y"], app);
  await runOk("npm", ["install", "--no-audit", "--no-fund", tarball], app);
  return { built, packed, tarball, app, svc: join(app, "node_modules", ".bin", "svc") };
}
