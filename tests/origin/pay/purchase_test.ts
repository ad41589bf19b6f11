import { assert, assertEquals, assertRejects, type Json } from "../../support/assert.ts";
import { PaymentRequiredError, SvcError } from "../../../src/client/errors.ts";
import { OriginClient as Client } from "../../../src/origin/mod.ts";
import { buy } from "../../../src/origin/pay/buy.ts";
import { x402Get } from "../../../src/origin/pay/purchase.ts";
import { decodeHeaderJson } from "../../../src/origin/pay/x402.ts";
import { assertNothingSigned, withPay } from "../../support/pay_fixture.ts";
import { PAY_TO, SEPOLIA_USDC, TEST_WALLET_ADDRESS, TEST_WALLET_KEY } from "../../support/pay_service.ts";

const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

Deno.test("buy pays a unit: one 402, one signed retry the service verified, the unit with its receipt as x402", async () => {
  await withPay(async (pay, client) => {
    const offers: Json[] = [];
    const unit = await buy(client, "ku_1", { onPay: (o) => offers.push(o) });
    assertEquals([unit.id, unit.title, unit.body], ["ku_1", "Notes on rivers", "Rivers run to the sea."]);
    assertEquals(unit.x402?.payer, TEST_WALLET_ADDRESS);
    assertEquals(unit.x402?.network, "eip155:84532");
    assertEquals(unit.x402?.transaction, pay.purchases[0].transaction);
    assertEquals(pay.seen.map((s) => s.path), ["/paid/knowledge?id=ku_1", "/paid/knowledge?id=ku_1"]);
    assertEquals(pay.signatures().length, 1);
    assertEquals([pay.payments.length, pay.refused], [1, []]);
    assertEquals(pay.payments[0].payer, TEST_WALLET_ADDRESS, "the signature recovers to the test wallet (ethers)");
    assertEquals(offers.map((o) => [o.amount, o.network, o.asset, o.payTo]), [[
      "100000",
      "eip155:84532",
      SEPOLIA_USDC,
      PAY_TO,
    ]]);
    const sent = decodeHeaderJson(String(pay.signatures()[0].headers["payment-signature"])) as Json;
    assertEquals(sent.x402Version, 2);
    assertEquals(sent.payload.authorization.value, "100000");
    assertEquals(sent.payload.authorization.to.toLowerCase(), PAY_TO.toLowerCase());
    assert(/^0x[0-9a-f]{64}$/.test(sent.payload.authorization.nonce), "a 32-byte nonce");
    assert(/^0x[0-9a-f]{130}$/.test(sent.payload.signature), "65 bytes of signature");
    const window = Number(sent.payload.authorization.validBefore) - Math.floor(Date.now() / 1000);
    assert(window > 250 && window <= 300, `validBefore is now + maxTimeoutSeconds (${window})`);
  });
});

Deno.test("the cap: a price equal to it is paid; one atomic unit over is refused and nothing is signed", async () => {
  await withPay(async (_pay, client) => {
    const unit = await buy(client, "ku_cap");
    assertEquals(unit.x402?.success, true, "$1.00 at the default cap of $1.00");
  });
  await withPay(async (pay, client) => {
    pay.units.set("ku_over", { title: "Over", body: "", amount: "1000001" });
    const e = await assertRejects(() => buy(client, "ku_over"));
    assert(e instanceof PaymentRequiredError);
    assertEquals(
      e.message,
      "refusing to pay: price 1.000001 USDC is over the cap of 1.00 USDC (raise it with " +
        "--max-price or SVC_MAX_PRICE)",
    );
    assertEquals([e.status, e.body], [null, null]);
    assertNothingSigned(pay);
    assertEquals(pay.seen.length, 1, "only the first GET went out");
    const raised = await buy(client, "ku_over", { maxPrice: "$1.000001" });
    assertEquals(raised.x402?.success, true);
  });
  await withPay(async (pay, client) => {
    await assertRejects(() => buy(client, "ku_1"), /over the cap of 0.09 USDC/);
    assertNothingSigned(pay);
  }, { env: { SVC_MAX_PRICE: "0.09" } });
});

Deno.test("refused before any request: no wallet key, a bad cap, an unknown network", async () => {
  await withPay(async (pay, client) => {
    const bare = new Client({ baseUrl: "http://127.0.0.1:9", payUrl: pay.url, env: {} });
    await assertRejects(() => buy(bare, "ku_1"), /^no wallet key: set SVC_WALLET_KEY/);
    await assertRejects(() => buy(client, "ku_1", { maxPrice: "NaN" }), /^invalid max price "NaN"/);
    await assertRejects(() => buy(client, "ku_1", { maxPrice: "-1" }), /^invalid max price/);
    await assertRejects(() => buy(client, "ku_1", { networks: "eip155:1" }), /^unknown network eip155:1/);
    assertEquals(pay.seen.length, 0, "nothing was asked of the pay service");
  });
});

