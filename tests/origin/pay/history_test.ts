import { assert, assertEquals, assertRejects } from "../../support/assert.ts";
import { AuthError, ConflictError, NotFoundError, SvcError, ValidationError } from "../../../src/client/errors.ts";
import { buy } from "../../../src/origin/pay/buy.ts";
import { disputeStatus, openDispute, purchases } from "../../../src/origin/pay/history.ts";
import { historyText, originOf } from "../../support/pay_verify.ts";
import { withPay } from "../../support/pay_fixture.ts";
import { TEST_WALLET_ADDRESS } from "../../support/pay_service.ts";

const WALLET = TEST_WALLET_ADDRESS.toLowerCase();
const T0 = 1_800_000_000_000;

Deno.test("purchases: the statement checked and signed, only address, time and signature sent; pages by --before", async () => {
  await withPay(async (pay, client) => {
    await buy(client, "ku_1");
    await buy(client, "ku_cap");
    const page = await purchases(client);
    assertEquals(page.wallet, WALLET);
    assertEquals(page.purchases.map((p) => p.unit?.id), ["ku_cap", "ku_1"], "newest first");
    assertEquals(page.purchases[1].price, "$0.10");
    assertEquals([page.purchases[1].amountMicro, page.purchases[1].status, page.next], [100_000, "settled", null]);
    const asked = pay.seen.filter((s) => s.path.startsWith("/purchases"));
    assertEquals(asked.map((s) => s.path), [`/purchases/statement?wallet=${WALLET}`, "/purchases?limit=50"]);
    assertEquals(asked[1].headers["x-svc-wallet"], WALLET);
    assertEquals(asked[1].body, "");
    const first = await purchases(client, { limit: 1 });
    assertEquals([first.purchases.map((p) => p.unit?.id), first.next], [["ku_cap"], "pur_2"]);
    const second = await purchases(client, { limit: 1, before: first.next! });
    assertEquals([second.purchases.map((p) => p.unit?.id), second.next], [["ku_1"], null]);
  });
});

Deno.test("a statement one byte off, or 301 s off the clock, is never signed; 299 s is", async () => {
  await withPay(async (pay, client) => {
    pay.faults.tamperStatement = true;
    const e = await assertRejects(
      () => purchases(client, { now: () => T0 }),
      /not the expected text; refusing to sign/,
    );
    assert(e instanceof SvcError);
    pay.faults.tamperStatement = false;
    await assertRejects(() => purchases(client, { now: () => T0 + 301_000 }), /301 s from this machine's clock/);
    await assertRejects(() => purchases(client, { now: () => T0 - 301_000 }), /check the clock/);
    assertEquals(pay.seen.filter((s) => s.path.startsWith("/purchases?")).length, 0, "nothing signed was sent");
    assertEquals((await purchases(client, { now: () => T0 + 299_000 })).purchases, []);
    pay.faults.statementSkewS = 301;
    await assertRejects(() => purchases(client, { now: () => T0 }), /301 s from/);
  }, { now: () => T0 });
});

Deno.test("the service takes only the wallet's signature of that very statement (401 otherwise)", async () => {
  await withPay(async (pay) => {
    const time = Math.floor(Date.now() / 1000);
    const headers = { "x-svc-wallet": WALLET, "x-svc-time": String(time), "x-svc-signature": `0x${"1b".repeat(65)}` };
    const bad = await fetch(`${pay.url}/purchases`, { headers });
    assertEquals([bad.status, (await bad.json()).error], [401, "bad signature"]);
    assertEquals(historyText(WALLET, originOf(pay.url), time).split("\n")[2], `origin: ${pay.url}`);
  });
});

Deno.test("disputes: opened within 7 days by the paying wallet; 409 again, 404 unknown or too old, 400 short reason", async () => {
  let now = Date.now();
  await withPay(async (pay, client) => {
    const bought = await buy(client, "ku_1");
    const tx = bought.x402!.transaction;
    const opened = await openDispute(client, tx.toUpperCase().replace("0X", "0x"), "the body was empty", {
      now: () => now,
    });
    assertEquals(opened, { id: "dsp_1", status: "open", kind: "unit", amountMicro: 100_000 });
    const sent = JSON.parse(pay.seen.at(-1)!.body);
    assertEquals(Object.keys(sent).sort(), ["reason", "signature", "time", "transaction", "wallet"]);
    assertEquals([sent.transaction, sent.wallet], [tx, WALLET]);
    const again = await assertRejects(() => openDispute(client, tx, "again please", { now: () => now }));
    assert(again instanceof ConflictError);
    const unknown = await assertRejects(() => openDispute(client, `0x${"9".repeat(64)}`, "who?", { now: () => now }));
    assert(unknown instanceof NotFoundError);
    const short = await assertRejects(() => openDispute(client, tx, "no", { now: () => now }));
    assert(short instanceof ValidationError);
    const status = await disputeStatus(client, "dsp_1");
    assertEquals([status.status, status.transaction, status.reason], ["open", tx, "the body was empty"]);
    assert((await assertRejects(() => disputeStatus(client, "dsp_9"))) instanceof NotFoundError);

    const old = await buy(client, "ku_cap");
    now += 7 * 86_400_000 + 1000;
    const late = await assertRejects(() => openDispute(client, old.x402!.transaction, "too late", { now: () => now }));
    assert(late instanceof NotFoundError);
    assert(/more than 7 days/.test(late.message));
  }, { now: () => now });
});

Deno.test("a bad transaction hash, a blank reason or a tampered dispute statement: refused, nothing signed or sent", async () => {
  await withPay(async (pay, client) => {
    await assertRejects(() => openDispute(client, "0x1234", "reason"), /is not a transaction hash/);
    await assertRejects(() => openDispute(client, `0x${"a".repeat(64)}`, "  "), /needs a reason/);
    assertEquals(pay.seen.length, 0);
    pay.faults.tamperStatement = true;
    await assertRejects(() => openDispute(client, `0x${"a".repeat(64)}`, "reason"), /not the expected text/);
    assertEquals(pay.seen.map((s) => s.method), ["GET"], "no POST /disputes");
    pay.faults.tamperStatement = false;
    pay.faults.htmlStatus = 401;
    const e = await assertRejects(() => purchases(client));
    assert(e instanceof AuthError);
  });
});
