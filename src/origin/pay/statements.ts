/**
 * Signed statements (origin-wire 5.6): the texts a wallet signs with EIP-191
 * `personal_sign` to read its purchase history or open a dispute. The pay
 * service sends `{statement, time}`; the text is rebuilt here from the
 * fixed template and must match byte for byte, and the time must be within
 * 300 s of this machine's clock, before anything is signed. Only the
 * address, the time and the signature are sent.
 *
 * @module
 */
import { SvcError } from "@svc/cli/client";
import type { StatementAnswer } from "../wire/mod.ts";

/** The most a statement's time may differ from this machine's clock, in seconds. */
export const STATEMENT_WINDOW_S = 300;

/** The first word of every statement: the brand, upper case. */
const BRAND = "SVC";

/**
 * The pay URL as statements name it: `scheme://host[:port]` lower-cased,
 * default ports dropped, IPv6 hosts in brackets, then the path without its
 * trailing `/`.
 *
 * @example
 * ```ts
 * import { payOrigin } from "./statements.ts";
 * payOrigin("HTTPS://Pay.Example:443/v1/"); // "https://pay.example/v1"
 * payOrigin("http://[::1]:3001"); // "http://[::1]:3001"
 * ```
 */
export function payOrigin(payUrl: string): string {
  const url = new URL(payUrl);
  const port = url.port && !(url.port === "80" || url.port === "443") ? `:${url.port}` : "";
  return `${url.protocol}//${url.hostname.toLowerCase()}${port}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The purchase-history statement.
 *
 * @example
 * ```ts
 * import { purchaseHistoryStatement } from "./statements.ts";
 * purchaseHistoryStatement("0xAbC", "http://localhost:3001", 1700000000);
 * // "SVC purchase history\nwallet: 0xabc\norigin: http://localhost:3001\ntime: 1700000000"
 * ```
 */
export function purchaseHistoryStatement(wallet: string, origin: string, time: number): string {
  return [`${BRAND} purchase history`, `wallet: ${wallet.toLowerCase()}`, `origin: ${origin}`, `time: ${time}`]
    .join("\n");
}

/**
 * The dispute statement.
 *
 * @example
 * ```ts
 * import { disputeStatement } from "./statements.ts";
 * disputeStatement("0x" + "A".repeat(64), "0xAbC", "http://localhost:3001", 1700000000).split("\n")[1];
 * // "transaction: 0xaaaa...aaaa" (lower-cased)
 * ```
 */
export function disputeStatement(transaction: string, wallet: string, origin: string, time: number): string {
  return [
    `${BRAND} dispute`,
    `transaction: ${transaction.toLowerCase()}`,
    `wallet: ${wallet.toLowerCase()}`,
    `origin: ${origin}`,
    `time: ${time}`,
  ].join("\n");
}

/**
 * A settlement transaction hash, trimmed and lower-cased; anything but
 * `0x` and 64 hex digits raises `SvcError`.
 *
 * @example
 * ```ts
 * import { transactionHash } from "./statements.ts";
 * transactionHash(" 0x" + "AB".repeat(32) + " "); // "0xabab...ab"
 * ```
 */
export function transactionHash(text: string): string {
  const tx = text.trim().toLowerCase();
  if (!/^0x[0-9a-f]{64}$/.test(tx)) {
    throw new SvcError(
      `${JSON.stringify(text)} is not a transaction hash (0x and 64 hex digits: a purchase's x402.transaction)`,
      null,
      "bad_transaction",
    );
  }
  return tx;
}

/**
 * The time of `answer` once checked: a whole number within
 * {@linkcode STATEMENT_WINDOW_S} of `nowMs`, and the statement equal, byte
 * for byte, to `build(time)`. Anything else raises `SvcError`: nothing is
 * signed.
 */
export function checkStatement(answer: StatementAnswer, build: (time: number) => string, nowMs: number): number {
  const time = (answer as { time?: unknown })?.time;
  if (typeof time !== "number" || !Number.isSafeInteger(time)) {
    throw new SvcError("the pay service's statement has no whole-number time; refusing to sign", null, "statement");
  }
  const skew = Math.abs(Math.floor(nowMs / 1000) - time);
  if (skew > STATEMENT_WINDOW_S) {
    throw new SvcError(
      `the statement's time is ${skew} s from this machine's clock (at most ${STATEMENT_WINDOW_S} s): ` +
        "check the clock; refusing to sign",
      null,
      "statement_time",
    );
  }
  const expected = build(time);
  if ((answer as { statement?: unknown }).statement !== expected) {
    throw new SvcError(
      "the pay service's statement is not the expected text; refusing to sign",
      null,
      "statement_mismatch",
    );
  }
  return time;
}
