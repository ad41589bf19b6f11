/**
 * The protocol's own Python connector (`delta-sharing` with pandas, as
 * `scripts/readers/prepare.sh` installs it) reading three readers through
 * the fleet's HAProxy (tests/fleet/_sharing.ts): a recipient made with
 * `svc share add`, its profile's endpoint the balancer; `load_as_pandas`
 * (newest, `version=`, `timestamp=`, `limit=`) and
 * `load_table_changes_as_pandas`, each compared record for record with a
 * reader's own data pages. Each read runs on its own, and HAProxy's log of
 * it shows the reader that answered its query (and so signed its file URLs)
 * and the readers that answered the fetches of those URLs: another reader
 * among them every time. And one URL a reader signed is fetched from each of
 * the others directly, byte for byte, while the same URL with its signature
 * altered is refused there. Fails, saying why, when the pandas readers are
 * not installed (`deno task test` installs them first).
 */
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { readers, runReader } from "../support/readers.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { contributeNotes, type Contributions, manifestOf, pageRecords } from "../sharing/_tables.ts";
import { bearer, requireTools, startNode, stopNode } from "./_fleet.ts";
import type { LoggedRequest } from "./_haproxy.ts";
import { fetchesFile, FLEET_TOKEN, issuesUrls, loggedSince, type SharingFleet, startSharingFleet } from "./_sharing.ts";

interface Rows {
  columns: string[];
  rows: Json[][];
}

/** One read of the connector: a snapshot (`load_as_pandas`) or changes (`load_table_changes_as_pandas`). */
interface Read {
  name: string;
  table: "cities" | "notes";
  snapshot?: Record<string, Json>;
  changes?: Record<string, Json>;
}

/** What HAProxy logged of one read: the reader that signed its file URLs, and who answered their fetches. */
interface Seen {
  issuer: string;
  fetches: LoggedRequest[];
}

const city = (r: Json) => [Number(r.id), r.name, Number(r.population), Number(r.score), r.note ?? null];
const note = (r: Json) => [Number(r.id), r.text, Number(r.score)];
const byId = (a: Json[], b: Json[]) => a[0] - b[0];

function records(found: Rows): Json[] {
  return found.rows.map((row) => Object.fromEntries(found.columns.map((c, i) => [c, row[i]])));
}

/** Fills `store` with `cities` and `notes`, five versions contributed through a node's API; returns `notes`' versions. */
async function fillStore(store: string): Promise<Contributions> {
  await citiesStore(store);
  const writer = await startNode("writer", 0, ["--store", store, "--token", FLEET_TOKEN]);
  try {
    return await contributeNotes(writer.url, FLEET_TOKEN, 5);
  } finally {
    await stopNode(writer);
  }
}

/** Runs `read` alone through the balancer; its frame, and what HAProxy logged of it from `from` on. */
async function readThrough(fleet: SharingFleet, read: Read, from: number) {
  const { name, table, ...how } = read;
  let run;
  try {
    run = await runReader<Record<string, Rows>>("pandas_reads.py", {
      profile: fleet.profile,
      table: `svc.default.${table}`,
      reads: [{ name, ...how }],
    });
  } catch (e) {
    // What HAProxy saw of the failed read: which request, which reader, which status.
    const seen = (await loggedSince(fleet, from)).requests.map((r) =>
      `  ${r.method} ${r.path} ${r.status} ${r.reader}`
    );
    throw new Error(`${(e as Error).message}\n${name} through HAProxy:\n${seen.join("\n")}`);
  }
  const logged = await loggedSince(fleet, from);
  return { found: run.answer[name], seen: seenOf(name, logged.requests), next: logged.next };
}

/** One request gave the read its file URLs, and they were fetched after it, one of them from another reader. */
function seenOf(name: string, requests: LoggedRequest[]): Seen {
  const log = `\n${name} through HAProxy:\n${
    requests.map((r) => `  ${r.method} ${r.path} ${r.status} ${r.reader}`).join("\n")
  }`;
  assertEquals(requests.filter((r) => r.status !== 200 && r.status !== 206), [], `every request was answered${log}`);
  const issuing = requests.filter(issuesUrls);
  assertEquals(issuing.length, 1, `one query or changes request gave the file URLs${log}`);
  const fetches = requests.filter(fetchesFile);
  assert(fetches.length > 0, `the file URLs were fetched through the balancer${log}`);
  assert(requests.indexOf(issuing[0]) < requests.indexOf(fetches[0]), `the files were fetched after the query${log}`);
  const issuer = issuing[0].reader;
  assert(
    fetches.some((f) => f.reader !== issuer),
    `a file URL ${issuer} signed was fetched from another reader${log}`,
  );
  return { issuer, fetches };
}

