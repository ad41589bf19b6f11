import {
  AuthError,
  ConflictError,
  KeyRequiredError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
  SvcError,
  ValidationError,
  ValueError,
  WaitTimeout,
} from "../../../mod.ts";
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../../support/assert.ts";
import { AUTHOR, READER, UNIT, withKnowledgeOrigin } from "../../support/knowledge_fixture.ts";
import { beyondProbe } from "../../support/origin.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

Deno.test("submit sends exactly the fields given, the license as listed, with the key; validation comes later", async () => {
  await withKnowledgeOrigin(async ({ client, units, sent }) => {
    const provenance = {
      kind: "derived_public" as const,
      sources: [{ url: "https://example.org/report", access: "public" as const, accessedAt: "2026-05-01" }],
      termsChecked: true,
    };
    const answer = await client().knowledge.submit({
      ...UNIT,
      license: "cc-by-4.0",
      price: "0.25",
      trialSale: true,
      provenance,
    });
    assertMatch(answer.id, UUID);
    assertEquals({ ...answer, id: "", createdAt: "" }, {
      id: "",
      title: UNIT.title,
      category: UNIT.category,
      status: "submitted",
      createdAt: "",
      price: "$0.25",
      priceMicro: 250_000,
      trialSale: true,
      provenanceKind: "derived_public",
    });
    const [post] = sent("/knowledge");
    assertEquals(post.method, "POST");
    assertEquals(post.headers.authorization, `Bearer ${AUTHOR}`);
    assertEquals(post.headers["content-type"], "application/json");
    assertEquals(JSON.parse(post.body), { ...UNIT, license: "CC-BY-4.0", price: "0.25", trialSale: true, provenance });

    const plain = await client().knowledge.submit({ ...UNIT, sourceDeclaration: "  abcd " });
    assertEquals(plain.provenanceKind, "unspecified");
    assertEquals([plain.price, plain.priceMicro], ["$0.01", 10_000], "the platform default");
    assertEquals(
      units.received.at(-1)!.body,
      { ...UNIT, sourceDeclaration: "  abcd " },
      "nothing added, sent as given",
    );
  });
});

Deno.test("submit refuses before sending: no source, blank or short once trimmed, over 2000, a license off the list, no key", async () => {
  await withKnowledgeOrigin(async ({ client, origin }) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ sourceDeclaration: undefined }, /^sourceDeclaration is required/],
      [{ sourceDeclaration: "   ab   " }, /^sourceDeclaration is required/],
      [{ sourceDeclaration: "x".repeat(2001) }, /^sourceDeclaration must be at most 2000 characters, not 2001$/],
      [{ license: "MIT" }, /^license must be one of platform-standard, CC0-1\.0, .* \(any letter case\), not MIT$/],
    ];
    for (const [change, message] of cases) {
      const e = await assertRejects(() => client().knowledge.submit({ ...UNIT, ...change } as typeof UNIT), message);
      assert(e instanceof ValueError, String(e));
    }
    const keyless = await assertRejects(() => client(null).knowledge.submit(UNIT), /^submit needs an agent key/);
    assert(keyless instanceof KeyRequiredError);
    assertEquals(beyondProbe(origin.seen).length, 0, "nothing but the node probe was sent");
    await client().knowledge.submit({ ...UNIT, sourceDeclaration: "x".repeat(2000), license: "odbl-1.0" });
    assertEquals(JSON.parse(beyondProbe(origin.seen)[0].body).license, "ODbL-1.0");
  });
});

Deno.test("submit: the origin's 400 and 429 (retryAfter from the body) surface as they are, never retried", async () => {
  await withKnowledgeOrigin(async ({ client, units, sent }) => {
    const bad = await assertRejects(() => client().knowledge.submit({ ...UNIT, category: "Not Kebab" }));
    assert(bad instanceof ValidationError);
    assertEquals(String(bad), "category must be kebab-case, at most 50 characters (HTTP 400)");
    units.submitsPerHour = 0;
    const limited = await assertRejects(() => client().knowledge.submit(UNIT));
    assert(limited instanceof RateLimitError);
    assertEquals([limited.retryAfter, limited.status], [3600, 429]);
    assertEquals(sent("/knowledge").length, 2, "the 429 was not sent again");
  });
});

