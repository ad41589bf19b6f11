import { assert, assertEquals, assertRejects, type Json } from "../support/assert.ts";
import { OriginClient } from "../../src/origin/mod.ts";
import { AuthError, Client, KeyRequiredError, NotFoundError, ValidationError, ValueError } from "../../mod.ts";
import { withNode } from "../support/node.ts";

Deno.test("Client: every node route by base URL alone", async () => {
  await withNode({}, async ({ url }) => {
    const client = new Client({ baseUrl: url, apiKey: "any-key" });
    assertEquals((await client.projects()).map((p) => p.slug), ["bare", "cities"]);
    assertEquals((await client.project("cities")).localVersions, [2, 1]);
    const page = await client.data("cities", { version: 1, limit: 3, offset: 247 });
    assertEquals(page.records.map((r: Json) => r.id), [247, 248, 249]);
    const manifest = await client.manifest("cities", 1);
    assert(manifest.parts.every((p) => p.url?.startsWith(`${url}/parts/cities/`)));
    const answer = await client.query("cities", "SELECT count(*) AS n FROM records", { version: 2 });
    assertEquals(answer.rows, [[600]]);
    let seen = 0;
    for await (const record of client.records("cities", { pageSize: 128 })) {
      assertEquals(record.id, seen++);
    }
    assertEquals(seen, 600, "the iterator walks every record of the version");
    await client.create({
      slug: "notes",
      title: "Agent notes",
      readme: "Notes an agent keeps while it works.",
      schemaDef: { fields: [{ name: "text", type: "string" }] },
    });
    const merged = await client.contribute("notes", [{ text: "hi" }], { idempotencyKey: "c-1" });
    assertEquals([merged.status, merged.replayed], ["merged", false]);
    assertEquals((await client.contribute("notes", [{ text: "hi" }], { idempotencyKey: "c-1" })).replayed, true);
    assertEquals((await client.contribution("notes", merged.id)).mergedVersion, 1);
    assert(await assertRejects(() => client.project("nowhere")) instanceof NotFoundError);
    assert(await assertRejects(() => client.query("cities", "DROP VIEW records")) instanceof ValidationError);
  });
});

Deno.test("Client: keyless calls go to a node without a token (found once per client by /healthz); elsewhere they are refused before sending", async () => {
  await withNode({}, async ({ url }) => {
    const keyless = new Client({ baseUrl: url });
    assertEquals((await keyless.projects()).length, 2, "listing needs no key");
    assertEquals((await keyless.query("cities", "SELECT count(*) AS n FROM records")).rows, [[600]]);
    const manifest = await keyless.manifest("cities", 1);
    assert(manifest.parts.every((p) => p.url?.startsWith(`${url}/parts/cities/`)));
    await keyless.create({
      slug: "notes",
      title: "Agent notes",
      readme: "Notes an agent keeps while it works.",
      schemaDef: { fields: [{ name: "text", type: "string" }] },
    });
    const merged = await keyless.contribute("notes", [{ text: "hi" }]);
    assertEquals([merged.status, (await keyless.contribution("notes", merged.id)).mergedVersion], ["merged", 1]);
    assertEquals(await keyless.isNode(), true);
  });
  // A node with a token tells a keyless client only {"ok": true}: no node, so no key is refused before sending.
  await withNode({ token: "node-secret" }, async ({ url }) => {
    const keyless = new Client({ baseUrl: url });
    for (
      const [name, call] of [
        ["query", () => keyless.query("cities", "SELECT 1")],
        ["manifest", () => keyless.manifest("cities")],
        ["create", () => keyless.create({ slug: "notes" })],
        ["contribute", () => keyless.contribute("notes", [{ text: "hi" }])],
      ] as const
    ) {
      const e = await assertRejects(call);
      assert(e instanceof KeyRequiredError && e instanceof AuthError && e.status === null, e.message);
      assertEquals((e as KeyRequiredError).call, name);
    }
    // A wrong key reaches the node, whose 401 says what the key must be.
    const wrong = await assertRejects(() => new Client({ baseUrl: url, apiKey: "not-it" }).manifest("cities"));
    assert(wrong instanceof AuthError && wrong.status === 401 && wrong.fromNode === true);
    assertEquals(
      wrong.message,
      "this node needs its token: Authorization: Bearer <token> — pass the node's token as the key (apiKey, or SVC_API_KEY)",
    );
  });
  const { startOrigin } = await import("../support/origin.ts");
  const origin = await startOrigin();
  try {
    const keyless = new Client({ baseUrl: origin.url });
    assert(await assertRejects(() => keyless.manifest("cities")) instanceof KeyRequiredError);
    assert(await assertRejects(() => keyless.query("cities", "SELECT 1")) instanceof KeyRequiredError);
    assertEquals(origin.seen.map((s) => `${s.method} ${s.path}`), ["GET /healthz"], "asked once, nothing else sent");
    // An origin's 401 is not a node's: no word of a node token.
    origin.fault("/projects/cities/manifest", { status: 401, body: '{"error":"an agent key is required"}' });
    const refused = await assertRejects(() => new Client({ baseUrl: origin.url, apiKey: "k" }).manifest("cities"));
    assert(refused instanceof AuthError && refused.fromNode === undefined);
    assertEquals(refused.message, "an agent key is required");
  } finally {
    await origin.close();
  }
  // A base URL that does not answer the probe is not refused for want of a key: the call says what failed.
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const gone = `http://127.0.0.1:${closed.addr.port}`;
  closed.close();
  const unreachable = await assertRejects(() => new Client({ baseUrl: gone, retries: 0 }).manifest("cities"));
  assert(!(unreachable instanceof KeyRequiredError) && unreachable.message.startsWith(`cannot reach ${gone}`));
});

