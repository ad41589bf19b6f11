/**
 * The Deno permissions the container gives the node and its commands:
 * named paths, hosts and variables instead of `-A`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { ContainerLayout } from "./layout.ts";

/** What the node may touch. */
export interface NodeReach {
  /** The store folder (read and write; read only for a `--read-only` node). */
  store: string;
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
}

/** The host (with its port when the URL names one) of `url`, as `--allow-net` takes it. */
export function netTarget(url: string): string {
  return new URL(url).host;
}

/**
 * What every svc process inside the image needs, whatever it does: the
 * private `/tmp`, `/dev/null` (the node's spare descriptor), the config
 * (read so its SQL workers start from it), `SVC_*` variables (and
 * `NODE_V8_COVERAGE`, which Deno's `node:child_process` reads on every
 * spawn), the machine's memory size and host name, the DuckDB binding, and
 * running Deno and the shell that sets a SQL worker's memory ceiling.
 */
function common(layout: ContainerLayout): { read: string[]; write: string[]; rest: string[] } {
  return {
    read: ["/tmp", "/dev/null", join(layout.app, "deno.json")],
    write: ["/tmp"],
    rest: [
      "--allow-env=SVC_*,NODE_V8_COVERAGE",
      "--allow-sys=systemMemoryInfo,hostname",
      `--allow-ffi=${layout.duckdbBinding}`,
      `--allow-run=${layout.deno},/bin/sh`,
    ],
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
  const base = common(layout);
  const net = [`${reach.bind.host}:${reach.bind.port}`, ...reach.calls.map(netTarget)];
  const trust = reach.trustWrite ? dirname(reach.trustFile) : reach.trustFile;
  return [
    `--allow-read=${[reach.store, trust, ...base.read].join(",")}`,
    `--allow-write=${
      [...(reach.readOnly ? [] : [reach.store]), ...(reach.trustWrite ? [trust] : []), ...base.write].join(",")
    }`,
    `--allow-net=${[...new Set(net)].join(",")}`,
    ...base.rest,
  ];
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
  const base = common(layout);
  return [
    `--allow-read=${[layout.data, ...base.read].join(",")}`,
    `--allow-write=${[layout.data, ...base.write].join(",")}`,
    "--allow-net",
    ...base.rest,
  ];
}
