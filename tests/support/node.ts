/**
 * A real node on a free loopback port over a fixture store, for tests that
 * speak HTTP over sockets.
 *
 * @module
 */
import { type NodeOptions, serveNode, type ServeNodeOptions, type ServingNode } from "../../server.ts";
import { citiesStore, tempDir, type WrittenVersion } from "./store_fixture.ts";

/** A node under test. */
export interface TestNode {
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  /** The bound port. */
  port: number;
  /** The store directory. */
  store: string;
  /** The serving node. */
  serving: ServingNode;
  /** What the fixture wrote. */
  fixture: { v1: WrittenVersion; v2: WrittenVersion };
  /** Log lines the node wrote. */
  log: string[];
}

/** Options for {@linkcode withNode}. */
export interface TestNodeOptions {
  /** Node token. */
  token?: string | null;
  /** Bind address. */
  host?: string;
  /** Extra host names. */
  allowedHosts?: string[];
  /** The clock. */
  now?: () => number;
  /** Refuse every write. */
  readOnly?: boolean;
  /** SQL pool settings. */
  sql?: NodeOptions["sql"];
  /** Versions kept per project. */
  keepVersions?: number;
  /** Bytes of exports kept. */
  exportCache?: number;
  /** HTTP limits and timeouts. */
  limits?: ServeNodeOptions["limits"];
  /** The memory budget and its shares. */
  memory?: NodeOptions["memory"];
  /** Where the node's warnings and errors go (default: standard error). */
  logLines?: (line: string) => void;
}

/** Runs `fn` against a fresh node over the `cities` fixture store, then stops it and removes the store. */
export async function withNode(options: TestNodeOptions, fn: (node: TestNode) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  const log: string[] = [];
  try {
    const fixture = await citiesStore(dir.path);
    const serving = await serveNode({
      store: dir.path,
      host: options.host ?? "127.0.0.1",
      port: 0,
      token: options.token ?? null,
      allowedHosts: options.allowedHosts,
      now: options.now,
      sql: options.sql,
      readOnly: options.readOnly,
      keepVersions: options.keepVersions,
      exportCache: options.exportCache,
      limits: options.limits,
      memory: options.memory,
      log: (line) => log.push(line),
      warnings: options.logLines,
    });
    const port = Number(new URL(serving.url).port);
    try {
      await fn({ url: serving.url, port, store: dir.path, serving, fixture, log });
    } finally {
      await serving.shutdown();
    }
  } finally {
    await dir.cleanup();
  }
}
