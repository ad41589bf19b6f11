import { assertEquals, assertThrows } from "../../support/assert.ts";
import { PaymentRequiredError } from "../../../src/client/errors.ts";
import { allowedNetworks, USDC_NETWORKS } from "../../../src/origin/pay/networks.ts";

Deno.test("allowed networks: the option (list or comma string), else SVC_X402_NETWORKS, else Base Sepolia alone", () => {
  assertEquals(allowedNetworks(undefined, {}), ["eip155:84532"]);
  assertEquals(allowedNetworks(undefined, { SVC_X402_NETWORKS: "eip155:8453" }), ["eip155:8453"]);
  assertEquals(
    allowedNetworks(undefined, { SVC_X402_NETWORKS: " eip155:8453 , eip155:84532,eip155:8453," }),
    ["eip155:8453", "eip155:84532"],
    "trimmed and de-duplicated",
  );
  assertEquals(allowedNetworks(["eip155:8453"], { SVC_X402_NETWORKS: "eip155:84532" }), ["eip155:8453"]);
  assertEquals(allowedNetworks("eip155:84532,eip155:8453", {}), ["eip155:84532", "eip155:8453"]);
});

Deno.test("a network svc does not know is refused, naming the known ones", () => {
  const e = assertThrows(() => allowedNetworks(undefined, { SVC_X402_NETWORKS: "eip155:1,eip155:84532" }));
  assertEquals(e instanceof PaymentRequiredError, true);
  assertEquals(
    e.message,
    "unknown network eip155:1: the known networks are eip155:84532 (Base Sepolia), eip155:8453 (Base)",
  );
  assertThrows(() => allowedNetworks(["base-sepolia"], {}), /unknown network base-sepolia/);
  assertThrows(() => allowedNetworks(" , ", {}), /no network allowed/);
});

Deno.test("the USDC table: contracts, chain ids and EIP-712 domains of origin-wire 5.3", () => {
  assertEquals(USDC_NETWORKS["eip155:84532"], {
    chain: "Base Sepolia",
    chainId: 84532,
    usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    name: "USDC",
    version: "2",
    decimals: 6,
  });
  assertEquals(USDC_NETWORKS["eip155:8453"].usdc, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
  assertEquals([USDC_NETWORKS["eip155:8453"].name, USDC_NETWORKS["eip155:8453"].chainId], ["USD Coin", 8453]);
});
