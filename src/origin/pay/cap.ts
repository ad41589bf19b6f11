/**
 * The price cap (origin-wire 5.4): `maxPrice` (`--max-price`), else
 * `SVC_MAX_PRICE`, else 1.00 USD; one leading `$` stripped, read as a
 * decimal and turned into USDC atomic units (6 decimals) by truncation, in
 * BigInt arithmetic: never a float. A price equal to the cap is paid.
 *
 * @module
 */
import { PaymentRequiredError } from "@svc/cli/client";

/** The cap when nothing names one, in USD. */
export const DEFAULT_MAX_PRICE = "1.00";

/** Atomic units in one USDC. */
const UNIT = 1_000_000n;

/**
 * The cap in USDC atomic units: floor(USD × 10^6). Anything but a
 * non-negative decimal (after one leading `$`) raises `PaymentRequiredError`.
 *
 * @example
 * ```ts
 * import { capAtomic } from "./cap.ts";
 * capAtomic("$0.10", {}); // 100000n
 * capAtomic(undefined, { SVC_MAX_PRICE: "2.5" }); // 2500000n
 * capAtomic(undefined, {}); // 1000000n
 * capAtomic("0.0000019", {}); // 1n
 * ```
 */
export function capAtomic(
  option: string | number | undefined,
  env: Readonly<Record<string, string | undefined>>,
): bigint {
  const raw = option ?? (env.SVC_MAX_PRICE?.trim() ? env.SVC_MAX_PRICE : undefined) ?? DEFAULT_MAX_PRICE;
  const text = String(raw).trim().replace(/^\$/, "");
  const m = /^\+?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[1] === "" && (m[2] ?? "") === "")) {
    throw new PaymentRequiredError(
      `invalid max price ${JSON.stringify(String(raw))}: give a non-negative amount in USD such as 0.50 or $2`,
      null,
      null,
      "max_price",
    );
  }
  const fraction = (m[2] ?? "").slice(0, 6).padEnd(6, "0");
  return BigInt(m[1] || "0") * UNIT + BigInt(fraction);
}

/**
 * Atomic USDC units as a decimal: at least two decimals, no trailing zeros
 * past them.
 *
 * @example
 * ```ts
 * import { formatUsdc } from "./cap.ts";
 * [formatUsdc(1_000_000n), formatUsdc(1_000_001n), formatUsdc(50_000n)]; // ["1.00", "1.000001", "0.05"]
 * ```
 */
export function formatUsdc(atomic: bigint | number | string): string {
  const n = BigInt(atomic);
  const sign = n < 0n ? "-" : "";
  const abs = n < 0n ? -n : n;
  const fraction = (abs % UNIT).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${sign}${abs / UNIT}.${fraction}`;
}
