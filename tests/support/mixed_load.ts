/**
 * The mixed load of issue 31, for tests and benchmarks alike: first pages,
 * random pages, SQL, exports at once and contributions, each kind tallied by
 * the status its answers had and the bodies cut off mid-way.
 *
 * @module
 */

/** How one kind of load answered. */
export interface Tally {
  /** Answers 200 or 201, read to the end. */
  ok: number;
  /** Other answers by status. */
  statuses: Record<string, number>;
  /** Requests that failed, or whose body was cut off. */
  broken: number;
}

/** Runs `fn` in `n` loops until `until` (a `performance.now()` time); tallies how the calls answered. */
export async function loops(n: number, until: number, fn: (i: number) => Promise<Response>): Promise<Tally> {
  const tally: Tally = { ok: 0, statuses: {}, broken: 0 };
  await Promise.all(Array.from({ length: n }, async (_, k) => {
    for (let i = k; performance.now() < until; i += n) {
      try {
        const res = await fn(i);
        await res.arrayBuffer();
        if (res.status === 200 || res.status === 201) tally.ok++;
        else tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
      } catch {
        tally.broken++;
      }
    }
  }));
  return tally;
}

/** What the mixed load runs against. */
export interface MixedTarget {
  /** The node's base URL. */
  url: string;
  /** Headers every request carries (a token). */
  headers?: Record<string, string>;
  /** Two projects of many records (one part, many parts, or the same twice) and how many records each has. */
  projects: [string, string];
  records: number;
  /** SQL statements the SQL clients take turns with. */
  queries: readonly string[];
  /** A local project taking contributions of `{id, text}` records, or null for none. */
  contributeTo: string | null;
}

/**
 * The mixed load against `target` for `seconds`: first pages at 4
 * connections, random pages at 12, SQL at 4 clients, two exports at once and
 * a contribution a second.
 */
export async function mixedLoad(target: MixedTarget, seconds: number): Promise<Record<string, Tally>> {
  const until = performance.now() + seconds * 1000;
  const [one, many] = target.projects;
  const headers = target.headers ?? {};
  const get = (path: string) => fetch(`${target.url}${path}`, { headers });
  let next = 50_000_000;
  const counts = await Promise.all([
    loops(4, until, (i) => get(`/projects/${i % 2 ? one : many}/data?limit=100`)),
    loops(12, until, (i) => {
      const offset = Math.floor(((i * 7919) % 1000) / 1000 * (target.records - 100));
      return get(`/projects/${i % 2 ? many : one}/data?limit=100&offset=${offset}`);
    }),
    loops(4, until, (i) =>
      fetch(`${target.url}/projects/${i % 2 ? one : many}/query`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ sql: target.queries[i % target.queries.length] }),
      })),
    loops(2, until, (i) => get(`/projects/${i % 2 ? one : many}/export?version=1`)),
    target.contributeTo === null ? Promise.resolve({ ok: 0, statuses: {}, broken: 0 }) : loops(1, until, async () => {
      const records = Array.from({ length: 100 }, () => ({ id: next, text: `note ${next++}` }));
      const res = await fetch(`${target.url}/projects/${target.contributeTo}/contribute`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ records }),
      });
      await new Promise((r) => setTimeout(r, 1000));
      return res;
    }),
  ]);
  return { pages: counts[0], "random pages": counts[1], sql: counts[2], exports: counts[3], contributions: counts[4] };
}

/** Answers that are neither 200/201 nor the documented 429 and 503, and bodies cut off, over every kind. */
export function failures(load: Record<string, Tally>): number {
  return Object.values(load).reduce(
    (n, t) =>
      n + t.broken +
      Object.entries(t.statuses).filter(([s]) => s !== "429" && s !== "503").reduce((m, [, c]) => m + c, 0),
    0,
  );
}
