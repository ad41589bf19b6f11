import { assert, assertEquals, assertRejects, type Json } from "../../support/assert.ts";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pullPaid } from "../../../src/origin/pay/pull_paid.ts";
import { trustFileText } from "../../support/signing.ts";
import { ORIGIN_SEED, withPaidOrigin } from "../../support/paid_origin.ts";

Deno.test("pullPaid buys and pulls; the manifest on disk drops urlExpiresAt, paid and x402; signed and verified", async () => {
  await withPaidOrigin(async ({ origin, pay, client, scratch }) => {
    const store = join(scratch, "store");
    const trustFile = join(scratch, "trust.json");
    await writeFile(trustFile, await trustFileText(origin.url, ORIGIN_SEED));
    const trust = { trustFile, origin: origin.url, required: true };
    const pulled = await pullPaid(client, "cities", { store, version: 2, trust });
    assertEquals([pulled.version, pulled.records, pulled.parts, pulled.downloaded], [2, 600, 3, 3]);
    assertEquals([pulled.paid, pulled.signature, pulled.signedBy], [true, "verified", origin.url]);
    assertEquals(pulled.x402?.transaction, pay.purchases[0].transaction);
    const onDisk: Json = JSON.parse(await readFile(join(store, "cities", "v2", "manifest.json"), "utf8"));
    assertEquals([onDisk.urlExpiresAt, onDisk.paid, onDisk.x402, onDisk.verified], [
      undefined,
      undefined,
      undefined,
      true,
    ]);
    assert(onDisk.parts.every((p: Json) => p.url === undefined));
    assertEquals(
      origin.seen.filter((s) => s.path.includes("/manifest") && s.headers.authorization === "Bearer agent-key").length,
      0,
      "the manifest came from the purchase, not from the origin with the client's key",
    );
  });
});

Deno.test("pullPaid: a pinned version already whole is not bought again; without a version the newest is always bought", async () => {
  await withPaidOrigin(async ({ pay, client, scratch }) => {
    const store = join(scratch, "store");
    await pullPaid(client, "cities", { store, version: 1 });
    const again = await pullPaid(client, "cities", { store, version: 1 });
    assertEquals([again.paid, again.x402, again.downloaded, again.records, again.parts], [false, null, 0, 250, 2]);
    assertEquals(pay.payments.length, 1);
    const newest = await pullPaid(client, "cities", { store });
    assertEquals([newest.version, newest.paid], [2, true]);
    const once_more = await pullPaid(client, "cities", { store });
    assertEquals([once_more.paid, once_more.downloaded], [true, 0], "bought again, nothing to download");
    assertEquals(pay.payments.length, 3);
    const held = await pullPaid(client, "cities", { store, version: 2, maxPrice: "0.01" });
    assertEquals(held.paid, false, "held whole: no purchase, so no cap to pass");
    const other = join(scratch, "other");
    await assertRejects(
      () => pullPaid(client, "cities", { store: other, version: 2, maxPrice: "0.01" }),
      /over the cap/,
    );
    assertEquals(pay.payments.length, 3);
  });
});
