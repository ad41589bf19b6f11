/**
 * Running one of this package's modules as a child process of the same
 * runtime: `deno run` with narrow permissions under Deno, `node` under Node.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { denoGlobal } from "./deno.ts";

/** How to start a module process. */
export interface ModuleProcessOptions {
  /** Arguments after the module. */
  args: string[];
  /** Deno permission flags (ignored under Node). */
  denoPermissions: string[];
}

/** The `deno.json` nearest above `file`, or null. */
function configAbove(file: string): string | null {
  for (let dir = dirname(file);; dir = dirname(dir)) {
    const candidate = join(dir, "deno.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Starts the module at `moduleUrl` (a `file:` URL) as a child process with
 * piped stdin and stdout; its stderr goes to ours.
 *
 * @example
 * ```ts ignore
 * const child = spawnModule(new URL("./worker_main.ts", import.meta.url), { args: [], denoPermissions: ["--allow-read"] });
 * ```
 */
export function spawnModule(moduleUrl: URL, options: ModuleProcessOptions): ChildProcess {
  const file = fileURLToPath(moduleUrl);
  const stdio: ["pipe", "pipe", "inherit"] = ["pipe", "pipe", "inherit"];
  const deno = denoGlobal();
  if (!deno) return spawn(process.execPath, [file, ...options.args], { stdio });
  const config = configAbove(file);
  const flags = ["run", "--quiet", "--no-prompt", ...(config ? ["--config", config] : []), ...options.denoPermissions];
  return spawn(deno.execPath(), [...flags, file, ...options.args], { stdio });
}
