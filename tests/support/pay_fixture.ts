/**
 * Fixtures for payment tests: a test pay service with units for sale, a
 * client whose pay URL is that service and whose wallet is the test
 * wallet, and the checks every test makes: what was signed, and that
 * neither the agent key nor the wallet key went anywhere.
 *
 * @module
 */
import { OriginClient as Client } from "../../src/origin/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import {
  everythingSeen,
  type PayService,
  type PayServiceOptions,
  startPayService,
  TEST_WALLET_KEY,
} from "./pay_service.ts";

/** The agent key clients carry (the pay service must never see it). */
export const AGENT_KEY = "agent-key";

/** Runs `fn` with a pay service selling ku_1 ($0.10) and ku_cap ($1.00), and a client of it. */
export async function withPay(
  fn: (pay: PayService, client: Client) => Promise<void>,
  options: PayServiceOptions & { env?: Record<string, string>; baseUrl?: string } = {},
): Promise<void> {
  const pay = await startPayService(options);
  pay.units.set("ku_1", { title: "Notes on rivers", body: "Rivers run to the sea.", amount: "100000" });
  pay.units.set("ku_cap", { title: "At the cap", body: "Exactly one dollar.", amount: "1000000" });
  try {
    const client = new Client({
      baseUrl: options.baseUrl ?? "http://127.0.0.1:9",
      apiKey: AGENT_KEY,
      payUrl: pay.url,
      env: { SVC_WALLET_KEY: TEST_WALLET_KEY, ...options.env },
    });
    await fn(pay, client);
    assertNoSecrets(pay);
  } finally {
    await pay.close();
  }
}

/** Fails if the pay service received a payment signature, or recorded a payment. */
export function assertNothingSigned(pay: PayService): void {
  assertEquals(pay.signatures().length, 0, "no PAYMENT-SIGNATURE was sent");
  assertEquals(pay.payments.length, 0);
}

/** Fails if the agent key or the wallet key shows anywhere the pay service looked, or in `texts`. */
export function assertNoSecrets(pay: PayService, ...texts: string[]): void {
  const all = [everythingSeen(pay.seen), ...texts].join("\n").toLowerCase();
  const bare = TEST_WALLET_KEY.slice(2);
  assert(!all.includes(bare), "the wallet key went nowhere");
  assert(!all.includes(bare.slice(0, 24)), "no part of the wallet key went anywhere");
  assert(!everythingSeen(pay.seen).includes(AGENT_KEY), "the pay service never saw the agent key");
  assert(pay.seen.every((s) => s.headers.authorization === undefined), "no authorization header to the pay service");
  assert(pay.seen.every((s) => !String(s.headers["user-agent"] ?? "").startsWith("svc-sdk")), "no svc user agent");
}
