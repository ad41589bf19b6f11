/**
 * The payment packages as `src/origin/pay/packages.ts` loads them: by a specifier
 * built at run time (so no module graph of the repository, and no lock file
 * the node starts with, holds them), at the versions the tests pin
 * (`tests/support/payment_packages.ts`), whose own types the shapes
 * payments declare must fit.
 *
 * @module
 */
import { viemAccounts, x402EvmClient, x402Fetch } from "../../support/payment_packages.ts";
import type { ViemAccountsModule, X402EvmModule, X402FetchModule } from "../../../src/origin/pay/_payment_shapes.ts";
import { loadPaymentModule, PAYMENT_PACKAGES, paymentSpecifier } from "../../../src/origin/pay/packages.ts";
import { assert, assertEquals } from "../../support/assert.ts";
import { ROOT } from "../../support/cli_process.ts";

/** The packages' own modules, typed as payments use them: `deno check` fails here when a shape no longer fits. */
const REAL: { fetch: X402FetchModule<x402Fetch.x402Client>; evm: X402EvmModule; viem: ViemAccountsModule } = {
  fetch: x402Fetch,
  evm: x402EvmClient,
  viem: viemAccounts,
};

Deno.test("the payment packages load by a specifier built at run time, as the very modules the tests pin", async () => {
  assertEquals(paymentSpecifier("viem", "/accounts"), "npm:viem@2.57.20/accounts");
  const viem = await loadPaymentModule<ViemAccountsModule>("viem", "/accounts");
  assert(viem.privateKeyToAccount === REAL.viem.privateKeyToAccount, "the same module instance");
  const fetchModule = await loadPaymentModule<X402FetchModule>("@x402/fetch", "");
  assert(fetchModule.wrapFetchWithPayment === REAL.fetch.wrapFetchWithPayment);
  const evm = await loadPaymentModule<X402EvmModule>("@x402/evm", "/exact/client");
  assert(evm.ExactEvmScheme === REAL.evm.ExactEvmScheme);
  const account = viem.privateKeyToAccount(`0x${"11".repeat(32)}`);
  assertEquals(account.address, "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A");
});

Deno.test("the versions loaded are the ones the tests and deno.dev.lock pin; deno.lock holds none of them", async () => {
  const source = await Deno.readTextFile(new URL("../../support/payment_packages.ts", import.meta.url));
  const dev = JSON.parse(await Deno.readTextFile(`${ROOT}deno.dev.lock`)) as { specifiers: Record<string, string> };
  const run = JSON.parse(await Deno.readTextFile(`${ROOT}deno.lock`)) as { npm: Record<string, unknown> };
  for (const [name, version] of Object.entries(PAYMENT_PACKAGES)) {
    assert(source.includes(`"npm:${name}@${version}`), `${name}@${version} is pinned by the tests`);
    assert(`npm:${name}@${version}` in dev.specifiers, `${name}@${version} is in deno.dev.lock`);
    assert(!Object.keys(run.npm).some((k) => k.startsWith(`${name}@`)), `${name} is not in deno.lock`);
  }
});

Deno.test("a payment package that cannot load is a refusal naming what to do, not a crash", async () => {
  const missing = await loadPaymentModule("viem", "/no-such-subpath").then(() => null, (e) => e as Error);
  assert(missing !== null);
  assertEquals((missing as Error & { code?: string }).name, "PaymentRequiredError");
  assert(
    /viem cannot be loaded .*: Deno fetches @x402\/fetch @x402\/evm viem from the npm registry/.test(missing.message),
  );
});