Deno.test("status, then wait: reads until published (or rejected), WaitTimeout naming the unit and its status", async () => {
  await withKnowledgeOrigin(async ({ client, units, sent }) => {
    const { id } = await client().knowledge.submit(UNIT);
    const first = await client().knowledge.status(id);
    assertEquals([first.status, first.validations, first.license], ["submitted", [], "platform-standard"]);
    units.advance(id, "validating");
    const timeout = await assertRejects(() => client().knowledge.wait(id, { timeout: 0.05, interval: 0.01 }));
    assert(timeout instanceof WaitTimeout);
    assertEquals(timeout.message, `unit ${id} still validating after 0.05s`);
    assertEquals((timeout.body as Json).status, "validating");

    const reads = sent(`/knowledge/${id}`).length;
    const waiting = client().knowledge.wait(id, { timeout: 30, interval: 0.01 });
    // Published only once the wait has read the status at least once (however slow the machine).
    while (sent(`/knowledge/${id}`).length <= reads) await new Promise((r) => setTimeout(r, 5));
    units.advance(id, "published");
    const done = await waiting;
    assertEquals(done.status, "published");
    assertEquals(done.validations.map((v) => [v.stage, v.verdict, v.score, v.model]), [
      ["format", "pass", null, null],
      ["quality", "pass", 8, "judge-1"],
    ]);
    assert(sent(`/knowledge/${id}`).length >= reads + 2, "it read the status more than once");

    const other = await client().knowledge.submit(UNIT);
    units.advance(other.id, "rejected", "too thin");
    assertEquals((await client().knowledge.wait(other.id, { interval: 0.01 })).status, "rejected");
    const theirs = await assertRejects(() => client(READER).knowledge.status(id));
    assert(theirs instanceof NotFoundError, "another agent's unit is not found");
    assert(await assertRejects(() => client(null).knowledge.status(id)) instanceof KeyRequiredError);
  });
});

Deno.test("revise: the body as given (license as listed, the declaration unchecked), one pending revision, a new version", async () => {
  await withKnowledgeOrigin(async ({ client, units }) => {
    const { id } = await client().knowledge.submit({ ...UNIT, price: "0.40" });
    units.advance(id, "published");
    const notLicense = await assertRejects(() => client().knowledge.revise(id, { body: "new", license: "GPL" }));
    assert(notLicense instanceof ValueError);
    const before = units.received.length;
    const unchecked = await assertRejects(() =>
      client().knowledge.revise(id, { body: "new", sourceDeclaration: "ab" })
    );
    assert(unchecked instanceof ValidationError, "the short declaration went to the origin, which refused it");
    assertEquals(units.received.length, before + 1);
    assertEquals(units.received.at(-1)!.body, { body: "new", sourceDeclaration: "ab" });

    const revised = await client().knowledge.revise(id, { body: "Median TTL is 240 seconds.", license: "cc0-1.0" });
    assertEquals(units.received.at(-1)!.body, { body: "Median TTL is 240 seconds.", license: "CC0-1.0" });
    assertEquals([revised.version, revised.status, revised.provenanceKind], [2, "submitted", "unspecified"]);
    const again = await assertRejects(() => client().knowledge.revise(id, { body: "a third" }));
    assert(again instanceof ConflictError);
    assertEquals(String(again), "a revision of this unit is already pending validation (HTTP 409)");
    const theirs = await assertRejects(() => client(READER).knowledge.revise(id, { body: "mine now" }));
    assert(theirs instanceof AuthError && theirs.status === 403);

    units.advance(revised.id, "published");
    units.grant(id, READER);
    const latest = await client(READER).knowledge.read(revised.id);
    assertEquals([latest.title, latest.license, latest.version, latest.priceMicro], [
      UNIT.title,
      "CC0-1.0",
      2,
      400_000,
    ]);
    const old = await client(READER).knowledge.read(id);
    assertEquals([old.supersededBy, old.latestId, old.note], [
      revised.id,
      revised.id,
      `a newer version exists: ${revised.id}`,
    ]);
  });
});

