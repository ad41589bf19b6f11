/**
 * Which conditional writes an object store keeps: `If-None-Match: *` (a
 * write that only creates) and `If-Match: <etag>` (a write that only
 * replaces what was read). A server that ignores them writes anyway, so it
 * is asked with a probe object rather than trusted.
 *
 * @module
 */
import type { S3Client } from "./client.ts";
import { ObjectStoreError } from "./errors.ts";

/** What the probe found. */
export interface ConditionalWrites {
  /** A second `If-None-Match: *` write to one key is refused. */
  ifNoneMatch: boolean;
  /** An `If-Match` write naming another entity tag is refused. */
  ifMatch: boolean;
}

async function refused(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return false;
  } catch (e) {
    if (e instanceof ObjectStoreError && e.kind === "conflict") return true;
    // A server that does not know the header may say so (501 NotImplemented, 400): it does not keep it.
    if (e instanceof ObjectStoreError && !e.transient) return false;
    throw e;
  }
}

/**
 * Probes `client`'s store with the object `key` (written, overwritten, then
 * deleted).
 *
 * @example
 * ```ts ignore
 * const { ifNoneMatch } = await conditionalWrites(client, `.svc-probe-${crypto.randomUUID()}`);
 * ```
 */
export async function conditionalWrites(client: S3Client, key: string): Promise<ConditionalWrites> {
  try {
    await client.put(key, "first", { ifNoneMatch: "*" });
    const ifNoneMatch = await refused(client.put(key, "second", { ifNoneMatch: "*" }));
    const ifMatch = await refused(client.put(key, "third", { ifMatch: '"00000000000000000000000000000000"' }));
    return { ifNoneMatch, ifMatch };
  } finally {
    await client.delete(key);
  }
}
