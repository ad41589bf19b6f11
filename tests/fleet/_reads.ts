/**
 * The reads of the balancer test (tests/fleet/haproxy_test.ts): data pages
 * at many offsets and sizes, SQL and whole exports of the project `cities`
 * at v3, drawn by a seeded generator so every run makes the same mix, and
 * answers reduced to what must be equal on every node.
 *
 * @module
 */
import type { Json } from "../support/assert.ts";

const SLUG = "cities";

/** One read a client makes, and the key its expected answer is kept under. */
export interface Read {
  kind: "page" | "sql" | "export";
  key: string;
  path: string;
  init?: RequestInit;
}

/** An answer reduced to what must be equal on every node. */
export interface Answer {
  status: number;
  body: string;
}

const OFFSETS = [0, 1, 199, 200, 2_047, 4_096, 9_999, 10_000, 15_001, 19_990, 19_999, 25_000];
const LIMITS = [1, 7, 50, 200, 1000];
const STATEMENTS = [
  "SELECT count(*) AS n, sum(population) AS people FROM records",
  "SELECT id, name, score FROM records WHERE id % 997 = 0 ORDER BY id",
  "SELECT note IS NULL AS missing, count(*) AS n FROM records GROUP BY 1 ORDER BY 1",
  "SELECT name FROM records ORDER BY population DESC LIMIT 25",
  "SELECT avg(score) AS mean, max(id) AS top FROM records WHERE name LIKE 'city-1%'",
];

/** A small deterministic generator (mulberry32), so every run makes the same mix of reads. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function pageRead(offset: number, limit: number, pinned: boolean): Read {
  const path = `/projects/${SLUG}/data?offset=${offset}&limit=${limit}${pinned ? "&version=3" : ""}`;
  return { kind: "page", key: path, path };
}

function sqlRead(sql: string): Read {
  const body = JSON.stringify({ sql, version: 3, limit: 100 });
  return {
    kind: "sql",
    key: `query ${sql}`,
    path: `/projects/${SLUG}/query`,
    init: { method: "POST", headers: { "content-type": "application/json" }, body },
  };
}

const EXPORT: Read = { kind: "export", key: "export v3", path: `/projects/${SLUG}/export?version=3` };

/** Every distinct read the clients make (their expected answers are asked of the mirror before the load). */
export function everyRead(): Read[] {
  const pages = OFFSETS.flatMap((o) => LIMITS.flatMap((l) => [pageRead(o, l, false), pageRead(o, l, true)]));
  return [...pages, ...STATEMENTS.map(sqlRead), EXPORT];
}

/** The next read of a client: mostly pages, some SQL, a few whole exports. */
export function nextRead(random: () => number): Read {
  const roll = random();
  if (roll < 0.7) return pageRead(pick(random, OFFSETS), pick(random, LIMITS), random() < 0.5);
  if (roll < 0.9) return sqlRead(pick(random, STATEMENTS));
  return EXPORT;
}

/**
 * What of an answer must match across nodes: the status and the body, with
 * a query's `ms` (the engine's time on that node) left out. Exports are
 * compared byte for byte (as base64); pages and other answers as text.
 */
export async function answerOf(kind: Read["kind"], res: Response): Promise<Answer> {
  if (kind === "export") {
    const bytes = new Uint8Array(await res.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { status: res.status, body: btoa(binary) };
  }
  const text = await res.text();
  if (kind === "sql" && res.status === 200) {
    const { ms: _ms, ...rest } = JSON.parse(text) as Json;
    return { status: res.status, body: JSON.stringify(rest) };
  }
  return { status: res.status, body: text };
}
