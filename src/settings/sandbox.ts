/**
 * The node's sandbox settings: whether `svc serve` narrows itself
 * (`--no-sandbox`, `SVC_SANDBOX=off`), and what the node must reach, from
 * its settings, for the permissions it is narrowed to.
 *
 * @module
 */
import type { NodeReach } from "../runtime/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { onOff } from "../launch/mod.ts";
import { objectStoreReach, type ObjectStoreSettings } from "./object_store.ts";

/** The settings a node's reach follows from (a `ServeSettings` has them). */
export interface ReachSettings {
  /** Store directory (or `s3://bucket/prefix`). */
  store: string;
  /** The store's bucket and the local part cache, when the store is in an object store. */
  objectStore?: ObjectStoreSettings | null;
  /** Address to bind. */
  host: string;
  /** Port to bind. */
  port: number;
  /** Whether the node writes nothing to the store. */
  readOnly: boolean;
  /** Projects to follow. */
  follow: string[];
  /** Whether signatures are required when following. */
  verify: boolean;
  /** Node to follow instead of the origin. */
  upstream: string | null;
  /** The origin. */
  baseUrl: string | null;
}

/**
 * Whether `SVC_SANDBOX` turns the sandbox off: `off`, `0`, `false` or `no`
 * do; unset, `on`, `1`, `true` and `yes` do not; anything else is refused.
 *
 * @example
 * ```ts
 * import { sandboxOff } from "./sandbox.ts";
 * sandboxOff("off"); // true
 * ```
 */
export function sandboxOff(raw: string | undefined): boolean {
  return switchedOff("SVC_SANDBOX", raw);
}

/**
 * Whether switch variable `name` with value `raw` says off (unset is on); a
 * value that says neither is a usage error.
 *
 * @example
 * ```ts
 * import { switchedOff } from "./sandbox.ts";
 * switchedOff("SVC_METRICS", "no"); // true
 * ```
 */
export function switchedOff(name: string, raw: string | undefined): boolean {
  const on = onOff(raw, true);
  if (on === null) throw new UsageError(`${name} must be on or off, not ${JSON.stringify(raw)}`);
  return !on;
}

/**
 * What a node with `settings` must reach: its store, the trust file (its
 * folder too when following with signatures required, where key rotations
 * are written), its address, and the upstream and origin only when
 * following. The container and `svc serve` both narrow the node from this.
 *
 * @example
 * ```ts
 * import { nodeReach, parseServeArgs } from "./mod.ts";
 * nodeReach(parseServeArgs(["--store", "/data/s"], {}), "/data/trust.json").calls; // []
 * ```
 */
export function nodeReach(settings: ReachSettings, trustFile: string): NodeReach {
  const following = settings.follow.length > 0;
  const follows = following ? [settings.upstream ?? settings.baseUrl!, settings.baseUrl!] : [];
  // Over a bucket the local folder is the part cache, which even a read-only node writes.
  const bucket = settings.objectStore ? objectStoreReach(settings.objectStore) : null;
  return {
    store: bucket?.cacheDir ?? settings.store,
    trustFile,
    trustWrite: following && settings.verify,
    bind: { host: settings.host, port: settings.port },
    calls: [...follows, ...(bucket?.calls ?? [])],
    readOnly: bucket ? false : settings.readOnly,
    ...(bucket ? { env: bucket.env } : {}),
  };
}