/** A URL one reader signed, fetched from each of the others directly; altered, refused there. */
async function oneUrlAtEveryReader(fleet: SharingFleet): Promise<string> {
  const query = await fetch(`${fleet.url}/delta-sharing/shares/svc/schemas/default/tables/cities/query`, {
    method: "POST",
    headers: { ...bearer(fleet.recipient), "content-type": "application/json" },
    body: "{}",
  });
  assertEquals(query.status, 200);
  const issuer = query.headers.get("x-fleet-reader")!;
  const files = (await query.text()).trim().split("\n").map((l) => JSON.parse(l)).filter((l) => l.file);
  const url = new URL(files[0].file.url);
  assertEquals(url.origin, fleet.url, "the URL is at the balancer's address, as the client reached it");
  const sha256 = /\/([0-9a-f]{64})\.parquet$/.exec(url.pathname)![1];
  const others = fleet.readers.filter((r) => r.name !== issuer);
  assertEquals(others.length, 2, `the query was answered by a reader (${issuer})`);
  for (const other of others) {
    const res = await fetch(`${other.url}${url.pathname}${url.search}`);
    assertEquals(res.status, 200, `${issuer}'s URL at ${other.name}`);
    const body = new Uint8Array(await res.arrayBuffer());
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    assertEquals(
      [...digest].map((b) => b.toString(16).padStart(2, "0")).join(""),
      sha256,
      `the part from ${other.name}`,
    );
    const sig = url.searchParams.get("sig")!;
    const altered = new URL(url);
    altered.searchParams.set("sig", `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`);
    const refused = await fetch(`${other.url}${altered.pathname}${altered.search}`);
    await refused.body?.cancel();
    assertEquals(refused.status, 403, `${issuer}'s URL with its signature altered at ${other.name}`);
  }
  return `a URL ${issuer} signed was fetched from ${others.map((r) => r.name).join(" and ")} directly`;
}

Deno.test({
  name: "fleet: pandas reads three readers through HAProxy record for record; file URLs one reader signed are " +
    "fetched from the others",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await requireTools("haproxy:haproxy");
  // Before anything starts: prepare.sh's reason, when the connector is not there.
  await readers("pandas");
  const dir = await tempDir("svc-fleet-sharing-");
  let fleet: SharingFleet | null = null;
  try {
    let added: Contributions = [];
    fleet = await startSharingFleet(dir.path, async (store) => {
      added = await fillStore(store);
    });
    const node = fleet.readers[0].url;
    const pages = async (slug: string, version: number | null) => await pageRecords(node, FLEET_TOKEN, slug, version);
    const v3 = await manifestOf(node, FLEET_TOKEN, "notes", 3);
    const v4 = await manifestOf(node, FLEET_TOKEN, "notes", 4);
    const between = new Date((Date.parse(v3.createdAt) + Date.parse(v4.createdAt)) / 2).toISOString();
    const reads: [Read, (found: Rows) => Promise<void>][] = [
      [{ name: "cities newest", table: "cities", snapshot: {} }, async (found) => {
        assertEquals(found.columns, ["id", "name", "population", "score", "note"]);
        assertEquals(records(found).map(city), (await pages("cities", null)).map(city));
      }],
      [{ name: "cities version=1", table: "cities", snapshot: { version: 1 } }, async (found) => {
        assertEquals(records(found).map(city), (await pages("cities", 1)).map(city));
      }],
      [{ name: "notes timestamp= between v3 and v4", table: "notes", snapshot: { timestamp: between } }, async (f) => {
        assertEquals(records(f).map(note), (await pages("notes", 3)).map(note));
      }],
      [{ name: "notes limit=7", table: "notes", snapshot: { limit: 7 } }, async (found) => {
        assertEquals(records(found).map(note), (await pages("notes", null)).slice(0, 7).map(note));
      }],
      [{ name: "notes changes from 1", table: "notes", changes: { starting_version: 1 } }, async (found) => {
        const all = records(found);
        for (let v = 1; v <= added.length; v++) {
          const mine = all.filter((r) => r._commit_version === v);
          assertEquals(mine.map(note).sort(byId), added[v - 1].map(note), `version ${v}'s changes`);
          const createdAt = Date.parse((await manifestOf(node, FLEET_TOKEN, "notes", v)).createdAt);
          assert(mine.every((r) => r._change_type === "insert" && r._commit_timestamp === createdAt), `version ${v}`);
        }
        assertEquals(all.map(note).sort(byId), (await pages("notes", null)).map(note).sort(byId));
      }],
    ];
    let from = 0;
    const lines: string[] = [];
    for (const [read, check] of reads) {
      const { found, seen, next } = await readThrough(fleet, read, from);
      from = next;
      await check(found);
      const elsewhere = seen.fetches.filter((f) => f.reader !== seen.issuer);
      lines.push(
        `${read.name}: ${found.rows.length} records; URLs signed by ${seen.issuer}, fetched ${seen.fetches.length} ` +
          `times, ${elsewhere.length} from ${[...new Set(elsewhere.map((f) => f.reader))].sort().join(" and ")}`,
      );
    }
    lines.push(await oneUrlAtEveryReader(fleet));
    for (const line of lines) console.log(`fleet: pandas through HAProxy: ${line}`);
  } finally {
    await fleet?.stop();
    await dir.cleanup();
  }
});
