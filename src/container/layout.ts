/**
 * Where things are inside the image, and how the DuckDB binding is found.
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

/** The port the container serves on when `SVC_NODE_PORT` is not set. */
export const CONTAINER_PORT = 8686;

/** The places the entrypoint works with. */
export interface ContainerLayout {
  /** The application folder (`deno.json`, `cli.ts`, `node_modules`). */
  app: string;
  /** The Deno binary. */
  deno: string;
  /** The native DuckDB binding (`duckdb.node`), the one file given FFI leave. */
  duckdbBinding: string;
  /** The volume: working directory of commands, home of the store and the trust file. */
  data: string;
}

/** The image's layout: the app in `/app`, Deno in `/usr/local/bin`, the volume at `/data`. */
export const IMAGE_LAYOUT: Omit<ContainerLayout, "duckdbBinding"> = {
  app: "/app",
  deno: "/usr/local/bin/deno",
  data: "/data",
};

/**
 * The glibc DuckDB binding under `app`'s `node_modules` for this machine's
 * architecture, or null when none is installed.
 *
 * @example
 * ```ts
 * import { findDuckdbBinding } from "./layout.ts";
 * findDuckdbBinding("/app"); // "/app/node_modules/.deno/@duckdb+node-bindings-linux-x64@1.5.5-r.5/node_modules/@duckdb/node-bindings-linux-x64/duckdb.node"
 * ```
 */
export function findDuckdbBinding(app: string, arch: string = process.arch): string | null {
  const store = join(app, "node_modules", ".deno");
  const prefix = `@duckdb+node-bindings-linux-${arch}@`;
  let names: string[];
  try {
    names = readdirSync(store);
  } catch {
    return null;
  }
  const found = names.filter((n) => n.startsWith(prefix)).sort();
  if (found.length === 0) return null;
  const name = `node-bindings-linux-${arch}`;
  return join(store, found[found.length - 1], "node_modules", "@duckdb", name, "duckdb.node");
}
