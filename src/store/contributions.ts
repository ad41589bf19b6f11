/**
 * Contribution answers (`<slug>/contributions/<id>.json`) and the
 * Idempotency-Key index (`<slug>/index/idempotency.json`, entries kept 24
 * hours), both written atomically.
 *
 * @module
 */
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";
import { readTextNoFollow, refusedLink } from "./no_follow.ts";
import { projectDir } from "./layout.ts";
import { isNotFound } from "./project_file.ts";
import type { ContributionView } from "../wire/mod.ts";

export type { ContributionView } from "../wire/mod.ts";

/** How long an Idempotency-Key replays its first answer. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One Idempotency-Key's first answer. */
export interface IdempotencyEntry {
  /** SHA-256 of the request body in stable JSON. */
  bodyHash: string;
  /** The contribution it answered with. */
  contribution: string;
  /** When, ISO 8601. */
  at: string;
}

/**
 * Whether `id` is a contribution id (UUID v4, lowercase).
 *
 * @example
 * ```ts
 * import { isContributionId } from "./contributions.ts";
 * isContributionId(crypto.randomUUID()); // true
 * ```
 */
export function isContributionId(id: string): boolean {
  return UUID.test(id);
}

function contributionFile(root: string, slug: string, id: string): string {
  if (!isContributionId(id)) throw new RangeError(`invalid contribution id ${JSON.stringify(id)}`);
  return join(projectDir(root, slug), "contributions", `${id}.json`);
}

function indexFile(root: string, slug: string): string {
  return join(projectDir(root, slug), "index", "idempotency.json");
}

/**
 * The kept answer of contribution `id`, or null.
 */
export async function readContribution(root: string, slug: string, id: string): Promise<ContributionView | null> {
  if (!isContributionId(id)) return null;
  try {
    return JSON.parse(await readTextNoFollow(root, contributionFile(root, slug, id)));
  } catch (e) {
    if (isNotFound(e)) return null;
    throw e;
  }
}

/**
 * Keeps a contribution's answer.
 */
export async function writeContribution(root: string, slug: string, view: ContributionView): Promise<void> {
  const file = contributionFile(root, slug, view.id);
  if (refusedLink(root, file)) throw new Error(`store: ${slug}'s contributions are reached through a symbolic link`);
  // The temporary goes in index/, where the sweep after a crash looks (contributions/ may hold many thousands).
  // A merged answer is also in its version's manifest, so it is not fsynced; a rejected one is.
  await writeFileAtomic(file, JSON.stringify(view, null, 2) + "\n", "made", {
    tempDir: join(projectDir(root, slug), "index"),
    durable: view.status !== "merged",
  });
}

/**
 * The Idempotency-Key index of `slug` (empty when absent or unreadable).
 *
 * @example
 * ```ts
 * import { readIdempotency } from "./contributions.ts";
 * const index = await readIdempotency("svc-data", "notes");
 * ```
 */
export async function readIdempotency(root: string, slug: string): Promise<Record<string, IdempotencyEntry>> {
  try {
    const parsed = JSON.parse(await readTextNoFollow(root, indexFile(root, slug)));
    // No prototype: a client's key (`__proto__`, `constructor`) is an entry like any other.
    return parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? Object.assign(Object.create(null), parsed)
      : Object.create(null);
  } catch {
    return Object.create(null);
  }
}

/**
 * Writes the index with `entry` under `key`, leaving out entries older than
 * 24 hours at `now`.
 */
export async function rememberIdempotency(
  root: string,
  slug: string,
  key: string,
  entry: IdempotencyEntry,
  now: number,
): Promise<void> {
  const index = await readIdempotency(root, slug);
  index[key] = entry;
  const kept = Object.fromEntries(
    Object.entries(index).filter(([, e]) => now - Date.parse(e.at) < IDEMPOTENCY_WINDOW_MS),
  );
  if (refusedLink(root, indexFile(root, slug))) {
    throw new Error(`store: ${slug}'s index is reached through a symbolic link`);
  }
  await writeFileAtomic(indexFile(root, slug), JSON.stringify(kept) + "\n");
}