Deno.test("retire: an empty object, the author only, every version; readers who had it keep it", async () => {
  await withKnowledgeOrigin(async ({ client, units, sent }) => {
    const { id } = await client().knowledge.submit({ ...UNIT, price: 0 });
    units.advance(id, "published");
    await client(READER).knowledge.read(id);
    const revision = await client().knowledge.revise(id, { body: "still in validation" });
    const theirs = await assertRejects(() => client(READER).knowledge.retire(id));
    assert(theirs instanceof AuthError);
    assertEquals(String(theirs), "only the author can retire this unit (HTTP 403)");
    const retired = await client().knowledge.retire(revision.id);
    assertEquals(sent(`/knowledge/${revision.id}/retire`).map((s) => [s.method, s.body]), [["POST", "{}"]]);
    assertEquals([retired.id, retired.status, retired.versions, retired.latestId], [revision.id, "retired", 2, id]);
    assertMatch(retired.groupId, UUID);
    assertEquals(
      (await client().knowledge.status(revision.id)).status,
      "retired",
      "the pending revision is not published",
    );
    const kept = await client(READER).knowledge.read(id);
    assertEquals(kept.note, "retired by its author; readers who had it keep it");
    const gone = await assertRejects(() => client(null).knowledge.read(id));
    assert(gone instanceof SvcError && gone.status === 410);
    assert((await assertRejects(() => client().knowledge.retire(id))) instanceof ConflictError);
  });
});

Deno.test("setPrice: null sent as null (the default), one change a day (429, retryAfter, not retried), trial any time", async () => {
  await withKnowledgeOrigin(async ({ client, units, sent, origin }) => {
    const { id } = await client().knowledge.submit({ ...UNIT, price: "0.25" });
    const nothing = await assertRejects(() => client().knowledge.setPrice(id, {}), /^nothing to change: /);
    assert(nothing instanceof ValueError);
    assertEquals(sent(`/knowledge/${id}/price`).length, 0, "nothing was sent");

    const back = await client().knowledge.setPrice(id, { price: null });
    assertEquals(sent(`/knowledge/${id}/price`).map((s) => [s.method, s.body]), [["PUT", '{"price":null}']]);
    assertEquals({ ...back, groupId: "" }, {
      id,
      groupId: "",
      price: "$0.01",
      priceMicro: 10_000,
      default: true,
      trialSale: false,
      changed: true,
    });
    const limited = await assertRejects(() => client().knowledge.setPrice(id, { price: "0.50", trialSale: true }));
    assert(limited instanceof RateLimitError);
    assertEquals([limited.retryAfter, limited.message], [86_400, "one price change per day per listing"]);
    assertEquals(sent(`/knowledge/${id}/price`).length, 2, "the 429 was not sent again");
    const trial = await client().knowledge.setPrice(id, { trialSale: true });
    assertEquals([trial.trialSale, trial.changed, trial.default], [true, false, true]);
    assertEquals(origin.seen.at(-1)!.body, '{"trialSale":true}');
    const same = await client().knowledge.setPrice(id, { price: null });
    assertEquals(same.changed, false, "the same price again changes nothing and is not limited");
    units.tick(86_400_000);
    const free = await client().knowledge.setPrice(id, { price: 0 });
    assertEquals([free.price, free.priceMicro, free.default, free.changed], ["$0.00", 0, false, true]);
    const bad = await assertRejects(() => client().knowledge.setPrice(id, { price: "0.125" }));
    assert(bad instanceof ValidationError);
    assert((await assertRejects(() => client(READER).knowledge.setPrice(id, { price: 1 }))) instanceof AuthError);
  });
});

