/**
 * The Deno permissions the container gives the node and its commands:
 * named paths, hosts and variables instead of `-A`. The node's are
 * computed by the same function as those `svc serve` narrows itself to
 * outside the image ({@linkcode nodePermissionFlags}).
 *
 * @module
 */
import { join } from "node:path";
import { basePermissions, type NodePaths, nodePermissionFlags, type NodeReach } from "../runtime/mod.ts";
import type { ContainerLayout } from "./layout.ts";

export { netTarget, type NodeReach } from "../runtime/mod.ts";

/**
 * Where the node's pieces are in the image: Deno, the DuckDB binding, the
 * app's `deno.json` and the private `/tmp`.
 */
function imagePaths(layout: ContainerLayout): NodePaths {
  return {
    deno: layout.deno,
    duckdbBinding: layout.duckdbBinding,
    config: join(layout.app, "deno.json"),
    temp: "/tmp",
    // The image's Deno cache (its DENO_DIR), handed on to the SQL workers.
    env: ["DENO_DIR"],
  };
}

/**
 * The node's permission flags: read the store and the trust file, write the
 * store, listen on its address, call only the hosts it follows from.
 *
 * @example
 * ```ts
 * import { nodePermissions } from "./permissions.ts";
 * const flags = nodePermissions(
 *   { app: "/app", deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", data: "/data" },
 *   { store: "/data/svc-data", trustFile: "/data/trust.json", trustWrite: false, bind: { host: "0.0.0.0", port: 8686 }, calls: [], readOnly: false },
 * );
 * flags.includes("--allow-net=0.0.0.0:8686"); // true
 * ```
 */
export function nodePermissions(layout: ContainerLayout, reach: NodeReach): string[] {
  return nodePermissionFlags(imagePaths(layout), reach);
}

/**
 * A command's permission flags (`svc pull`, `svc query`, ...): read and
 * write the volume, call any host (the command names its own origin).
 *
 * @example
 * ```ts
 * import { commandPermissions } from "./permissions.ts";
 * commandPermissions({ app: "/app", deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", data: "/data" })[0];
 * // "--allow-read=/data,/tmp,/dev/null,/app/deno.json"
 * ```
 */
export function commandPermissions(layout: ContainerLayout): string[] {
  const base = basePermissions(imagePaths(layout));
  return [
    `--allow-read=${[layout.data, ...base.read].join(",")}`,
    `--allow-write=${[layout.data, ...base.write].join(",")}`,
    "--allow-net",
    ...base.rest,
  ];
}
