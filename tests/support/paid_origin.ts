/**
 * A test origin over the cities store (manifests signed) beside a test pay
 * service that sells its versions: the pay service reads each manifest from
 * the origin as the real one would, with the origin's own agent key, so the
 * client never sends it there.
 *
 * @module
 */
import { OriginClient as Client } from "../../src/origin/mod.ts";
import { assert } from "./assert.ts";
import { startOrigin, type TestOrigin } from "./origin.ts";
import type { PaymentsControls } from "./origin_payments.ts";
import { assertNoSecrets } from "./pay_fixture.ts";
import { type PayService, startPayService, TEST_WALLET_KEY } from "./pay_service.ts";
import { citiesStore, tempDir } from "./store_fixture.ts";

/** The seed of the origin's signing key. */
export const ORIGIN_SEED = "11".repeat(32);
/** The key the pay service uses on the origin (never a client's). */
const SERVICE_KEY = "pay-service-key";

/** What a paid-dataset test works with. */
export interface PaidOrigin {
  /** The origin. */
  origin: TestOrigin;
  /** Its payments area's controls. */
  payments: PaymentsControls;
  /** The pay service. */
  pay: PayService;
  /** A client of both, with the agent key and the test wallet. */
  client: Client;
  /** A scratch folder for stores. */
  scratch: string;
}

/** Runs `fn` with the cities origin, its pay service and a scratch folder; removes all after. */
export async function withPaidOrigin(fn: (t: PaidOrigin) => Promise<void>): Promise<void> {
  const store = await tempDir();
  const scratch = await tempDir();
  await citiesStore(store.path);
  const origin = await startOrigin({ store: store.path, seed: ORIGIN_SEED, agentKeys: ["agent-key", SERVICE_KEY] });
  const pay = await startPayService({
    dataset: async (slug, version) => {
      const res = await fetch(
        `${origin.url}/projects/${slug}/manifest${version === null ? "" : `?version=${version}`}`,
        {
          headers: { authorization: `Bearer ${SERVICE_KEY}` },
        },
      );
      return res.ok ? await res.json() : (await res.body?.cancel(), null);
    },
  });
  const payments = origin.app!.areas.payments.controls as PaymentsControls;
  payments.payUrl = pay.url;
  payments.sellerKeys.add(SERVICE_KEY);
  try {
    const client = new Client({
      baseUrl: origin.url,
      apiKey: "agent-key",
      payUrl: pay.url,
      env: { SVC_WALLET_KEY: TEST_WALLET_KEY },
    });
    await fn({ origin, payments, pay, client, scratch: scratch.path });
    assertNoSecrets(pay);
    const atOrigin = origin.seen.map((s) => `${s.path}\n${JSON.stringify(s.headers)}\n${s.body}`).join("\n");
    assert(!atOrigin.toLowerCase().includes(TEST_WALLET_KEY.slice(2)), "the origin never saw the wallet key");
  } finally {
    await pay.close();
    await origin.close();
    await store.cleanup();
    await scratch.cleanup();
  }
}