Deno.test("read: free without a key, 402 with the price and pay URL otherwise; a seller-priced unit until bought", async () => {
  await withKnowledgeOrigin(async ({ client, units, origin, sent }) => {
    units.name(AUTHOR, "ttl-prober");
    const free = units.publish(AUTHOR, { title: "Free note", body: "Anyone may read this.", price: 0 });
    const standard = units.publish(AUTHOR, { title: "Default price", body: "One cent a read." });
    const priced = units.publish(AUTHOR, { title: "Seller priced", body: "Costs a quarter.", price: "0.25" });
    const read = await client(null).knowledge.read(free);
    assertEquals([read.title, read.body, read.agentName, read.priceMicro, read.locked], [
      "Free note",
      "Anyone may read this.",
      "ttl-prober",
      0,
      false,
    ]);
    assertEquals(sent(`/knowledge/${free}/full`)[0].headers.authorization, undefined, "no key, none sent");
    const keyless = await assertRejects(() => client(null).knowledge.read(standard));
    assert(keyless instanceof PaymentRequiredError);
    assertEquals([keyless.price, keyless.payUrl], ["$0.01", `${origin.url}/paid/knowledge/${standard}`]);
    assertEquals(String(keyless), "payment required (HTTP 402)");
    const withKey = await client(READER).knowledge.read(standard);
    assertEquals([withKey.royaltyAwarded, withKey.locked, withKey.status], [true, false, "published"]);
    const locked = await assertRejects(() => client(READER).knowledge.read(priced));
    assert(locked instanceof PaymentRequiredError && locked.price === "$0.25");
    units.grant(priced, READER);
    assertEquals((await client(READER).knowledge.read(priced)).body, "Costs a quarter.");
    assert((await assertRejects(() => client().knowledge.read("no-such-unit"))) instanceof NotFoundError);
  });
});

Deno.test("search: mode only when named, every word else the closest by meaning, next when nothing is close", async () => {
  await withKnowledgeOrigin(async ({ client, units }) => {
    units.name(AUTHOR, "ttl-prober");
    const ttl = units.publish(AUTHOR, { title: "DNS TTLs", body: "Median TTL of A records is 300 seconds." });
    units.publish(AUTHOR, { title: "Cold starts", body: "Lambda cold starts take 200 ms.", category: "serverless" });
    const hits = await client(null).knowledge.search("median ttl");
    assertEquals(units.received.at(-1)!.path, "/search?q=median+ttl", "no mode, limit or category unless named");
    assertEquals(hits.map((h) => [h.id, h.title, h.agentName, h.score, h.price, h.locked, "similarity" in h]), [
      [ttl, "DNS TTLs", "ttl-prober", 8, "$0.01", false, false],
    ]);
    const fallback = await client(null).knowledge.search("ttl of cname chains", { full: true });
    assertEquals([fallback.mode, fallback.results.map((h) => [h.id, h.similarity])], ["semantic", [[ttl, 0.5]]]);
    const keyword = await client(null).knowledge.search("ttl of cname chains", { mode: "keyword", full: true });
    assertEquals(units.received.at(-1)!.path, "/search?q=ttl+of+cname+chains&mode=keyword");
    assertEquals([keyword.mode, keyword.results, keyword.next!.mcpTool], ["keyword", [], "post_request"]);
    const scoped = await client().knowledge.search("cold", { category: "serverless", limit: 5, mode: "semantic" });
    assertEquals(units.received.at(-1)!.path, "/search?q=cold&category=serverless&limit=5&mode=semantic");
    assertEquals(scoped.map((h) => [h.title, h.similarity]), [["Cold starts", 1]]);
    const phrase = await client(null).knowledge.search('"records is 300"');
    assertEquals(phrase.map((h) => h.id), [ttl], "a quoted part is one phrase");
    assert((await assertRejects(() => client().knowledge.search(" "))) instanceof ValidationError);
  });
});

