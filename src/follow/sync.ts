/**
 * One follow sync of one project: the newest version the source lists (its
 * project list, read once a round: no egress), and when the store does not
 * hold that version whole, a pull of it (the manifest asked with the parts
 * held named in `have`, so that only new parts come with URLs and count as
 * egress; parts first, at most four at a time, streamed and checked, fetched
 * by their presigned URLs without any key; `project.json` refreshed; the
 * manifest last), under the signature check of `version_trust.ts`. A version
 * held whole costs no request: its signature is checked offline. A source
 * whose newest version is below the one held is refused: following never
 * goes back.
 *
 * @module
 */
import { type Client, NotFoundError, SvcError } from "../client/mod.ts";
import { pull, type PullResult, type TrustOptions } from "../local/mod.ts";
import { type CopyTarget, copyTarget } from "../store/mod.ts";
import type { FollowStatus } from "../wire/mod.ts";

/** Where one project is followed from, and how. */
export interface SyncSource {
  /** The client of the origin or the upstream node. */
  client: Client;
  /** The store: its directory, `s3://bucket/prefix`, or a target made already. */
  store: string | CopyTarget;
  /** The signature check (origin, trust file, verify). */
  trust: TrustOptions;
}

/** The newest version of each project the source lists, by slug; or why the list could not be read. */
export type Listing = ReadonlyMap<string, number> | Error;

/** The status of a project nothing was learned about yet. */
export function initialStatus(from: string, version: number | null): FollowStatus {
  return { version, at: null, error: null, signature: null, from, syncedAt: null, behind: null, failures: 0 };
}

/**
 * The source's project list as a {@linkcode Listing}: the newest version of
 * every project it lists.
 */
export async function readListing(client: Client): Promise<Listing> {
  try {
    return new Map((await client.projects()).map((p) => [p.slug, p.latestVersion]));
  } catch (e) {
    return e as Error;
  }
}

/**
 * Takes `listed` (else, for a project the list leaves out, the newest the
 * project's detail names) unless it is below `held`. A listed version the
 * source does not serve whole (an upstream node still taking it) gives way
 * to the newest it does serve.
 */
async function take(source: SyncSource, slug: string, listed: number | undefined, held: number | undefined) {
  const target = copyTarget(source.store);
  const options = { store: target.location, target, workers: 4, trust: source.trust, atLeast: held };
  if (listed === undefined) return await pull(source.client, slug, options);
  if (held !== undefined && listed < held) {
    throw new SvcError(
      `${source.client.baseUrl} offers ${slug} v${listed}, below v${held} held; kept v${held}`,
      0,
      "rollback",
      null,
    );
  }
  try {
    return await pull(source.client, slug, { ...options, version: listed });
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
    return await pull(source.client, slug, options);
  }
}

/**
 * Syncs `slug` once against `listing` and returns its new status (the
 * previous one's version and signature are kept when the sync fails before
 * a version is judged).
 */
export async function syncProject(
  source: SyncSource,
  slug: string,
  previous: FollowStatus,
  listing: Listing,
): Promise<FollowStatus> {
  const target = copyTarget(source.store);
  const held = await target.store.latest(slug);
  const now = () => new Date().toISOString();
  const listed = listing instanceof Error ? undefined : listing.get(slug);
  let result: PullResult | null = null;
  try {
    if ((await target.meta(slug))?.local === true) {
      throw new SvcError(
        `${slug} is a local project on this node; a local project cannot be followed`,
        0,
        "local",
        null,
      );
    }
    if (listing instanceof Error) throw listing;
    result = await take(source, slug, listed, held?.version);
    const at = now();
    return {
      ...previous,
      version: result.version,
      at,
      error: null,
      signature: result.signature,
      syncedAt: at,
      behind: Math.max(0, (listed ?? result.version) - result.version),
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
      behind: listed === undefined ? previous.behind : Math.max(0, listed - (version ?? 0)),
      failures: previous.failures + 1,
    };
  }
}
