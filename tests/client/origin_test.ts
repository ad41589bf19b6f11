import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../support/assert.ts";
import { gunzipSync } from "node:zlib";
import { AuthError, Client, ValueError, WaitTimeout } from "../../mod.ts";
import { startOrigin, type TestOrigin } from "../support/origin.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

async function withOrigin(fn: (origin: TestOrigin, scratch: string) => Promise<void>): Promise<void> {
  const store = await tempDir();
  const scratch = await tempDir();
  try {
    await citiesStore(store.path);
    const origin = await startOrigin({ store: store.path, seed: "11".repeat(32), screenMs: 300 });
    try {
      await fn(origin, scratch.path);
    } finally {
      await origin.close();
    }
  } finally {
    await store.cleanup();
    await scratch.cleanup();
  }
}

Deno.test("test origin: listing needs no key, content does; a wrong key is an AuthError", async () => {
  await withOrigin(async (origin) => {
    const keyless = await fetch(`${origin.url}/projects`);
    assertEquals(keyless.status, 200);
    assertEquals((await keyless.json()).projects.map((p: Json) => [p.slug, p.local]), [
      ["bare", undefined],
      ["cities", undefined],
    ]);
    for (const path of ["/projects/cities/data", "/projects/cities/manifest", "/projects/cities/export"]) {
      const res = await fetch(`${origin.url}${path}`);
      await res.body?.cancel();
      assertEquals(res.status, 401, path);
    }
    const wrong = new Client({ baseUrl: origin.url, apiKey: "not-an-agent-key" });
    assert(await assertRejects(() => wrong.data("cities")) instanceof AuthError);
    const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });
    assertEquals((await client.data("cities", { limit: 2 })).records.map((r: Json) => r.id), [0, 1]);
    assertEquals(await client.isNode(), false, "the origin does not say it is a node");
  });
});

Deno.test("Client against the origin: licenses from the list only (any case, sent as listed), checked before sending", async () => {
  await withOrigin(async (origin) => {
    const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });
    const project = {
      slug: "notes",
      title: "Agent notes",
      readme: "Notes an agent keeps while it works.",
      schemaDef: { fields: [{ name: "text", type: "string" }] },
    };
    const before = origin.seen.length;
    const e = await assertRejects(() => client.create({ ...project, license: "MIT" }), /license must be one of/);
    assert(e instanceof ValueError);
    assertEquals(origin.seen.slice(before).filter((s) => s.method === "POST").length, 0, "nothing was sent");
    const created = await client.create({ ...project, license: "cc-by-4.0" });
    assertEquals(created.slug, "notes");
    const sent = origin.seen.findLast((s) => s.method === "POST" && s.path === "/projects")!;
    assertEquals(JSON.parse(sent.body).license, "CC-BY-4.0");
    const raw = await fetch(`${origin.url}/projects`, {
      method: "POST",
      headers: { authorization: "Bearer agent-key", "content-type": "application/json" },
      body: JSON.stringify({ ...project, slug: "other", license: "MIT" }),
    });
    assertEquals([raw.status, (await raw.json()).error.startsWith("license must be one of")], [400, true]);
  });
});

Deno.test("Client against the origin: contributions screened later are waited for; source declarations 4 to 2000 characters", async () => {
  await withOrigin(async (origin) => {
    const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });
    await client.create({
      slug: "notes",
      title: "Agent notes",
      readme: "Notes an agent keeps while it works.",
      schemaDef: { fields: [{ name: "text", type: "string" }] },
    });
    const before = origin.seen.length;
    for (const declaration of ["abc", "x".repeat(2001)]) {
      const e = await assertRejects(() =>
        client.contribute("notes", [{ text: "a" }], { sourceDeclaration: declaration })
      );
      assert(e instanceof ValueError && /4 to 2000 characters/.test(e.message), e.message);
    }
    assertEquals(origin.seen.length, before, "nothing was sent");
    const pending = await client.contribute("notes", [{ text: "a" }], { sourceDeclaration: "typed in" });
    assertEquals([pending.status, pending.mergedVersion], ["pending", null]);
    const merged = await client.contribute("notes", [{ text: "b" }], { idempotencyKey: "k-1", wait: 10_000 });
    assertEquals([merged.status, merged.acceptedCount, merged.replayed], ["merged", 1, false]);
    assert(typeof merged.mergedVersion === "number" && merged.mergedVersion >= 1);
    const replay = await client.contribute("notes", [{ text: "b" }], { idempotencyKey: "k-1" });
    assertEquals([replay.id, replay.replayed], [merged.id, true]);
    const first = await client.waitForContribution("notes", pending.id, { timeoutMs: 10_000 });
    assertEquals([first.status, first.sourceDeclaration], ["merged", "typed in"]);
    const bad = await client.contribute("notes", [{ text: 5 }], { wait: true });
    assertEquals([bad.status, bad.mergedVersion], ["rejected", null]);
    const slow = await client.contribute("notes", [{ text: "c" }]);
    const late = await assertRejects(() => client.waitForContribution("notes", slow.id, { timeoutMs: 50 }));
    assert(late instanceof WaitTimeout, "a wait that runs out is a WaitTimeout");
    assertMatch(late.message, /^contribution [0-9a-f-]{36} still pending after 0\.05s$/);
  });
});

Deno.test("Client: export streams the gzip JSON lines", async () => {
  await withOrigin(async (origin) => {
    const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });
    const exported = await client.export("cities", { version: 1 });
    assertEquals(exported.filename, "cities-v1.jsonl.gz");
    const bytes = new Uint8Array(await new Response(exported.body).arrayBuffer());
    const lines = new TextDecoder().decode(gunzipSync(bytes)).trim().split("\n");
    assertEquals([lines.length, JSON.parse(lines[249]).id], [250, 249]);
    assert(await assertRejects(() => client.export("cities", { version: 9 })) instanceof Error);
  });
});

Deno.test("Client: the local-store calls are gone (they are @svc/cli/local's functions)", () => {
  const client = new Client({ baseUrl: "http://127.0.0.1:1" }) as unknown as Record<string, unknown>;
  for (const name of ["pull", "save", "load", "queryLocal"]) assertEquals(client[name], undefined, name);
});