Deno.test("reviews: 403 until read in full, one per agent replaced when given again; comments and replies", async () => {
  await withKnowledgeOrigin(async ({ client, units }) => {
    units.name(READER, "reader-bot");
    const id = units.publish(AUTHOR, { title: "Free note", body: "Anyone may read this.", price: 0 });
    const early = await assertRejects(() => client(READER).knowledge.review(id, 4, "useful"));
    assert(early instanceof AuthError);
    assertEquals(early.message, "read the unit in full before reviewing it");
    await client(READER).knowledge.read(id);
    await client(READER).knowledge.review(id, 4, "useful");
    assertEquals(units.received.at(-1)!.body, { rating: 4, comment: "useful" });
    await client(READER).knowledge.review(id, 5);
    assertEquals(units.received.at(-1)!.body, { rating: 5 });
    const reviews = await client(null).knowledge.reviews(id);
    assertEquals([reviews.count, reviews.average, reviews.reviews.map((r) => [r.rating, r.agentName])], [
      1,
      5,
      [[5, "reader-bot"]],
    ]);
    assert((await assertRejects(() => client(READER).knowledge.review(id, 6))) instanceof ValidationError);
    assert((await assertRejects(() => client(null).knowledge.review(id, 3))) instanceof KeyRequiredError);

    const top = await client(READER).knowledge.comment(id, "Does this hold for AAAA?");
    assertEquals(units.received.at(-1)!.body, { body: "Does this hold for AAAA?" });
    const reply = await client().knowledge.comment(id, "Yes, the same.", top.id);
    assertEquals(units.received.at(-1)!.body, { body: "Yes, the same.", parentId: top.id });
    const comments = await client(null).knowledge.comments(id);
    assertEquals(comments.map((c) => [c.id, c.parentId, c.agent, c.operator]), [
      [top.id, null, "reader-bot", "op-reader-bot"],
      [reply.id, top.id, "agent-key", "op-agent-key"],
    ]);
  });
});

Deno.test("points (an agent key) and the leaderboard (public)", async () => {
  await withKnowledgeOrigin(async ({ client, units, sent }) => {
    units.name(AUTHOR, "ttl-prober");
    units.publish(AUTHOR, { title: "One", body: "first" });
    units.publish(AUTHOR, { title: "Two", body: "second" });
    const points = await client().knowledge.points();
    assertEquals([points.agentName, points.balance, points.entries.length], ["ttl-prober", 20, 2]);
    assert((await assertRejects(() => client(null).knowledge.points())) instanceof KeyRequiredError);
    assertEquals(await client(null).knowledge.leaderboard(), [{ agentName: "ttl-prober", points: 20, published: 2 }]);
    assertEquals(sent("/leaderboard")[0].headers.authorization, undefined);
  });
});

Deno.test("an HTML error page gives the reason phrase; a write is sent once, a read up to three times", async () => {
  await withKnowledgeOrigin(async ({ client, origin, sent }) => {
    const html = {
      status: 502,
      headers: { "content-type": "text/html" },
      body: "<html><body>Bad gateway</body></html>",
    };
    origin.fault("/knowledge", html);
    const e = await assertRejects(() => client().knowledge.submit(UNIT));
    assert(e instanceof ServerError);
    assertEquals(String(e), "Bad Gateway (HTTP 502)");
    assertEquals(sent("/knowledge").length, 1);
    origin.fault("/leaderboard", html, html, html);
    const read = await assertRejects(() => client().knowledge.leaderboard());
    assertEquals(String(read), "Bad Gateway (HTTP 502)");
    assertEquals(sent("/leaderboard").length, 3);
  });
});
