import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { join } from "node:path";
import { type CliRun, runCli } from "../../support/cli_process.ts";
import { type PaidOrigin, withPaidOrigin } from "../../support/paid_origin.ts";
import { assertNoSecrets } from "../../support/pay_fixture.ts";
import { TEST_WALLET_KEY } from "../../support/pay_service.ts";

/** Runs svc against the paid origin with the agent key and the test wallet; `env` adds or blanks variables. */
function svc(t: PaidOrigin, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, {
    SVC_BASE_URL: t.origin.url,
    SVC_API_KEY: "agent-key",
    SVC_PAY_URL: t.pay.url,
    SVC_WALLET_KEY: TEST_WALLET_KEY,
    SVC_MAX_PRICE: "",
    SVC_X402_NETWORKS: "",
    SVC_TRUST_FILE: join(t.scratch, "trust.json"),
    NO_COLOR: "1",
    ...env,
  });
}

/** All output of `runs`, for the secret checks. */
function printed(runs: CliRun[]): string {
  return runs.map((r) => r.stdout + r.stderr).join("\n");
}

Deno.test("svc buy ID --credits: paid $X ($Y given) or already yours, a hint to read it; 402 short exits 1", async () => {
  await withPaidOrigin(async (t) => {
    t.payments.units.set("ku_trial", { groupId: "g1", priceMicro: 100_000, trial: true });
    t.payments.units.set("ku_dear", { groupId: "g2", priceMicro: 9_000_000 });
    const first = await svc(t, ["buy", "ku_trial", "--credits"]);
    assertEquals([first.code, first.stdout], [0, "ku_trial  paid $0.10 ($0.10 given)\nread it: svc read ku_trial\n"]);
    const again = await svc(t, ["buy", "ku_trial", "--credits"]);
    assertEquals(again.stdout, "ku_trial  already yours\nread it: svc read ku_trial\n");
    const json = await svc(t, ["buy", "ku_trial", "--credits", "--json"]);
    assertEquals(JSON.parse(json.stdout).already, true);
    assert(json.stdout.startsWith('{\n  "id": "ku_trial",'), "pretty JSON, indent 2");
    const short = await svc(t, ["buy", "ku_dear", "--credits"]);
    assertEquals([short.code, short.stderr], [1, "error: not enough credits: top up (HTTP 402)\n"]);
    const usage = await svc(t, ["buy", "ku_trial", "--credits", "--max-price", "1"]);
    assertEquals(usage.code, 2);
    assertEquals((await svc(t, ["buy"])).code, 2);
    assertEquals(t.pay.seen.length, 0, "--credits never goes to the pay service");
  });
});

Deno.test("svc buy ID with the wallet: the paid line; over the cap, no wallet or v1 only: exit 1, nothing signed", async () => {
  await withPaidOrigin(async (t) => {
    t.pay.units.set("ku_1", { title: "Rivers", body: "Rivers run.", amount: "100000" });
    t.pay.units.set("ku_over", { title: "Dear", body: "", amount: "500001" });
    const runs: CliRun[] = [];
    const paid = await svc(t, ["buy", "ku_1"]);
    runs.push(paid);
    const tx = t.pay.purchases[0].transaction;
    assertEquals(
      [paid.code, paid.stdout],
      [0, `ku_1  paid $0.10 with x402 on eip155:84532 · transaction ${tx}\nread it: svc read ku_1\n`],
    );
    const over = await svc(t, ["buy", "ku_over", "--max-price", "0.50"]);
    runs.push(over);
    assertEquals([over.code, over.stdout], [1, ""]);
    assertEquals(
      over.stderr,
      "error: refusing to pay: price 0.500001 USDC is over the cap of 0.50 USDC (raise it with --max-price or " +
        "SVC_MAX_PRICE)\n",
    );
    const env = await svc(t, ["buy", "ku_over"], { SVC_MAX_PRICE: "0.5" });
    assertMatch(env.stderr, /over the cap of 0.50 USDC/);
    const none = await svc(t, ["buy", "ku_1"], { SVC_WALLET_KEY: "" });
    assertEquals(none.code, 1);
    assertMatch(none.stderr, /^error: no wallet key: set SVC_WALLET_KEY/);
    t.pay.faults.v1Only = true;
    const v1 = await svc(t, ["buy", "ku_1", "--json"]);
    runs.push(v1);
    assertEquals(v1.code, 1);
    assertMatch(v1.stderr, /^error: refusing to pay: network base-sepolia is not allowed/);
    assertEquals(t.pay.signatures().length, 1, "only the first purchase was signed");
    assertNoSecrets(t.pay, printed(runs));
  });
});

