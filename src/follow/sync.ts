/**
 * One follow sync of one project: ask the source for its newest version and,
 * when it is newer than the one held, take it as a pull does (parts first,
 * at most four at a time, streamed and checked, fetched by their presigned
 * URLs without any key; `project.json` refreshed; the manifest last), under
 * the signature check of `version_trust.ts`. A source whose newest version
 * is below the one held is refused: following never goes back.
 *
 * @module
 */
import { type Client, SvcError } from "../client/mod.ts";
import { pull, type TrustOptions } from "../local/mod.ts";
import { openStore, readProjectMeta } from "../store/mod.ts";
import type { FollowStatus } from "../wire/mod.ts";

/** Where one project is followed from, and how. */
export interface SyncSource {
  /** The client of the origin or the upstream node. */
  client: Client;
  /** The store directory. */
  store: string;
  /** The signature check (origin, trust file, verify). */
  trust: TrustOptions;
}

/** The status of a project nothing was learned about yet. */
export function initialStatus(from: string, version: number | null): FollowStatus {
  return { version, at: null, error: null, signature: null, from, syncedAt: null, behind: null, failures: 0 };
}

/**
 * Syncs `slug` once and returns its new status (the previous one's version
 * and signature are kept when the sync fails before a version is judged).
 */
export async function syncProject(source: SyncSource, slug: string, previous: FollowStatus): Promise<FollowStatus> {
  const store = openStore(source.store);
  const held = await store.latest(slug);
  const now = () => new Date().toISOString();
  let offeredVersion: number | null = null;
  try {
    if ((await readProjectMeta(source.store, slug))?.local === true) {
      throw new SvcError(
        `${slug} is a local project on this node; a local project cannot be followed`,
        0,
        "local",
        null,
      );
    }
    const offered = await source.client.manifest(slug);
    offeredVersion = offered.version;
    if (held && offered.version < held.version) {
      throw new SvcError(
        `${source.client.baseUrl} offers ${slug} v${offered.version}, below v${held.version} held; kept v${held.version}`,
        0,
        "rollback",
        null,
      );
    }
    const result = await pull(source.client, slug, {
      store: source.store,
      version: offered.version,
      manifest: offered,
      workers: 4,
      trust: source.trust,
    });
    const at = now();
    return {
      ...previous,
      version: result.version,
      at,
      error: null,
      signature: result.signature,
      syncedAt: at,
      behind: Math.max(0, offered.version - result.version),
    };
  } catch (e) {
    const signature = (e instanceof SvcError ? (e.body as { signature?: unknown } | null)?.signature : undefined) as
      | FollowStatus["signature"]
      | undefined;
    const version = held?.version ?? previous.version;
    return {
      ...previous,
      version,
      at: now(),
      error: (e as Error).message,
      signature: signature ?? previous.signature,
      behind: offeredVersion === null ? previous.behind : Math.max(0, offeredVersion - (version ?? 0)),
      failures: previous.failures + 1,
    };
  }
}
