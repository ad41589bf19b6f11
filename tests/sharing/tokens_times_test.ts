/**
 * Page tokens and timestamps against a real node over sockets: a token made
 * up as the old digest allowed (a hash of public text and any offset), an
 * altered one or one of another node is 400; `maxResults=0` gives no items
 * and no token; a timestamp past the newest version gets one answer (400)
 * from `/version`, the table's HEAD, `/metadata`, `/query` and `/changes`,
 * as delta-io/delta-sharing's server gives it, and the newest version's own
 * time reads that version everywhere.
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { DeltaSharingClient } from "../support/delta_sharing_client.ts";
import { citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";
import { serveNode } from "../../server.ts";

const TOKEN = "node-token-for-paging-tests";

/** A store of one project per name, each with one version. */
async function storeOf(root: string, slugs: string[]): Promise<void> {
  const w = new StoreWriter(root);
  try {
    for (const slug of slugs) await w.version(slug, 1, { parts: [{ sql: citySql(0, 3) }] });
  } finally {
    w.close();
  }
}

async function status(res: Response): Promise<[number, string]> {
  const body = res.status === 200 ? null : await res.json();
  if (body === null) await res.body?.cancel();
  return [res.status, body?.errorCode ?? ""];
}

Deno.test("page tokens: made up, altered or another node's is 400; maxResults=0 ends at once", async () => {
  const dir = await tempDir();
  await storeOf(dir.path, ["alpha", "beta", "gamma", "delta"]);
  const start = (token: string) => serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token, log: null });
  let serving = await start(TOKEN);
  try {
    const client = () =>
      new DeltaSharingClient({
        shareCredentialsVersion: 1,
        endpoint: `${serving.url}/delta-sharing`,
        bearerToken: TOKEN,
      });
    const first = await client().page("/shares/svc/all-tables", 1);
    assertEquals(first.items.length, 1);
    assert(first.next !== null);
    // forged as the issue shows: {"q": sha256("all-tables svc")[:16], "o": N}, the old token's shape
    const q = createHash("sha256").update("all-tables svc").digest("base64url").slice(0, 16);
    const forged = [
      Buffer.from(JSON.stringify({ q, o: 3 })).toString("base64url"),
      first.next.replace(/^[0-9a-z]+\./, "3."), // the offset changed, the MAC kept
      first.next.slice(0, -1) + (first.next.endsWith("A") ? "B" : "A"), // the MAC changed
      `${first.next}x`,
    ];
    for (const token of forged) {
      const res = await client().raw("GET", `/shares/svc/all-tables?maxResults=1&pageToken=${token}`);
      assertEquals(await status(res), [400, "INVALID_PARAMETER_VALUE"], token);
    }
    // maxResults=0: no items and no token, so a client following tokens stops
    const none = await (await client().raw("GET", "/shares/svc/all-tables?maxResults=0")).json();
    assertEquals(none, { items: [] });
    const after = await (await client().raw("GET", `/shares/svc/all-tables?maxResults=0&pageToken=${first.next}`))
      .json();
    assertEquals(after, { items: [] });
    assertEquals((await client().listAllTables("svc", 1)).map((t) => t.name), ["alpha", "beta", "delta", "gamma"]);
    // the key comes from the node token: the same token after a restart takes the token, another does not
    await serving.shutdown();
    serving = await start(TOKEN);
    assertEquals((await client().page("/shares/svc/all-tables", 1, first.next)).items.length, 1);
    await serving.shutdown();
    serving = await start("another-node-token-for-paging");
    const other = await new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${serving.url}/delta-sharing`,
      bearerToken: "another-node-token-for-paging",
    }).raw("GET", `/shares/svc/all-tables?maxResults=1&pageToken=${first.next}`);
    assertEquals(await status(other), [400, "INVALID_PARAMETER_VALUE"]);
  } finally {
    await serving.shutdown();
    await dir.cleanup();
  }
});

Deno.test("a query's file token is bound to its query and cannot be forged either", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("notes", 1, { parts: [0, 1, 2].map((i) => ({ sql: citySql(i * 10, 10) })) });
  } finally {
    w.close();
  }
  const serving = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: TOKEN, log: null });
  try {
    const client = new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${serving.url}/delta-sharing`,
      bearerToken: TOKEN,
    });
    const page = await client.query("svc", "default", "notes", { maxFiles: 1 });
    const token = page.endStreamAction?.nextPageToken as string;
    assertMatch(token, /^1\./);
    const next = await client.query("svc", "default", "notes", { maxFiles: 1, pageToken: token });
    assert(next.files[0].id !== page.files[0].id);
    for (const bad of [token.replace(/^1\./, "2."), token.replace(/^1\./, "0.")]) {
      const res = await client.raw(
        "POST",
        "/shares/svc/schemas/default/tables/notes/query",
        JSON.stringify({ maxFiles: 1, pageToken: bad }),
        { "content-type": "application/json" },
      );
      assertEquals(await status(res), [400, "INVALID_PARAMETER_VALUE"], bad);
    }
  } finally {
    await serving.shutdown();
    await dir.cleanup();
  }
});

