/**
 * The `deno run` command line that runs this program again under other
 * permissions.
 *
 * @module
 */

/**
 * Permission flags: `-A`, `--allow-*`, `--deny-*`, `-R`... and the prompt switches; the child gets its own. Leave to
 * import code from hosts (`--allow-import`, `-I`) is kept: the child loads the same modules.
 */
const PERMISSION_FLAG =
  /^(-A|--allow-all|--(allow|deny)-(?!import(=|$))[a-z-]+(=.*)?|-[RWNESP](=.*)?|--permission-set(=.*)?|--no-prompt|--prompt)$/;
/** Flags that would make the child fight the launcher for a port or a terminal. */
const LAUNCHER_ONLY = /^--(inspect|inspect-brk|inspect-wait|watch|watch-hmr|hmr|watch-exclude|no-clear-screen)(=.*)?$/;

/**
 * The `deno run` command line that runs this program again under `flags`:
 * the Deno flags it was started with (config, lock file, import map,
 * `--cached-only`, ...) but its permissions and debugger flags, then
 * `flags` and `--no-prompt`, the same main module and the same arguments.
 * `cmdline` is this process's command line (`/proc/self/cmdline`); null
 * when it cannot be read back (the main module not where expected).
 *
 * @example
 * ```ts
 * import { relaunchCommand } from "./command.ts";
 * relaunchCommand(
 *   ["deno", "run", "-A", "--lock=deno.lock", "cli.ts", "serve"],
 *   { execPath: "/usr/bin/deno", mainModule: "file:///src/cli.ts", args: ["serve"] },
 *   ["--allow-read=/data"],
 * ); // ["/usr/bin/deno", "run", "--lock=deno.lock", "--allow-read=/data", "--no-prompt", "file:///src/cli.ts", "serve"]
 * ```
 */
export function relaunchCommand(
  cmdline: string[],
  self: { execPath: string; mainModule: string; args: string[] },
  flags: string[],
): string[] | null {
  const script = cmdline.length - 1 - self.args.length;
  if (script < 1 || cmdline.slice(script + 1).some((a, i) => a !== self.args[i])) return null;
  const given = cmdline.slice(1, script);
  if (given[0] === "run") given.shift();
  const kept = given.filter((f) => !PERMISSION_FLAG.test(f) && !LAUNCHER_ONLY.test(f));
  // A choice of node_modules folder made on the command line stands.
  if (kept.some((f) => f.startsWith("--node-modules-dir"))) {
    flags = flags.filter((f) => !f.startsWith("--node-modules-dir"));
  }
  // A file main module by its URL (the working folder may not be its own); another (jsr:, https:) as it was given.
  const module = self.mainModule.startsWith("file:") ? self.mainModule : cmdline[script];
  return [self.execPath, "run", ...kept, ...flags, "--no-prompt", module, ...self.args];
}

/**
 * The flag that has a Deno child take the `node_modules` folder beside
 * `config` as it is, never setting it up (a narrowed or confined child could
 * not write there; any saves Deno's look at the folder, some 40 ms a
 * start); none when there is no such folder (`isFolder` says).
 *
 * @example
 * ```ts
 * import { nodeModulesAsIs } from "./command.ts";
 * nodeModulesAsIs("/app/deno.json", () => true); // ["--node-modules-dir=manual"]
 * nodeModulesAsIs(null, () => true); // []
 * ```
 */
export function nodeModulesAsIs(config: string | null, isFolder: (path: string) => boolean): string[] {
  if (config === null) return [];
  return isFolder(`${config.slice(0, config.lastIndexOf("/"))}/node_modules`) ? ["--node-modules-dir=manual"] : [];
}