Deno.test("svc credits: the view's lines; --json; svc credits buy: credited $X → balance $Y", async () => {
  await withPaidOrigin(async (t) => {
    const view = await svc(t, ["credits"]);
    assertEquals(view.code, 0, view.stderr);
    assertEquals(
      view.stdout,
      "balance  $2.00 paid · $0.50 given · $2.50 spendable\n" +
        "given    $0.50 of $10.00 (welcome) until 2027-02-01\n" +
        "prices   egress $0.05/GB · storage $0.02/GiB-month · credit pack $1.00\n" +
        `top up   svc credits buy (x402: ${t.pay.url}/paid/credits?operator=op_test)\n` +
        "ledger (latest first):\n" +
        "  2026-11-01T00:00:00Z  welcome    +$10.00 ($10.00 given)\n",
    );
    const json = await svc(t, ["credits", "--json"]);
    assertEquals(JSON.parse(json.stdout).operatorId, "op_test");
    const bought = await svc(t, ["credits", "buy"]);
    assertEquals([bought.code, bought.stdout], [0, "credited $1.00 → balance $1.00\n"]);
    const capped = await svc(t, ["credits", "buy", "--max-price", "0.99"]);
    assertEquals(capped.code, 1);
    assertMatch(capped.stderr, /^error: refusing to pay: price 1.00 USDC is over the cap of 0.99 USDC/);
    assertEquals((await svc(t, ["credits", "sell"])).code, 2);
    assertEquals((await svc(t, ["credits", "--max-price", "1"])).code, 2);
    const keyless = await svc(t, ["credits"], { SVC_API_KEY: "" });
    assertEquals(keyless.code, 1);
    assertMatch(keyless.stderr, /^error: svc credits needs an agent key/);
    assertNoSecrets(t.pay, printed([view, bought, capped]));
  });
});

Deno.test("svc purchases and svc dispute: the history, a dispute opened, --reason required, --status", async () => {
  await withPaidOrigin(async (t) => {
    t.pay.units.set("ku_1", { title: "Rivers", body: "Rivers run.", amount: "100000" });
    const runs = [await svc(t, ["buy", "ku_1"]), await svc(t, ["buy", "ku_1"])];
    const [older, newer] = t.pay.purchases;
    const list = await svc(t, ["purchases"]);
    runs.push(list);
    assertEquals(list.code, 0, list.stderr);
    const line = (p: Json) =>
      `${p.createdAt}  unit ku_1 (Rivers)  $0.10  settled  ${p.transaction}  disputable until ${
        p.disputeUntil.slice(0, 10)
      }`;
    assertEquals(list.stdout, `${line(newer)}\n${line(older)}\n`);
    const page = await svc(t, ["purchases", "--limit", "1"]);
    assertEquals(page.stdout, `${line(newer)}\nmore: svc purchases --before pur_2\n`);
    const rest = await svc(t, ["purchases", "--limit", "1", "--before", "pur_2", "--json"]);
    assertEquals(JSON.parse(rest.stdout).purchases.map((p: Json) => p.id), ["pur_1"]);
    const noReason = await svc(t, ["dispute", older.transaction]);
    assertEquals([noReason.code, noReason.stderr], [
      1,
      "error: --reason is required to open a dispute (svc dispute TRANSACTION --reason TEXT)\n",
    ]);
    const opened = await svc(t, ["dispute", older.transaction, "--reason", "the body was one line"]);
    runs.push(opened);
    assertEquals([opened.code, opened.stdout], [0, "dispute dsp_1 open: unit $0.10 (svc dispute --status dsp_1)\n"]);
    const twice = await svc(t, ["dispute", older.transaction, "--reason", "again"]);
    assertEquals([twice.code, twice.stderr], [1, "error: already disputed (HTTP 409)\n"]);
    const status = await svc(t, ["dispute", "--status", "dsp_1"]);
    assertEquals(
      status.stdout,
      `dispute dsp_1: open · unit $0.10\n  transaction ${older.transaction}\n  reason      the body was one line\n`,
    );
    const missing = await svc(t, ["dispute", "--status", "dsp_9"]);
    assertEquals([missing.code, missing.stderr], [1, `error: dispute not found (HTTP 404) — asked ${t.pay.url}\n`]);
    const bad = await svc(t, ["dispute", "0x12", "--reason", "nope"]);
    assertEquals(bad.code, 1);
    assertMatch(bad.stderr, /^error: "0x12" is not a transaction hash/);
    assertEquals((await svc(t, ["dispute"])).code, 2);
    t.pay.faults.tamperStatement = true;
    const tampered = await svc(t, ["purchases"]);
    assertEquals([tampered.code, tampered.stderr], [
      1,
      "error: the pay service's statement is not the expected text; refusing to sign\n",
    ]);
    assertNoSecrets(t.pay, printed(runs));
  });
});

