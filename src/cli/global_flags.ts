/**
 * The global flags of `svc`, read before the command's name: light, so
 * that `svc serve` can decide how to run before the rest loads.
 *
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/**
 * Takes `--base-url` and `--api-key` given before the command and makes them
 * `env`'s `SVC_BASE_URL` and `SVC_API_KEY`; returns the rest.
 *
 * @example
 * ```ts
 * import { takeGlobalFlags } from "./global_flags.ts";
 * const env: Record<string, string | undefined> = {};
 * takeGlobalFlags(["--base-url", "http://o.example", "serve"], env); // ["serve"]
 * env.SVC_BASE_URL; // "http://o.example"
 * ```
 */
export function takeGlobalFlags(args: string[], env: Record<string, string | undefined>): string[] {
  const rest = [...args];
  while (rest[0] === "--base-url" || rest[0] === "--api-key" || /^--(base-url|api-key)=/.test(rest[0] ?? "")) {
    const flag = rest.shift()!;
    const [name, inline] = flag.split(/=(.*)/s, 2);
    const value = inline ?? rest.shift();
    if (value === undefined || value === "") throw new UsageError(`${name} needs a value`);
    env[name === "--base-url" ? "SVC_BASE_URL" : "SVC_API_KEY"] = value;
  }
  return rest;
}
