/**
 * What the node tells of a Delta Sharing query beyond its lines: the files
 * its predicates let it skip, counted in /metrics, and the end of a paged
 * answer (`maxFiles`), which always carries `endStreamAction`.
 */
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";

const TOKEN = "node-token-for-skipping-tests";
const AUTH = { authorization: `Bearer ${TOKEN}` };
const QUERY = "/delta-sharing/shares/svc/schemas/default/tables/cities/query";

async function query(url: string, body: unknown, capabilities?: string): Promise<{ lines: Json[]; res: Response }> {
  const res = await fetch(`${url}${QUERY}`, {
    method: "POST",
    headers: {
      ...AUTH,
      "content-type": "application/json",
      ...(capabilities ? { "delta-sharing-capabilities": capabilities } : {}),
    },
    body: JSON.stringify(body),
  });
  assertEquals(res.status, 200);
  return { lines: (await res.text()).trim().split("\n").map((l) => JSON.parse(l)), res };
}

async function filesCounted(url: string): Promise<{ listed: number; skipped: number }> {
  const text = await (await fetch(`${url}/metrics`, { headers: AUTH })).text();
  const value = (outcome: string) =>
    Number(new RegExp(`^svc_delta_sharing_files_total\\{outcome="${outcome}"\\} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
  return { listed: value("listed"), skipped: value("skipped") };
}

Deno.test("metrics: svc_delta_sharing_files_total counts the files a query listed and those its predicates skipped", async () => {
  await withNode({ token: TOKEN }, async (node) => {
    assertEquals(await filesCounted(node.url), { listed: 0, skipped: 0 });
    // v2's three parts hold ids 0-249, 250-499 and 500-599
    const hinted = await query(node.url, { predicateHints: ["id >= 550"] });
    assertEquals(hinted.lines.filter((l) => l.file).length, 1);
    assertEquals(await filesCounted(node.url), { listed: 1, skipped: 2 });
    const tree = JSON.stringify({
      op: "lessThan",
      children: [{ op: "column", name: "id", valueType: "long" }, { op: "literal", value: "100", valueType: "long" }],
    });
    await query(node.url, { jsonPredicateHints: tree });
    await query(node.url, {});
    assertEquals(await filesCounted(node.url), { listed: 5, skipped: 4 });
    const changes = await fetch(
      `${node.url}/delta-sharing/shares/svc/schemas/default/tables/cities/changes?startingVersion=1&endingVersion=1`,
      { headers: AUTH },
    );
    assertEquals(changes.status, 200);
    await changes.body?.cancel();
    assertEquals(await filesCounted(node.url), { listed: 7, skipped: 4 });
  });
});

Deno.test("query: a paged answer always ends with endStreamAction, its last page without a nextPageToken", async () => {
  await withNode({ token: TOKEN }, async (node) => {
    const first = await query(node.url, { maxFiles: 2 });
    const end = first.lines.at(-1).endStreamAction;
    assert(typeof end.nextPageToken === "string" && typeof end.minUrlExpirationTimestamp === "number");
    const last = await query(node.url, { maxFiles: 2, pageToken: end.nextPageToken });
    assertEquals(last.lines.filter((l) => l.file).length, 1);
    assertEquals(Object.keys(last.lines.at(-1).endStreamAction), ["minUrlExpirationTimestamp"]);
    const whole = await query(node.url, { maxFiles: 10 });
    assertEquals(whole.lines.filter((l) => l.file).length, 3);
    assert(whole.lines.at(-1).endStreamAction, "one page, still ended");
    assertEquals(whole.res.headers.get("delta-sharing-capabilities"), "responseformat=parquet");
    // asked for, it is said in the answer's capabilities as the protocol wants
    const asked = await query(node.url, {}, "includeendstreamaction=true");
    assert(asked.lines.at(-1).endStreamAction);
    assertEquals(
      asked.res.headers.get("delta-sharing-capabilities"),
      "responseformat=parquet;includeendstreamaction=true",
    );
    // without maxFiles and without asking, no endStreamAction: pandas' connector reads every line after the metadata as a file
    const plain = await query(node.url, {});
    assert(plain.lines.every((l) => !l.endStreamAction));
  });
});
