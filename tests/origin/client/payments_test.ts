import { assert, assertEquals, assertRejects, type Json } from "../../support/assert.ts";
import { OriginClient as Client } from "../../../src/origin/mod.ts";
import {
  ConflictError,
  KeyRequiredError,
  NotFoundError,
  PaymentRequiredError,
  ServerError,
  type SvcError,
} from "../../../src/client/errors.ts";
import { beyondProbe, startOrigin, type TestOrigin } from "../../support/origin.ts";
import type { PaymentsControls } from "../../support/origin_payments.ts";
import { startPayService } from "../../support/pay_service.ts";
import { citiesStore, tempDir } from "../../support/store_fixture.ts";

/** Runs `fn` with a test origin over the cities store, its payments controls and a keyed client. */
async function withOrigin(fn: (origin: TestOrigin, payments: PaymentsControls, client: Client) => Promise<void>) {
  const store = await tempDir();
  await citiesStore(store.path);
  const origin = await startOrigin({ store: store.path });
  try {
    const payments = origin.app!.areas.payments.controls as PaymentsControls;
    payments.payUrl = "http://pay.example";
    payments.units.set("ku_trial", { groupId: "g_trial", priceMicro: 100_000, trial: true });
    payments.units.set("ku_paid", { groupId: "g_paid", priceMicro: 300_000 });
    payments.units.set("ku_free", { groupId: "g_free", priceMicro: null });
    payments.units.set("ku_mine", { groupId: "g_mine", priceMicro: 100_000, own: true });
    payments.units.set("ku_dear", { groupId: "g_dear", priceMicro: 9_000_000 });
    await fn(origin, payments, new Client({ baseUrl: origin.url, apiKey: "agent-key", retries: 0 }));
  } finally {
    await origin.close();
    await store.cleanup();
  }
}

Deno.test("credits(): GET /credits with the key; without one, refused before sending", async () => {
  await withOrigin(async (origin, _payments, client) => {
    const view = await client.payments.credits();
    assertEquals([view.operatorId, view.balanceMicro, view.grantMicro, view.spendableMicro], [
      "op_test",
      2_000_000,
      500_000,
      2_500_000,
    ]);
    assertEquals(view.topup, "http://pay.example/paid/credits?operator=op_test");
    assertEquals(view.prices.packMicro, 1_000_000);
    const keyless = new Client({ baseUrl: origin.url });
    const before = beyondProbe(origin.seen).length;
    assert((await assertRejects(() => keyless.payments.credits())) instanceof KeyRequiredError);
    assertEquals(beyondProbe(origin.seen).length, before, "nothing but the node probe was sent");
  });
});

Deno.test("buyWithCredits: POST /knowledge/{id}/buy with {}; given credits first on a trial listing; already yours", async () => {
  await withOrigin(async (origin, payments, client) => {
    const trial = await client.payments.buyWithCredits("ku_trial");
    assertEquals(trial, {
      id: "ku_trial",
      groupId: "g_trial",
      already: false,
      chargedMicro: 100_000,
      grantMicro: 100_000,
      paidMicro: 0,
      balanceMicro: 2_000_000,
      authorPoints: 10,
    });
    const sent = origin.seen.at(-1)!;
    assertEquals([sent.method, sent.path, sent.body], ["POST", "/knowledge/ku_trial/buy", "{}"]);
    assertEquals(sent.headers.authorization, "Bearer agent-key");
    const paid = await client.payments.buyWithCredits("ku_paid");
    assertEquals([paid.grantMicro, paid.paidMicro, paid.balanceMicro], [0, 300_000, 1_700_000]);
    const again = await client.payments.buyWithCredits("ku_paid");
    assertEquals([again.already, again.chargedMicro, again.balanceMicro], [true, 0, 1_700_000]);
    assertEquals(payments.account.ledger[0].amountMicro, -300_000);
  });
});

Deno.test("buyWithCredits refusals: 409 no price or one's own, 404 unknown, 402 short with the figures and top-up URL", async () => {
  await withOrigin(async (_origin, _payments, client) => {
    assert(
      (await assertRejects(() => client.payments.buyWithCredits("ku_free"), /no seller price/)) instanceof
        ConflictError,
    );
    assert((await assertRejects(() => client.payments.buyWithCredits("ku_mine"), /your own/)) instanceof ConflictError);
    assert((await assertRejects(() => client.payments.buyWithCredits("ku_none"))) instanceof NotFoundError);
    const short = await assertRejects(() => client.payments.buyWithCredits("ku_dear"));
    assert(short instanceof PaymentRequiredError);
    assertEquals([short.status, short.message], [402, "not enough credits: top up"]);
    assertEquals(short.payUrl, "http://pay.example/paid/credits?operator=op_test");
    assertEquals(short.credits, { priceMicro: 9_000_000, balanceMicro: 2_000_000 });
    assertEquals((short.body as Json).topup, short.payUrl);
  });
});

