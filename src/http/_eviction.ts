/**
 * Which connection gives up its slot when every slot is taken and another
 * arrives: slots go to connections that are moving. First one lingering
 * after its last answer, then one idle between requests, then one waiting on
 * its peer while its request arrives slower
 * than `minBodyRate` (its request began that long ago), then one whose peer has not taken its answer for
 * `evictAfterMs`; the one waiting longest among equals. A connection whose
 * request is being handled, or that is moving, keeps its slot.
 *
 * @module
 */
import type { Standing } from "./_link.ts";
import type { HttpLimits } from "./types.ts";

/** What eviction reads of a connection. */
export interface Evictable {
  /** Where it stands now. */
  standing(): Readonly<Standing>;
}

/** The rank of a connection's claim to be dropped (lower goes first), or null when it keeps its slot. */
function rank(s: Readonly<Standing>, limits: HttpLimits, now: number): number | null {
  switch (s.phase) {
    case "closing":
      return 0;
    case "idle":
      return 1;
    case "receiving": {
      const age = now - s.requestStarted;
      if (age < limits.evictAfterMs) return null;
      return (s.requestBytes * 1000) / age < limits.minBodyRate ? 2 : null;
    }
    case "sending":
      return now - s.waitingSince >= limits.evictAfterMs ? 3 : null;
    default:
      return null;
  }
}

/**
 * The connection of `open` to drop for a new one, or null when every one
 * is moving.
 */
export function evictionCandidate<T extends Evictable>(open: Iterable<T>, limits: HttpLimits, now: number): T | null {
  let best: T | null = null;
  let bestRank = Infinity;
  let bestSince = Infinity;
  for (const c of open) {
    const s = c.standing();
    const r = rank(s, limits, now);
    if (r === null) continue;
    if (r < bestRank || (r === bestRank && s.waitingSince < bestSince)) {
      best = c;
      bestRank = r;
      bestSince = s.waitingSince;
    }
  }
  return best;
}
