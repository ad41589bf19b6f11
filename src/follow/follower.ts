/**
 * The follow loop of `svc serve --follow`: a sync of every followed project
 * at start and then every interval, one project at a time after one read of
 * the source's project list, so that an error on one is logged and recorded
 * in its status while the others go on and the version held keeps serving.
 *
 * @module
 */
import type { FollowStatus } from "../wire/mod.ts";
import { initialStatus, readListing, syncProject, type SyncSource } from "./sync.ts";
import { copyTarget } from "../store/mod.ts";
import { refreshPinnedKeys } from "./keys.ts";

/** What to follow. */
export interface FollowerOptions extends SyncSource {
  /** Project slugs. */
  slugs: readonly string[];
  /** Milliseconds between the end of one round and the start of the next. */
  intervalMs: number;
  /** Where sync outcomes are logged (null: nowhere). */
  log: ((line: string) => void) | null;
  /** Keep only the newest N versions of each followed project (pruned after each new one). */
  keepVersions?: number | null;
}

/** A running follow loop. */
export interface Follower {
  /** The projects followed. */
  slugs: readonly string[];
  /** The status of every followed project, as `/healthz` shows it. */
  status(): Record<string, FollowStatus>;
  /** Runs a round now (after the one under way, if any) and resolves when it ends. */
  syncNow(): Promise<void>;
  /** Stops after the round under way. */
  stop(): Promise<void>;
}

/**
 * Starts following `options.slugs`; the first round starts at once.
 */
export async function startFollower(options: FollowerOptions): Promise<Follower> {
  const from = options.client.baseUrl;
  const target = copyTarget(options.store);
  const store = target.store;
  const statuses = new Map<string, FollowStatus>();
  for (const slug of options.slugs) {
    statuses.set(slug, initialStatus(from, (await store.latest(slug))?.version ?? null));
  }
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();

  const round = async () => {
    if (options.trust.required) {
      const changed = await refreshPinnedKeys(options.trust).catch((e) =>
        `keys not refreshed: ${(e as Error).message}`
      );
      if (changed) options.log?.(`follow: ${changed}`);
    }
    // One read of the project list a round, for every project: it costs no egress, and a project whose listed
    // version is held whole costs nothing more.
    const listing = await readListing(options.client);
    for (const slug of options.slugs) {
      if (stopped) return;
      const before = statuses.get(slug)!;
      const after = await syncProject(options, slug, before, listing);
      statuses.set(slug, after);
      if (after.error) options.log?.(`follow ${slug}: ${after.error} (serving v${after.version ?? "-"})`);
      else if (after.version !== before.version) {
        options.log?.(`follow ${slug}: took v${after.version} from ${from} (${after.signature ?? "not checked"})`);
        const keep = options.keepVersions ?? null;
        if (keep !== null) {
          await target.prune(slug, keep, (line) => options.log?.(line))
            .catch((e) => options.log?.(`follow ${slug}: pruning failed: ${(e as Error).message}`));
        }
      }
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = running.then(round).then(schedule);
    }, options.intervalMs);
  };
  running = round().then(schedule);

  return {
    slugs: options.slugs,
    status: () => Object.fromEntries(statuses),
    syncNow() {
      running = running.then(round);
      return running;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
