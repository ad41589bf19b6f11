/**
 * A fleet over a bucket, for tests: a real S3-compatible server
 * (versitygw), the test origin in its own process over the `cities` store,
 * a mirror (`svc serve --follow`) writing the bucket, and read-only nodes
 * over it, each with its own part cache folder.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { type ServeProcess, startServe } from "./cli_process.ts";
import { type OriginProcess, spawnOrigin } from "./origin_process.ts";
import { type S3Server, startS3Server } from "./s3_server.ts";
import { citiesStore, tempDir } from "./store_fixture.ts";
import { until } from "./waiting.ts";
import type { Json } from "./assert.ts";

/** The bucket and prefix the fleet's store is in. */
export const FLEET_STORE = "s3://fleet/svc";

/** A running fleet. */
export interface BucketFleet {
  /** A temporary folder for the test's files. */
  dir: string;
  /** The S3 server. */
  s3: S3Server;
  /** The origin, over `dir/origin`. */
  origin: OriginProcess;
  /** The origin's store folder. */
  originStore: string;
  /** Environment every node is started with: the bucket's `AWS_*` variables and a trust file. */
  env: Record<string, string>;
  /** Starts a mirror following `cities` into the bucket and waits until it holds `version`. */
  mirror(version: number, extra?: string[]): Promise<ServeProcess>;
  /** Starts a read-only node over the bucket with the cache folder `cache` (under `dir`). */
  reader(cache: string, extra?: string[]): Promise<ServeProcess>;
  /** Stops everything and removes the files. */
  stop(): Promise<void>;
}

/** Stops a node (SIGTERM) and waits for it. */
export async function stopNode(node: ServeProcess, signal: Deno.Signal = "SIGTERM"): Promise<void> {
  try {
    node.child.kill(signal);
  } catch { /* gone already */ }
  await node.status;
}

/** The part files in a node's cache folder, relative to it (`cities/parts/<sha256>.parquet`). */
export async function cachedParts(folder: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/^[0-9a-f]{64}\.parquet$/.test(entry.name)) out.push(relative(folder, path));
    }
  };
  await walk(folder);
  return out.sort();
}

/** The JSON of `path` on `node` (with `token` when given). */
export async function getJson(node: ServeProcess, path: string, token?: string): Promise<Json> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const response = await fetch(`${node.url}${path}`, { headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** One value of a `/metrics` answer (a family without labels). */
export async function metric(node: ServeProcess, name: string, token?: string): Promise<number> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const text = await (await fetch(`${node.url}/metrics`, { headers })).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in /metrics`);
  return Number(line.split(" ")[1]);
}

/**
 * Starts the fleet's S3 server (bucket `fleet` made) and origin; nodes are
 * started by the test.
 */
export async function startBucketFleet(): Promise<BucketFleet> {
  const tmp = await tempDir("svc-bucket-");
  const s3 = await startS3Server();
  const nodes: ServeProcess[] = [];
  let origin: OriginProcess | null = null;
  try {
    await s3.bucket("fleet");
    const originStore = join(tmp.path, "origin");
    await citiesStore(originStore);
    origin = await spawnOrigin(originStore, "77".repeat(32));
    const env = { ...s3.env, SVC_TRUST_FILE: join(tmp.path, "trust.json") };
    const running = origin;
    return {
      dir: tmp.path,
      s3,
      origin: running,
      originStore,
      env,
      async mirror(version, extra = []) {
        const node = await startServe([
          "--store",
          FLEET_STORE,
          "--cache-dir",
          join(tmp.path, "mirror-cache"),
          "--follow",
          "cities",
          "--interval",
          "1",
          "--base-url",
          running.url,
          "--api-key",
          "agent-key",
          ...extra,
        ], env);
        nodes.push(node);
        await until(`the mirror holds v${version}`, async () => {
          const health = await getJson(node, "/healthz");
          return health.follow?.cities?.version === version;
        }, 60_000);
        return node;
      },
      async reader(cache, extra = []) {
        const node = await startServe(
          ["--store", FLEET_STORE, "--read-only", "--cache-dir", join(tmp.path, cache), ...extra],
          env,
        );
        nodes.push(node);
        return node;
      },
      async stop() {
        for (const node of nodes) await stopNode(node);
        await running.stop();
        await s3.stop();
        await tmp.cleanup();
      },
    };
  } catch (e) {
    for (const node of nodes) await stopNode(node);
    await origin?.stop();
    await s3.stop();
    await tmp.cleanup();
    throw e;
  }
}