Deno.test("a timestamp past the newest version is 400 everywhere; the newest version's own time reads it", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  const times = ["2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"];
  try {
    for (const [i, at] of times.entries()) {
      // each version keeps the parts before it and adds one, so its change is known
      const parts = Array.from({ length: i + 1 }, (_, j) => ({ sql: citySql(j * 10, 10) }));
      await w.version("notes", i + 1, { parts, extra: { createdAt: at } });
    }
  } finally {
    w.close();
  }
  const serving = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null, log: null });
  try {
    const client = new DeltaSharingClient({ shareCredentialsVersion: 1, endpoint: `${serving.url}/delta-sharing` });
    const table = "/shares/svc/schemas/default/tables/notes";
    const json = { "content-type": "application/json" };
    const ask = (ts: string) => {
      const e = encodeURIComponent(ts);
      return [
        client.raw("GET", `${table}/version?startingTimestamp=${e}`),
        client.raw("HEAD", `${table}?startingTimestamp=${e}`),
        client.raw("GET", `${table}/metadata?timestamp=${e}`),
        client.raw("POST", `${table}/query`, JSON.stringify({ timestamp: ts }), json),
        client.raw("GET", `${table}/changes?startingTimestamp=${e}`),
      ];
    };
    for (const late of ["2026-04-01T00:00:00.001Z", "9999-01-01T00:00:00Z"]) {
      const answers = await Promise.all(ask(late));
      for (const [i, res] of answers.entries()) {
        assertEquals(res.status, 400, `${late} #${i}`);
        if (i !== 1) { // HEAD answers without a body
          const body = await res.json();
          assertEquals(body.errorCode, "INVALID_PARAMETER_VALUE");
          assertMatch(body.message, /no version was made at or after/);
        } else await res.body?.cancel();
      }
    }
    const newest = await Promise.all(ask(times[2]));
    assertEquals(newest.map((r) => r.status), [200, 200, 200, 200, 200]);
    assertEquals(newest.map((r) => r.headers.get("delta-table-version")), ["3", "3", "3", "3", "3"]);
    await Promise.all(newest.map((r) => r.body?.cancel()));
    const between = await Promise.all(ask("2026-02-15T00:00:00Z"));
    // "from" reads the first version at or after it (2), "as of" the last at or before it (1)
    assertEquals(between.map((r) => r.headers.get("delta-table-version")), ["2", "2", "1", "1", "2"]);
    await Promise.all(between.map((r) => r.body?.cancel()));
    const meta = await client.raw("GET", `${table}/metadata?version=1`);
    const lines = (await meta.text()).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines[1].metaData.version, 1);
    const both = await client.raw("GET", `${table}/metadata?version=1&timestamp=2026-02-15T00:00:00Z`);
    assertEquals(await status(both), [400, "INVALID_PARAMETER_VALUE"]);
  } finally {
    await serving.shutdown();
    await dir.cleanup();
  }
});
