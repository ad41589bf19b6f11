/**
 * A node's readiness, apart from its liveness: whether a balancer should
 * send it traffic. A node that follows nothing is ready once it serves. A
 * following node is ready once every followed project has had a sync that
 * went well since the node started (with `--verify`, only a verified version
 * is taken), and stays ready while the version held keeps serving; with a
 * largest lag set (`--ready-max-lag`), a project whose last good sync is
 * older than that makes it not ready. A node that is stopping is not ready.
 *
 * @module
 */
import type { FollowStatus, Readiness } from "../wire/mod.ts";
import type { NodeState } from "./state.ts";

/** Why `slug` keeps the node from being ready, or null when it does not. */
function projectNotReady(status: FollowStatus, now: number, maxLagMs: number | null): string | null {
  if (status.syncedAt === null) {
    const last = status.error === null ? "" : `: last attempt failed: ${status.error}`;
    return `first sync not done${last}`;
  }
  if (maxLagMs === null) return null;
  const lag = now - Date.parse(status.syncedAt);
  if (lag <= maxLagMs) return null;
  const failing = status.error === null ? "" : ` (last attempt failed: ${status.error})`;
  return `last good sync ${Math.round(lag / 1000)} s ago, over the ${Math.round(maxLagMs / 1000)} s allowed${failing}`;
}

/**
 * Whether the node over `state` is ready; `full` (token holders) adds the
 * reason of every project that is not.
 *
 * @example
 * ```ts
 * import { readinessOf } from "./readiness.ts";
 * const state = { follow: null, readyMaxLagMs: null, lifecycle: { stopping: false }, now: Date.now };
 * readinessOf(state, true); // { ready: true }
 * ```
 */
export function readinessOf(
  state: Pick<NodeState, "follow" | "readyMaxLagMs" | "lifecycle" | "now">,
  full: boolean,
): Readiness {
  if (state.lifecycle.stopping) return { ready: false, reason: "the node is stopping" };
  const statuses = Object.entries(state.follow?.status() ?? {});
  const now = state.now();
  const waiting: Record<string, string> = {};
  for (const [slug, status] of statuses) {
    const why = projectNotReady(status, now, state.readyMaxLagMs);
    if (why !== null) waiting[slug] = why;
  }
  const slugs = Object.keys(waiting);
  if (slugs.length === 0) return { ready: true };
  if (!full) {
    return { ready: false, reason: `${slugs.length} of ${statuses.length} followed projects not ready` };
  }
  return {
    ready: false,
    reason: slugs.map((slug) => `${slug}: ${waiting[slug]}`).join("; "),
    projects: waiting,
  };
}
