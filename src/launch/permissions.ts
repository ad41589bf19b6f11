/**
 * The Deno permissions a node runs under: named paths, hosts and variables
 * instead of `-A`. One computation for every form that narrows the node:
 * the container's entrypoint and `svc serve` under Deno.
 *
 * @module
 */

/** The folder of `path` (what `node:path`'s `dirname` gives for an absolute path; none is imported here). */
function dirname(path: string): string {
  const cut = path.replace(/\/+$/, "").lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

/** What the node may touch. */
export interface NodeReach {
  /**
   * The store folder (read and write; read only for a `--read-only` node),
   * or its path and its real path (Deno checks a path as it is named, and
   * the node names its store by its real path).
   */
  store: string | string[];
  /** The trust file (read). */
  trustFile: string;
  /**
   * Whether the node keeps the trust file current (following with
   * signatures checked applies the origin's key rotations): it then reads
   * and writes the trust file's folder, where the file is replaced
   * atomically.
   */
  trustWrite: boolean;
  /** The address and port the node binds. */
  bind: { host: string; port: number };
  /** URLs the node calls: the origin and the upstream it follows, if any. */
  calls: string[];
  /** Whether the node writes nothing to the store. */
  readOnly: boolean;
  /** Variables the node reads beyond `SVC_*` (a node over an object store: the `AWS_*` ones). */
  env?: string[];
}

/** Where the node's runtime and its helpers are, on this machine or in the image. */
export interface NodePaths {
  /** The Deno binary (the SQL workers are started with it). */
  deno: string;
  /** The native DuckDB binding (`duckdb.node`), the one file given FFI leave. */
  duckdbBinding: string;
  /** The `deno.json` the SQL workers start from (read), or null when there is none. */
  config: string | null;
  /** The temporary folder (read and write: the SQL workers' folders). */
  temp: string;
  /** Programs the node may start besides Deno and `/bin/sh` (`unshare`, for the workers' private views). */
  run?: string[];
  /** Environment variables the node may read besides `SVC_*` (`TMPDIR`, which names `temp`). */
  env?: string[];
}

/** The host (with its port when the URL names one) of `url`, as `--allow-net` takes it. */
export function netTarget(url: string): string {
  return new URL(url).host;
}

/**
 * What every svc process needs, whatever it does: the temporary folder,
 * `/dev/null` (the node's spare descriptor), the config (read so its SQL
 * workers start from it), `SVC_*` variables (and `NODE_V8_COVERAGE`, which
 * Deno's `node:child_process` reads on every spawn), the machine's memory
 * size and host name, the DuckDB binding, and running Deno and the shell
 * that sets a SQL worker's memory ceiling.
 *
 * @example
 * ```ts
 * import { basePermissions } from "./permissions.ts";
 * const base = basePermissions({ deno: "/usr/bin/deno", duckdbBinding: "/app/duckdb.node", config: null, temp: "/tmp" });
 * base.rest.includes("--allow-ffi=/app/duckdb.node"); // true
 * ```
 */
export function basePermissions(paths: NodePaths): { read: string[]; write: string[]; rest: string[] } {
  return {
    read: [paths.temp, "/dev/null", ...(paths.config === null ? [] : [paths.config])],
    write: [paths.temp],
    rest: [
      `--allow-env=${["SVC_*", "NODE_V8_COVERAGE", "MALLOC_*", ...(paths.env ?? [])].join(",")}`,
      "--allow-sys=systemMemoryInfo,hostname",
      `--allow-ffi=${paths.duckdbBinding}`,
      `--allow-run=${[paths.deno, "/bin/sh", ...(paths.run ?? [])].join(",")}`,
    ],
  };
}

/**
 * The node's permission flags: read the store and the trust file, write the
 * store, listen on its address, call only the hosts it follows from.
 *
 * @example
 * ```ts
 * import { nodePermissionFlags } from "./permissions.ts";
 * const flags = nodePermissionFlags(
 *   { deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", config: "/app/deno.json", temp: "/tmp" },
 *   { store: "/data/svc-data", trustFile: "/data/trust.json", trustWrite: false, bind: { host: "0.0.0.0", port: 8686 }, calls: [], readOnly: false },
 * );
 * flags.includes("--allow-net=0.0.0.0:8686"); // true
 * ```
 */
export function nodePermissionFlags(paths: NodePaths, reach: NodeReach): string[] {
  const base = basePermissions(paths);
  const net = [`${reach.bind.host}:${reach.bind.port}`, ...reach.calls.map(netTarget)];
  const trust = reach.trustWrite ? dirname(reach.trustFile) : reach.trustFile;
  const store = typeof reach.store === "string" ? [reach.store] : reach.store;
  const rest = reach.env?.length
    ? base.rest.map((flag) => flag.startsWith("--allow-env=") ? `${flag},${reach.env!.join(",")}` : flag)
    : base.rest;
  return [
    `--allow-read=${[...store, trust, ...base.read].join(",")}`,
    `--allow-write=${
      [...(reach.readOnly ? [] : store), ...(reach.trustWrite ? [trust] : []), ...base.write].join(",")
    }`,
    `--allow-net=${[...new Set(net)].join(",")}`,
    ...rest,
  ];
}
