import { assertEquals } from "../../support/assert.ts";
import { applyPolicy, readPaymentRequired } from "../../../src/origin/pay/policy.ts";
import { encodeHeaderJson, type PaymentRequirements } from "../../../src/origin/pay/x402.ts";

const SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const policy = { networks: ["eip155:84532"], cap: 1_000_000n };

function offer(fields: Partial<PaymentRequirements> = {}): PaymentRequirements {
  return {
    scheme: "exact",
    network: "eip155:84532",
    amount: "1000000",
    asset: SEPOLIA_USDC,
    payTo: PAY_TO,
    maxTimeoutSeconds: 300,
    extra: { name: "USDC", version: "2" },
    ...fields,
  };
}

Deno.test("the cap: equal is paid, one atomic unit over is refused with the price, the cap and how to raise it", () => {
  assertEquals(applyPolicy({ x402Version: 2, accepts: [offer()] }, policy), { kept: [offer()], reasons: [] });
  assertEquals(applyPolicy({ x402Version: 2, accepts: [offer({ amount: "1000001" })] }, policy), {
    kept: [],
    reasons: ["price 1.000001 USDC is over the cap of 1.00 USDC (raise it with --max-price or SVC_MAX_PRICE)"],
  });
  const huge = "1" + "0".repeat(40);
  assertEquals(applyPolicy({ x402Version: 2, accepts: [offer({ amount: huge })] }, policy).kept, []);
});

Deno.test("another network, another asset, another scheme, Permit2 or a bad amount are refused; good offers kept", () => {
  const verdict = applyPolicy({
    x402Version: 2,
    accepts: [
      offer({ network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }),
      offer({ asset: "0x0000000000000000000000000000000000000001" }),
      offer({ scheme: "upto" }),
      offer({ extra: { name: "USDC", version: "2", assetTransferMethod: "permit2" } }),
      offer({ amount: "1.5" }),
      offer({ amount: "-1" }),
      offer({ payTo: "nobody" }),
      offer({ asset: SEPOLIA_USDC.toLowerCase(), amount: "5" }),
    ],
  }, policy);
  assertEquals(verdict.reasons, [
    "network eip155:8453 is not allowed (allowed: eip155:84532; opt in with SVC_X402_NETWORKS)",
    `asset 0x0000000000000000000000000000000000000001 on eip155:84532 is not that network's USDC (${SEPOLIA_USDC})`,
    'scheme "upto" is not supported (only exact)',
    'transfer method "permit2" is not supported (only EIP-3009)',
    'amount "1.5" is not a whole number of atomic units',
    'amount "-1" is not a whole number of atomic units',
    'payTo "nobody" is not an address',
  ]);
  assertEquals(verdict.kept, [offer({ asset: SEPOLIA_USDC.toLowerCase(), amount: "5" })], "the asset in any case");
});

Deno.test("a network opted in is paid in its own USDC; the EIP-712 domain and timeout come from the table when absent", () => {
  const base = { networks: ["eip155:8453"], cap: 1_000_000n };
  const bare = offer({ network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" });
  delete bare.extra;
  delete bare.maxTimeoutSeconds;
  assertEquals(applyPolicy({ x402Version: 2, accepts: [bare] }, base).kept, [
    { ...bare, maxTimeoutSeconds: 3600, extra: { name: "USD Coin", version: "2" } },
  ]);
  assertEquals(applyPolicy({ x402Version: 2, accepts: [offer()] }, base).kept, [], "Base Sepolia is not allowed now");
});

Deno.test("a v1 402 is always refused: its networks are legacy names; an empty one offers nothing", () => {
  const v1 = {
    x402Version: 1 as const,
    accepts: [{ scheme: "exact", network: "base-sepolia", maxAmountRequired: "1" }],
  };
  assertEquals(applyPolicy(v1, policy), {
    kept: [],
    reasons: ["network base-sepolia is not allowed (x402 v1 names no CAIP-2 network; allowed: eip155:84532)"],
  });
  assertEquals(applyPolicy({ x402Version: 2, accepts: [] }, policy).reasons, ["the 402 offers no way to pay"]);
});

Deno.test("the requirements of a 402: the v2 header first, else a v1 body, else none", () => {
  const v2 = { x402Version: 2, error: "pay", accepts: [offer()] };
  const headers = new Headers({ "payment-required": encodeHeaderJson(v2) });
  assertEquals(readPaymentRequired(headers, '{"x402Version":1,"accepts":[]}'), v2);
  assertEquals(readPaymentRequired(new Headers(), '{"x402Version":1,"accepts":[]}'), { x402Version: 1, accepts: [] });
  assertEquals(readPaymentRequired(new Headers(), "<html>Payment Required</html>"), null);
  assertEquals(readPaymentRequired(new Headers({ "payment-required": "%%%" }), ""), null);
  const v3 = new Headers({ "payment-required": encodeHeaderJson({ x402Version: 3, accepts: [] }) });
  assertEquals(readPaymentRequired(v3, ""), null);
});
