import { assert, assertEquals, assertRejects, type Json } from "../../support/assert.ts";
import { KeyRequiredError, type SvcError } from "../../../src/client/errors.ts";
import { OriginClient as Client } from "../../../src/origin/mod.ts";
import { buyCredits, buyDataset } from "../../../src/origin/pay/buy.ts";
import { beyondProbe } from "../../support/origin.ts";
import { withPaidOrigin } from "../../support/paid_origin.ts";
import { TEST_WALLET_KEY } from "../../support/pay_service.ts";

Deno.test("buyDataset: the manifest with part URLs, urlExpiresAt, paid and x402; the newest without a version", async () => {
  await withPaidOrigin(async ({ pay, client }) => {
    const manifest = await buyDataset(client, "cities", 1);
    assertEquals([manifest.project, manifest.version, manifest.parts.length, manifest.paid], ["cities", 1, 2, true]);
    assert(manifest.parts.every((p) => typeof p.url === "string"), "part URLs to download");
    assert(typeof manifest.urlExpiresAt === "string");
    assertEquals(manifest.x402?.transaction, pay.purchases[0].transaction);
    assertEquals(pay.purchases[0].dataset, { slug: "cities", version: 1 });
    assertEquals(pay.seen[0].path, "/paid/dataset?slug=cities&version=1");
    const newest = await buyDataset(client, "cities");
    assertEquals(newest.version, 2);
    assertEquals(pay.seen.at(-1)!.path, "/paid/dataset?slug=cities");
    await assertRejects(() => buyDataset(client, "Not A Slug"), /is not a project slug/);
    await assertRejects(() => buyDataset(client, "cities", 7), /^purchase failed: dataset version not found$/);
    assertEquals(pay.payments.length, 2);
  });
});

Deno.test("buyCredits: the operator read from GET /credits with the key (origin only), the pack bought with x402", async () => {
  await withPaidOrigin(async ({ origin, pay, client }) => {
    const pack = await buyCredits(client);
    assertEquals([pack.operatorId, pack.creditedMicro, pack.balanceMicro, pack.paid], [
      "op_test",
      1_000_000,
      1_000_000,
      true,
    ]);
    assertEquals(pack.x402?.success, true);
    assertEquals(pay.seen[0].path, "/paid/credits?operator=op_test");
    const credits = origin.seen.filter((s) => s.path === "/credits");
    assertEquals(credits.length, 1);
    assertEquals(credits[0].headers.authorization, "Bearer agent-key");
    await buyCredits(client, { operatorId: "op_other" });
    assertEquals(origin.seen.filter((s) => s.path === "/credits").length, 1, "a given operator needs no lookup");
    const over = await assertRejects(() => buyCredits(client, { maxPrice: "0.99" }), /over the cap of 0.99 USDC/);
    assertEquals((over as SvcError).status, null);
  });
});

Deno.test("buyCredits without an agent key refuses before anything is sent to either service", async () => {
  await withPaidOrigin(async ({ origin, pay }) => {
    const keyless = new Client({ baseUrl: origin.url, payUrl: pay.url, env: { SVC_WALLET_KEY: TEST_WALLET_KEY } });
    const before = beyondProbe(origin.seen).length;
    const e = await assertRejects(() => buyCredits(keyless));
    assert(e instanceof KeyRequiredError, String(e));
    assertEquals([beyondProbe(origin.seen).length, pay.seen.length], [before, 0], "nothing but the node probe");
    const ok: Json = await buyCredits(keyless, { operatorId: "op_test" });
    assertEquals(ok.operatorId, "op_test");
  });
});
