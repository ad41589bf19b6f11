import {
  AuthError,
  ConflictError,
  KeyRequiredError,
  NotFoundError,
  RateLimitError,
  ServerError,
  SvcError,
  ValidationError,
} from "../../../mod.ts";
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../../support/assert.ts";
import { AGENT_KEY, withBoard } from "../../support/board_fixture.ts";
import { CLAIM_CODES } from "../../support/origin_account.ts";

Deno.test("account.claim: POST /agents/claim with {code, name, description}, no key needed; the answer as the API gives it", async () => {
  await withBoard(async ({ client, sent, account }) => {
    const answer = await client({ apiKey: null }).account.claim(CLAIM_CODES.valid, {
      name: "tide-reader.2",
      description: "reads tide gauges",
    });
    assertEquals(answer.status, "pending");
    assertMatch(answer.apiKey, /^km_[0-9a-f]{48}$/);
    assertEquals([answer.name, answer.operator, answer.confirmPhrase], [
      "tide-reader.2",
      "op-claims",
      "amber-harbour-42",
    ]);
    assertMatch(answer.approveUrl, /\/console\/agents\/approve\//);
    const [req] = sent("POST", "/agents/claim");
    assertEquals(JSON.parse(req.body), {
      code: CLAIM_CODES.valid,
      name: "tide-reader.2",
      description: "reads tide gauges",
    });
    assertEquals(req.headers.authorization, undefined, "no key configured, none sent");
    assertEquals(req.headers["content-type"], "application/json");
    assertEquals(account.claims.get(answer.apiKey)!.agent.status, "pending");

    account.codes.set("svcc_second001", { name: "second", operator: "op-claims", state: "valid" });
    await client({ apiKey: null }).account.claim("svcc_second001");
    assertEquals(
      JSON.parse(sent("POST", "/agents/claim")[1].body),
      { code: "svcc_second001" },
      "unset options are left out",
    );
  });
});

Deno.test("account.claim: wrong code 400 ValidationError, used 409 ConflictError, expired 410 and locked 423 plain SvcError; never retried", async () => {
  await withBoard(async ({ client, sent, origin }) => {
    const account = client({ apiKey: null }).account;
    const wrong = await assertRejects(() => account.claim("svcc_nope"), /^unknown claim code$/);
    assert(wrong instanceof ValidationError);
    assertEquals([(wrong as SvcError).status, (wrong as SvcError).code], [400, "bad_code"]);
    const used = await assertRejects(() => account.claim(CLAIM_CODES.used));
    assert(used instanceof ConflictError && used.status === 409);
    for (const [code, status] of [[CLAIM_CODES.expired, 410], [CLAIM_CODES.locked, 423]] as const) {
      const e = await assertRejects(() => account.claim(code)) as SvcError;
      assertEquals([e.constructor, e.status], [SvcError, status]);
    }
    assertEquals(
      String(await assertRejects(() => account.claim(CLAIM_CODES.expired))),
      "this claim code has expired (HTTP 410)",
    );
    const before = sent("POST", "/agents/claim").length;
    origin.fault("/agents/claim", { status: 503, body: "{}" });
    const e = await assertRejects(() => account.claim(CLAIM_CODES.valid));
    assert(e instanceof ServerError);
    assertEquals(sent("POST", "/agents/claim").length, before + 1, "a claim is never sent twice");
  });
});

Deno.test("account.claimStatus: the claimed key as the bearer over the client's own; no key at all is an AuthError before sending", async () => {
  await withBoard(async ({ client, sent, account }) => {
    const claimed = await client({ apiKey: null }).account.claim(CLAIM_CODES.valid);
    const status = await client().account.claimStatus(claimed.apiKey);
    assertEquals([status.status, status.name], ["pending", "tide-reader"]);
    assertEquals(sent("GET", "/agents/claim/status")[0].headers.authorization, `Bearer ${claimed.apiKey}`);
    account.decide(claimed.apiKey, "approved");
    const own = await client({ apiKey: claimed.apiKey }).account.claimStatus();
    assertEquals(own.status, "approved");
    assertEquals(sent("GET", "/agents/claim/status")[1].headers.authorization, `Bearer ${claimed.apiKey}`);
    for (const state of ["rejected", "expired", "replaced"] as const) {
      account.decide(claimed.apiKey, state);
      assertEquals((await client().account.claimStatus(claimed.apiKey)).status, state);
    }

    const before = sent("GET", "/agents/claim/status").length;
    const none = await assertRejects(
      () => client({ apiKey: null }).account.claimStatus(),
      /needs the key that claim answered/,
    );
    assert(none instanceof AuthError && none.status === null);
    assertEquals(sent("GET", "/agents/claim/status").length, before, "nothing sent");
    const unknown = await assertRejects(() => client().account.claimStatus("km_unknown"));
    assert(unknown instanceof AuthError && unknown.status === 401);
  });
});

Deno.test("account.register: POST /agents answers 410, an SvcError saying agents register with a claim code", async () => {
  await withBoard(async ({ client, sent }) => {
    for (const apiKey of [null, AGENT_KEY]) {
      const e = await assertRejects(() => client({ apiKey }).account.register()) as SvcError;
      assertEquals([e.constructor, e.status], [SvcError, 410]);
      assertMatch(e.message, /one-time claim code from its operator \(svc claim CODE/);
    }
    assertEquals(sent("POST", "/agents").length, 2);
  });
});

Deno.test("account.quota, earnings, listings: auth calls, answers unchanged (micro-USDC), listings' query", async () => {
  await withBoard(async ({ client, sent, account }) => {
    const quota = await client().account.quota();
    assertEquals(quota, account.quota as Json);
    assertEquals(quota.storage.limitBytes, 5 * 2 ** 30);
    const earnings = await client().account.earnings();
    assertEquals(earnings, account.earnings as Json);
    assertEquals(sent("GET", "/earnings")[0].headers.authorization, `Bearer ${AGENT_KEY}`);
    const byToken = await client({ apiKey: "oauth-token" }).account.earnings();
    assertEquals(byToken.payableMicro, 12_500_000, "an OAuth token is sent as the bearer like a key");
    assertEquals(sent("GET", "/earnings")[1].headers.authorization, "Bearer oauth-token");

    const all = await client().account.listings();
    assertEquals([all.total, all.units, all.datasets, all.page, all.per, all.pages], [4, 2, 2, 1, 20, 1]);
    const datasets = await client().account.listings({ q: "tides", kind: "dataset", page: 1, per: 5 });
    assertEquals(datasets.listings.map((l) => (l as Json).slug), ["north-sea-tides"]);
    assertEquals(sent("GET", "/listings")[1].path, "/listings?q=tides&kind=dataset&page=1&per=5");
    assertEquals(sent("GET", "/listings")[0].path, "/listings", "nothing asked, no query");
    const refused = await assertRejects(() => client().account.listings({ per: 51 }));
    assert(refused instanceof ValidationError);

    const before = sent("GET", "/quota").length + sent("GET", "/earnings").length + sent("GET", "/listings").length;
    for (
      const call of [() => client({ apiKey: null }).account.quota(), () => client({ apiKey: "" }).account.earnings()]
    ) {
      const e = await assertRejects(call);
      assert(e instanceof KeyRequiredError);
    }
    await assertRejects(() => client({ apiKey: null }).account.listings(), /^listings needs an agent key/);
    const after = sent("GET", "/quota").length + sent("GET", "/earnings").length + sent("GET", "/listings").length;
    assertEquals(after, before, "refused before sending");
  });
});

Deno.test("account reads: retried on 503 and 429 (Retry-After), an HTML error page gives the reason phrase, a 404 names the base URL", async () => {
  await withBoard(async ({ client, sent, origin }) => {
    origin.fault("/quota", { status: 503, body: "<html>down</html>" }, {
      status: 429,
      headers: { "retry-after": "0" },
      body: "{}",
    });
    assertEquals((await client().account.quota()).storage.usedBytes, Math.round(1.25 * 2 ** 30));
    assertEquals(sent("GET", "/quota").length, 3);
    origin.fault(
      "/earnings",
      ...Array(3).fill({ status: 502, headers: { "content-type": "text/html" }, body: "<html><h1>502</h1></html>" }),
    );
    const e = await assertRejects(() => client().account.earnings()) as SvcError;
    assertEquals(String(e), "Bad Gateway (HTTP 502)");
    origin.fault("/listings", {
      status: 429,
      headers: { "retry-after": "120" },
      body: '{"error":"slow down","retryAfter":120}',
    });
    const limited = await assertRejects(() => client().account.listings());
    assert(limited instanceof RateLimitError && limited.retryAfter === 120, "a wait over 30 s fails at once");
    origin.fault("/quota", { status: 404, body: '{"error":"Not found"}' });
    const gone = await assertRejects(() => client().account.quota());
    assert(gone instanceof NotFoundError && gone.asked === origin.url);
    origin.fault("/quota", { status: 200, headers: { "content-type": "text/html" }, body: "<html>login</html>" });
    await assertRejects(
      () => client().account.quota(),
      /answered with text\/html, not JSON — is this the SVC origin\?/,
    );
  });
});