Deno.test("svc pull --credits / --paid and svc save --paid: what was bought on stderr, then the pull's line", async () => {
  await withPaidOrigin(async (t) => {
    t.payments.paidProjects.set("cities", { priceMicro: 250_000, latest: 2 });
    const a = join(t.scratch, "a");
    const walled = await svc(t, ["pull", "cities", "--store", a, "--no-progress"]);
    assertEquals([walled.code, walled.stderr], [1, "error: cities v2 is a paid dataset: buy it first (HTTP 402)\n"]);
    const credits = await svc(t, ["pull", "cities", "--credits", "--store", a, "--no-progress"]);
    assertEquals(credits.code, 0, credits.stderr);
    assertEquals(credits.stderr, "bought: cities v2 with credits (0.25 USDC) · balance 1.75 USDC\n");
    assertMatch(
      credits.stdout,
      /^cities v2: 600 record\(s\) in 3 part\(s\) → .*\/cities\/parts\/ \(3 part\(s\) downloaded\) · /,
    );
    const again = await svc(t, ["pull", "cities", "--credits", "--store", a, "--no-progress"]);
    assertEquals(again.stderr, "already yours: cities v2 with credits (0.00 USDC) · balance 1.75 USDC\n");

    const b = join(t.scratch, "b");
    const paid = await svc(t, ["pull", "cities@1", "--paid", "--store", b, "--no-progress"]);
    assertEquals(paid.code, 0, paid.stderr);
    const tx = t.pay.purchases[0].transaction;
    assertEquals(paid.stderr, `paid: cities v1 with x402 (0.25 USDC on eip155:84532) · transaction ${tx}\n`);
    assertMatch(paid.stdout, /^cities v1: 250 record\(s\) in 2 part\(s\) → .* \(2 part\(s\) downloaded\)/);
    const held = await svc(t, ["pull", "cities@1", "--paid", "--store", b, "--no-progress"]);
    assertEquals(held.stderr, "already held: cities v1 (not bought again)\n");
    const capped = await svc(t, ["pull", "cities", "--paid", "--max-price", "0.2", "--store", b, "--no-progress"]);
    assertEquals(capped.code, 1);
    assertMatch(capped.stderr, /over the cap of 0.20 USDC/);

    const c = join(t.scratch, "c");
    const file = join(t.scratch, "cities.svc");
    const saved = await svc(t, ["save", "cities@2", "--paid", "--store", c, "-o", file, "--no-progress"]);
    assertEquals(saved.code, 0, saved.stderr);
    assertMatch(
      saved.stderr,
      /^paid: cities v2 with x402 \(0.25 USDC on eip155:84532\) · transaction 0x[0-9a-f]{64}\n$/,
    );
    assertEquals(saved.stdout, `cities v2: 600 records in 3 parts -> ${file}\n`);
    assertEquals(t.pay.payments.length, 2);
    for (const args of [["--paid", "--credits"], ["--max-price", "1"], ["--paid", "--format", "jsonl"]]) {
      assertEquals((await svc(t, ["pull", "cities", "--store", c, ...args])).code, 2, args.join(" "));
    }
    assertNoSecrets(t.pay, printed([credits, paid, held, saved]));
  });
});