Deno.test("buyWithCredits is never retried, and a redirect from the origin is not followed", async () => {
  await withOrigin(async (origin) => {
    const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });
    origin.fault("/knowledge/ku_paid/buy", { status: 503, body: "{}" });
    assert((await assertRejects(() => client.payments.buyWithCredits("ku_paid"))) instanceof ServerError);
    assertEquals(origin.seen.filter((s) => s.path === "/knowledge/ku_paid/buy").length, 1);
    origin.fault("/knowledge/ku_paid/buy", { status: 302, headers: { location: "https://elsewhere.example/x" } });
    const moved = await assertRejects(
      () => client.payments.buyWithCredits("ku_paid"),
      /redirected to https:\/\/elsewhere/,
    );
    assertEquals((moved as SvcError).status, 302);
  });
});

Deno.test("projects.buy (buyDatasetWithCredits): {version} or {}; the paid dataset's manifest answers 402 until bought", async () => {
  await withOrigin(async (origin, payments, client) => {
    payments.paidProjects.set("cities", { priceMicro: 250_000, latest: 2 });
    const wall = await assertRejects(() => client.manifest("cities", 1));
    assert(wall instanceof PaymentRequiredError);
    assertEquals([wall.status, wall.price, wall.payUrl], [
      402,
      "$0.25",
      "http://pay.example/paid/dataset?slug=cities&version=1",
    ]);
    assertEquals(wall.credits, {
      buy: "POST /projects/cities/buy",
      priceMicro: 250_000,
      note: "or svc pull --credits",
    });
    const bought = await client.payments.buyDatasetWithCredits("cities", 1);
    assertEquals(bought, {
      project: "cities",
      version: 1,
      already: false,
      chargedMicro: 250_000,
      balanceMicro: 1_750_000,
    });
    assertEquals(origin.seen.at(-1)!.body, '{"version":1}');
    assertEquals((await client.manifest("cities", 1)).version, 1, "bought: the manifest comes");
    await assertRejects(() => client.data("cities"), /cities v2 is a paid dataset/);
    const newest = await client.payments.buyDatasetWithCredits("cities");
    assertEquals([newest.version, newest.already, origin.seen.at(-1)!.body], [2, false, "{}"]);
    assertEquals((await client.payments.buyDatasetWithCredits("cities", 2)).already, true);
    assert((await assertRejects(() => client.payments.buyDatasetWithCredits("cities", 9))) instanceof NotFoundError);
    payments.account.balanceMicro = 1;
    payments.paidProjects.set("dear", { priceMicro: 5_000_000, latest: 1 });
    const short = await assertRejects(() => client.payments.buyDatasetWithCredits("dear"));
    assert(short instanceof PaymentRequiredError);
    assertEquals(short.credits, { priceMicro: 5_000_000, balanceMicro: 1 });
  });
});

Deno.test("pay-service calls go with no key and no svc user agent, GETs retried on an HTML 502, 404s mapped", async () => {
  const pay = await startPayService();
  try {
    const client = new Client({
      baseUrl: "https://origin.example",
      apiKey: "agent-key",
      payUrl: `${pay.url}/`,
      env: {},
    });
    assertEquals(client.payUrl, pay.url);
    const answer = await client.payments.purchaseStatement("0xabc");
    assertEquals(answer.statement.split("\n")[0], "SVC purchase history");
    assert((await assertRejects(() => client.payments.dispute("dsp_9"))) instanceof NotFoundError);
    pay.faults.htmlStatus = 502;
    const e = await assertRejects(() => client.payments.disputeStatement(`0x${"a".repeat(64)}`, "0xabc"));
    assertEquals([e instanceof ServerError, String(e)], [true, "Bad Gateway (HTTP 502)"]);
    assertEquals(pay.seen.filter((s) => s.path.startsWith("/disputes/statement")).length, 3, "2 retries");
    const posted = await assertRejects(() =>
      client.payments.openDispute({ transaction: "0x", reason: "r", wallet: "0x", time: 1, signature: "0x" })
    );
    assertEquals((posted as SvcError).status, 502);
    assertEquals(pay.seen.filter((s) => s.method === "POST").length, 1, "a POST /disputes is never retried");
    assert(pay.seen.every((s) => s.headers.authorization === undefined && !JSON.stringify(s).includes("agent-key")));
    assert(pay.seen.every((s) => !String(s.headers["user-agent"]).startsWith("svc-sdk")));
  } finally {
    await pay.close();
  }
});

Deno.test("the pay URL: SVC_PAY_URL, else localhost:3001 for a loopback base, else the base; slashes stripped", () => {
  const pay = (baseUrl: string, env: Record<string, string> = {}) => new Client({ baseUrl, env }).payUrl;
  assertEquals(pay("http://localhost:3000"), "http://localhost:3001");
  assertEquals(pay("http://127.0.0.1:8686"), "http://localhost:3001");
  assertEquals(pay("http://[::1]:3000/"), "http://localhost:3001");
  assertEquals(pay("https://origin.example/"), "https://origin.example");
  assertEquals(pay("http://127.0.0.2:3000"), "http://127.0.0.2:3000");
  assertEquals(pay("https://origin.example", { SVC_PAY_URL: "https://pay.example//" }), "https://pay.example");
  assertEquals(
    pay("http://localhost:3000", { SVC_PAY_URL: "" }),
    "http://localhost:3001",
    "an empty variable is unset",
  );
  assertEquals(new Client({ baseUrl: "https://o.example", payUrl: "https://p.example/" }).payUrl, "https://p.example");
});