Deno.test("a 402 for another asset, another network or a v1-only 402 is refused with its reason; nothing signed", async () => {
  await withPay(async (pay, client) => {
    pay.faults.offer = { asset: "0x1111111111111111111111111111111111111111" };
    const asset = await assertRejects(() => buy(client, "ku_1"), /is not that network's USDC/);
    assert(asset instanceof PaymentRequiredError);
    pay.faults.offer = { network: "eip155:8453", asset: BASE_USDC, extra: { name: "USD Coin", version: "2" } };
    await assertRejects(() => buy(client, "ku_1"), /network eip155:8453 is not allowed \(allowed: eip155:84532/);
    pay.faults.offer = null;
    pay.faults.v1Only = true;
    const v1 = await assertRejects(() => buy(client, "ku_1"), /^refusing to pay: network base-sepolia is not allowed/);
    assert(v1 instanceof PaymentRequiredError);
    assertNothingSigned(pay);
  });
});

Deno.test("a network opted in with SVC_X402_NETWORKS is paid in its own USDC, signed over its own domain", async () => {
  await withPay(async (pay, client) => {
    pay.faults.offer = { network: "eip155:8453", asset: BASE_USDC, extra: { name: "USD Coin", version: "2" } };
    const unit = await buy(client, "ku_1");
    assertEquals(unit.x402?.network, "eip155:8453");
    assertEquals(pay.payments[0].offer.network, "eip155:8453", "the service recovered the signer over chain 8453");
    pay.faults.offer = null;
    await assertRejects(() => buy(client, "ku_1"), /network eip155:84532 is not allowed/);
  }, { env: { SVC_X402_NETWORKS: "eip155:8453" } });
});

Deno.test("a failure after signing (a second 402) is a plain SvcError with the status, not PaymentRequiredError", async () => {
  await withPay(async (pay, client) => {
    pay.faults.settleError = "settlement failed: insufficient funds";
    const e = await assertRejects(() => buy(client, "ku_1"));
    assertEquals([e.constructor, e.message], [SvcError, "purchase failed: settlement failed: insufficient funds"]);
    assertEquals([(e as SvcError).status, (e as SvcError).body], [402, null]);
    assertEquals(pay.signatures().length, 1, "signed once, never again");
  });
});

Deno.test("the service checks the authorization's window against its clock: an expired one fails the purchase", async () => {
  await withPay(async (pay, client) => {
    pay.setClock(() => Date.now() + 3_600_000);
    await assertRejects(() => buy(client, "ku_1"), /^purchase failed: the authorization has expired$/);
    pay.setClock(() => Date.now() - 3_600_000);
    await assertRejects(() => buy(client, "ku_1"), /longer than maxTimeoutSeconds/);
    assertEquals(pay.refused, [
      "the authorization has expired",
      "the authorization lives longer than maxTimeoutSeconds",
    ]);
    pay.setClock(Date.now);
    assertEquals((await buy(client, "ku_1")).x402?.success, true);
  });
});

Deno.test("the service refuses a replayed nonce and an altered authorization (its checks can fail)", async () => {
  await withPay(async (pay, client) => {
    await buy(client, "ku_1");
    const header = String(pay.signatures()[0].headers["payment-signature"]);
    const replay = await fetch(`${pay.url}/paid/knowledge?id=ku_1`, { headers: { "payment-signature": header } });
    await replay.body?.cancel();
    assertEquals(replay.status, 402);
    const payload = decodeHeaderJson(header) as Json;
    payload.payload.authorization.nonce = `0x${"5".repeat(64)}`;
    const altered = btoa(JSON.stringify(payload));
    const res = await fetch(`${pay.url}/paid/knowledge?id=ku_1`, { headers: { "payment-signature": altered } });
    await res.body?.cancel();
    assertEquals(res.status, 402);
    assertEquals(pay.refused, ["the nonce was used already", "the signature is not from's"]);
  });
});

Deno.test("an HTML error page, an unknown unit, an unreachable or silent service: SvcError, nothing signed, no retry", async () => {
  await withPay(async (pay, client) => {
    pay.faults.htmlStatus = 502;
    const html = await assertRejects(() => buy(client, "ku_1"));
    assertEquals([html.message, (html as SvcError).status], ["purchase failed: Bad Gateway", 502]);
    assertEquals(pay.seen.length, 1, "a purchase is never retried");
    pay.faults.htmlStatus = null;
    const missing = await assertRejects(() => buy(client, "ku_none"));
    assertEquals([missing.message, (missing as SvcError).status], ["purchase failed: unit not found", 404]);
    assertNothingSigned(pay);
  });
  const closed = new Client({ payUrl: "http://127.0.0.1:9", env: { SVC_WALLET_KEY: TEST_WALLET_KEY } });
  await assertRejects(() => buy(closed, "ku_1"), /^cannot reach http:\/\/127.0.0.1:9: .* — check SVC_PAY_URL/);
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  try {
    const client = new Client({
      payUrl: `http://127.0.0.1:${silent.addr.port}`,
      env: { SVC_WALLET_KEY: TEST_WALLET_KEY },
    });
    await assertRejects(
      () => x402Get(client, "/paid/knowledge", { id: "x" }, { timeoutMs: 300 }),
      /did not answer within 0.3s/,
    );
  } finally {
    silent.close();
    for (const conn of held) conn.close();
    await accepting.catch(() => {});
  }
});

Deno.test("a redirect of the pay service is followed: paid once where it led, the key still nowhere", async () => {
  await withPay(async (pay, client) => {
    pay.faults.redirect = true;
    const unit = await buy(client, "ku_1");
    assertEquals(unit.x402?.success, true);
    assertEquals(pay.seen.map((s) => s.path), [
      "/paid/knowledge?id=ku_1",
      "/moved/paid/knowledge?id=ku_1",
      "/paid/knowledge?id=ku_1",
      "/moved/paid/knowledge?id=ku_1",
    ]);
    assertEquals(pay.payments.length, 1);
  });
});
