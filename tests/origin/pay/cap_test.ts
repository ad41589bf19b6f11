import { assertEquals, assertThrows } from "../../support/assert.ts";
import { PaymentRequiredError } from "../../../src/client/errors.ts";
import { capAtomic, formatUsdc } from "../../../src/origin/pay/cap.ts";

Deno.test("the cap: the option, else SVC_MAX_PRICE, else $1.00; one $ stripped; floor to atomic units in BigInt", () => {
  assertEquals(capAtomic(undefined, {}), 1_000_000n);
  assertEquals(capAtomic(undefined, { SVC_MAX_PRICE: "2.5" }), 2_500_000n);
  assertEquals(capAtomic(undefined, { SVC_MAX_PRICE: " " }), 1_000_000n, "a blank variable is no cap");
  assertEquals(capAtomic("$0.10", { SVC_MAX_PRICE: "9" }), 100_000n, "the option wins");
  assertEquals(capAtomic("0.0000019", {}), 1n, "floored, not rounded");
  assertEquals(capAtomic(".5", {}), 500_000n);
  assertEquals(capAtomic("3.", {}), 3_000_000n);
  assertEquals(capAtomic(0, {}), 0n);
  // Past 2^53 atomic units a float would be off; BigInt is exact.
  assertEquals(capAtomic("9007199254.740993", {}), 9_007_199_254_740_993n);
  assertEquals(capAtomic("0.1", {}) + capAtomic("0.2", {}), capAtomic("0.3", {}), "no float arithmetic");
});

Deno.test("an invalid cap is a PaymentRequiredError with no status: NaN, infinity, negative, words, two $", () => {
  for (const bad of ["NaN", "Infinity", "-1", "-0.5", "abc", "$$1", "1e3", "", ".", "1,00"]) {
    const e = assertThrows(() => capAtomic(bad, {}), /invalid max price/);
    assertEquals([e instanceof PaymentRequiredError, (e as PaymentRequiredError).status], [true, null], bad);
  }
  assertThrows(() => capAtomic(undefined, { SVC_MAX_PRICE: "-2" }), /invalid max price "-2"/);
});

Deno.test("atomic units print as USDC with at least two decimals", () => {
  assertEquals(
    [formatUsdc(0n), formatUsdc(1n), formatUsdc(100_000n), formatUsdc("1000001"), formatUsdc(12_340_000)],
    ["0.00", "0.000001", "0.10", "1.000001", "12.34"],
  );
});
