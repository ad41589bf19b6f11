/**
 * The npm packages payments sign with (the x402 project's client and viem),
 * loaded on first use by a specifier built at run time, so that no module
 * graph of this repository holds them: Deno installs every npm package its
 * import map or lock file names before a program starts, and these weigh
 * some 90 MB that `svc serve` and every command but a purchase never use.
 * Under Deno they come as `npm:NAME@VERSION` (a checkout's first purchase
 * fetches them, as `deno run` fetches any `npm:` import; `deno publish`
 * warns that it cannot analyze the import, and such a specifier needs no
 * import map to resolve); under Node, from the npm package's own
 * dependencies, by name.
 *
 * @module
 */
import { PaymentRequiredError } from "@svc/cli/client";

/** The payment packages and the versions the npm package depends on (the tests pin the same, see `deno.dev.lock`). */
export const PAYMENT_PACKAGES: Readonly<Record<PaymentPackage, string>> = {
  "@x402/fetch": "2.27.0",
  "@x402/evm": "2.27.0",
  viem: "2.57.20",
};

/** A payment package's name. */
export type PaymentPackage = "@x402/fetch" | "@x402/evm" | "viem";

/**
 * The specifier that loads `path` (a subpath, `""` for the package itself)
 * of payment package `name` under the running runtime.
 *
 * @example
 * ```ts
 * import { paymentSpecifier } from "./packages.ts";
 * paymentSpecifier("viem", "/accounts"); // "npm:viem@2.57.20/accounts" under Deno, "viem/accounts" under Node
 * ```
 */
export function paymentSpecifier(name: PaymentPackage, path: string): string {
  const deno = (globalThis as { Deno?: unknown }).Deno !== undefined;
  return deno ? `npm:${name}@${PAYMENT_PACKAGES[name]}${path}` : `${name}${path}`;
}

/** What to do when a payment package cannot be loaded, for the refusal. */
function installHint(): string {
  const deno = (globalThis as { Deno?: unknown }).Deno !== undefined;
  const names = Object.keys(PAYMENT_PACKAGES).join(" ");
  return deno
    ? `Deno fetches ${names} from the npm registry on the first purchase: check the network (and DENO_CERT behind a TLS-intercepting proxy)`
    : `npm install ${names} (they come with @svc/cli)`;
}

/**
 * Module `path` of payment package `name`, or a `PaymentRequiredError`
 * (`x402_missing`) saying how to get it. The module's shape is the caller's
 * to declare (`T`): the specifier is built at run time, so no type comes
 * with it.
 *
 * @example
 * ```ts ignore
 * import { loadPaymentModule } from "./packages.ts";
 * const { privateKeyToAccount } = await loadPaymentModule<{ privateKeyToAccount(key: string): unknown }>(
 *   "viem",
 *   "/accounts",
 * );
 * ```
 */
export async function loadPaymentModule<T>(name: PaymentPackage, path: string): Promise<T> {
  const specifier = paymentSpecifier(name, path);
  try {
    return await import(specifier) as T;
  } catch (e) {
    throw new PaymentRequiredError(
      `${name} cannot be loaded (${(e as Error)?.message ?? e}): ${installHint()}`,
      null,
      null,
      "x402_missing",
    );
  }
}