Deno.test("Client: configuration from options or the SVC_ environment; the pay URL default", () => {
  const env = { SVC_BASE_URL: "https://origin.example/", SVC_API_KEY: "k", SVC_PAY_URL: undefined };
  const fromEnv = new OriginClient({ env });
  assertEquals([fromEnv.baseUrl, fromEnv.payUrl], ["https://origin.example", "https://origin.example"]);
  assertEquals(new OriginClient({ baseUrl: "http://127.0.0.1:8686" }).payUrl, "http://localhost:3001");
  assertEquals(
    new OriginClient({ baseUrl: "http://localhost:9000", payUrl: "https://pay.example" }).payUrl,
    "https://pay.example",
  );
  assertEquals(new OriginClient({ env: { ...env, SVC_PAY_URL: "https://pay.example" } }).payUrl, "https://pay.example");
  for (const bad of ["ftp://x", "not a url"]) {
    let error: unknown;
    try {
      new OriginClient({ baseUrl: bad });
    } catch (e) {
      error = e;
    }
    assert(error instanceof ValueError, bad);
  }
});

Deno.test("Client.create: on the origin the license must be listed (any case, sent as listed); a node takes any", async () => {
  const { startOrigin } = await import("../support/origin.ts");
  const origin = await startOrigin();
  try {
    const client = new Client({ baseUrl: origin.url, apiKey: "k" });
    const base = {
      slug: "notes",
      title: "Notes",
      readme: "x".repeat(20),
      schemaDef: { fields: [{ name: "a", type: "string" }] },
    };
    const refused = await assertRejects(() => client.create({ ...base, license: "MIT" }), /license must be one of/);
    assert(refused instanceof ValueError);
    assertEquals(origin.seen.filter((s) => s.method === "POST").length, 0, "nothing was sent");
    await client.create({ ...base, license: "cc-by-4.0" });
    const sent = origin.seen.find((s) => s.method === "POST");
    assertEquals(JSON.parse(sent!.body).license, "CC-BY-4.0");
  } finally {
    await origin.close();
  }
  await withNode({}, async ({ url }) => {
    const client = new Client({ baseUrl: url, apiKey: "k" });
    const made = await client.create({
      slug: "notes",
      title: "Notes",
      readme: "x".repeat(20),
      schemaDef: { fields: [{ name: "a", type: "string" }] },
      license: "My own terms",
    });
    assertEquals(made.local, true);
  });
});
