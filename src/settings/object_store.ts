/**
 * `svc serve` over a store in an S3-compatible bucket (`--store
 * s3://bucket/prefix`): the endpoint and region (`--s3-endpoint`,
 * `--s3-region`, else `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`,
 * `AWS_REGION` or `AWS_DEFAULT_REGION`), the credentials (`AWS_*` only,
 * never a flag), the local folder of the part cache (`--cache-dir`) and its
 * bound (`--part-cache`), and what such a node refuses at start.
 *
 * @module
 */
import { parseS3Url, type S3Config, s3ConfigFrom, s3Host } from "../objectstore/mod.ts";
import { isObjectLocation, singleWriterSaid } from "../store/mod.ts";
import { parseBytes } from "../sql/mod.ts";
import { CliError, UsageError } from "../errors/mod.ts";

/** The default folder of the part cache of a node over an object store. */
export const DEFAULT_CACHE_DIR = "svc-cache";
/** The default bound of the part cache: 2 GiB. */
export const DEFAULT_PART_CACHE = 2 * 1024 ** 3;
/** The smallest part cache taken (a part larger than the cache cannot be read at all). */
const MIN_PART_CACHE = 16 * 1024 ** 2;

/** A node's store in an object store. */
export interface ObjectStoreSettings {
  /** `s3://bucket/prefix`, as given. */
  location: string;
  /** How to reach it, or why it cannot be (no credentials: said at start, not while parsing). */
  s3: S3Config | { problem: string };
  /** The local folder where the parts being read are kept. */
  cacheDir: string;
  /** The most bytes of parts kept there. */
  partCacheBytes: number;
  /** `SVC_S3_SINGLE_WRITER`: this node is the only writer of the prefix (for servers without conditional writes). */
  singleWriter: boolean;
}

/** The flags of an object store as `parseArgs` gives them. */
export interface ObjectStoreFlags {
  store?: string;
  "s3-endpoint"?: string;
  "s3-region"?: string;
  "part-cache"?: string;
  "cache-dir"?: string;
}

/** The variables that reach a bucket, which a node over one reads (`--allow-env`). */
export const S3_ENV_NAMES: readonly string[] = [
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
  "AWS_ENDPOINT_URL",
  "AWS_ENDPOINT_URL_S3",
];

function partCacheBytes(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PART_CACHE;
  const bytes = parseBytes(raw);
  if (bytes === null || bytes < MIN_PART_CACHE) {
    throw new UsageError(`--part-cache must be a size of at least 16MiB, such as 2GiB, not ${JSON.stringify(raw)}`);
  }
  return bytes;
}

/**
 * The object store `values` name, or null when the store is a directory
 * (then its flags are refused: they would do nothing).
 *
 * @example
 * ```ts
 * import { objectStoreSettings } from "./object_store.ts";
 * objectStoreSettings({ store: "svc-data" }, {}); // null
 * objectStoreSettings({ store: "s3://datasets/svc" }, {})?.partCacheBytes; // 2147483648
 * ```
 */
export function objectStoreSettings(
  values: ObjectStoreFlags,
  env: Record<string, string | undefined>,
): ObjectStoreSettings | null {
  const store = values.store;
  if (store === undefined || !isObjectLocation(store)) {
    for (const flag of ["s3-endpoint", "s3-region", "part-cache", "cache-dir"] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} needs --store s3://bucket/prefix`);
    }
    return null;
  }
  const endpoint = values["s3-endpoint"];
  const region = values["s3-region"];
  let s3: ObjectStoreSettings["s3"];
  try {
    parseS3Url(store);
    s3 = s3ConfigFrom(store, env, { endpoint, region });
  } catch (e) {
    const message = (e as Error).message;
    if (/no credentials/.test(message)) s3 = { problem: message };
    else throw new UsageError(`--store: ${message}`);
  }
  return {
    location: store,
    s3,
    cacheDir: values["cache-dir"] ?? (env.SVC_NODE_CACHE_DIR || DEFAULT_CACHE_DIR),
    partCacheBytes: partCacheBytes(values["part-cache"] ?? (env.SVC_NODE_PART_CACHE || undefined)),
    singleWriter: singleWriterSaid(env),
  };
}

/**
 * What a node over an object store must reach beyond a directory node: its
 * cache folder (written even by a read-only node), the bucket's host, and
 * the `AWS_*` variables.
 *
 * @example
 * ```ts
 * import { objectStoreSettings, objectStoreReach } from "./object_store.ts";
 * const env = { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s", AWS_ENDPOINT_URL: "http://10.0.0.5:7070" };
 * objectStoreReach(objectStoreSettings({ store: "s3://datasets/svc" }, env)!).calls; // ["http://10.0.0.5:7070"]
 * ```
 */
export function objectStoreReach(settings: ObjectStoreSettings): { cacheDir: string; calls: string[]; env: string[] } {
  const calls = "problem" in settings.s3 ? [] : [`${new URL(settings.s3.endpoint).protocol}//${s3Host(settings.s3)}`];
  return { cacheDir: settings.cacheDir, calls, env: [...S3_ENV_NAMES] };
}

/**
 * Refuses what a node over an object store cannot do, naming why: no
 * credentials; local writes (a node there takes none: `--read-only`, or
 * `--follow` as a mirror, which takes no other write); `--keep-versions`.
 *
 * @example
 * ```ts
 * import { checkObjectStore, objectStoreSettings } from "./object_store.ts";
 * const env = { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" };
 * const settings = objectStoreSettings({ store: "s3://datasets/svc" }, env)!;
 * checkObjectStore(settings, { readOnly: true, follow: [], keepVersions: null });
 * ```
 */
export function checkObjectStore(
  settings: ObjectStoreSettings,
  node: { readOnly: boolean; follow: readonly string[]; keepVersions: number | null },
): void {
  if ("problem" in settings.s3) throw new CliError(settings.s3.problem);
  if (!node.readOnly && node.follow.length === 0) {
    throw new CliError(
      `refusing to serve ${settings.location} for writes: local projects need their part stack and provenance ` +
        "log appended under a lock, which an object store offers only per object. Serve it --read-only (a " +
        "reader), or --follow projects into it (a mirror, which takes no other write); write to a node over a " +
        "directory",
    );
  }
  if (node.keepVersions !== null) {
    throw new CliError(
      "--keep-versions is not done in an object store yet: a bucket keeps every version a mirror writes (an " +
        "expiry rule of the bucket must not touch its parts or manifests)",
    );
  }
}
