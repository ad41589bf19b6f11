/**
 * What the account and community commands share: the flags naming the
 * origin and the key, their help lines, the client they make, `--json`
 * output (the answer as the API gives it, indented 2), choices checked as
 * usage errors, and amounts and dates as the lines print them.
 *
 * @module
 */
import process from "node:process";
import { OriginClient } from "../client/mod.ts";
import { formatUsdc } from "../pay/mod.ts";
import { stringifyExactJson } from "@svc/cli/wire";
import { endpointFrom } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";

/** The flags every account and community command takes. */
export const ORIGIN_FLAGS = {
  json: { type: "boolean" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Their help lines (after a command's own options). */
export const ORIGIN_OPTIONS_HELP = `  --json           print the answer as JSON, as the API gives it
  --base-url URL   the origin (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY    the agent key (default: SVC_API_KEY)
  -h, --help       show this help`;

/**
 * The client for `--base-url` and `--api-key` (else `SVC_BASE_URL` and
 * `SVC_API_KEY`), with the process's environment for the rest
 * (`SVC_PAY_URL`, `SVC_WALLET_KEY`, `SVC_MAX_PRICE`, `SVC_X402_NETWORKS`).
 *
 * @example
 * ```ts
 * import { originClient } from "./origin_flags.ts";
 * const client = originClient({ "base-url": "http://127.0.0.1:3000" });
 * ```
 */
export function originClient(values: { "base-url"?: string; "api-key"?: string }): OriginClient {
  return new OriginClient({ ...endpointFrom(values, process.env), env: process.env });
}

/**
 * Writes `value` to stdout as JSON indented 2, characters as they are,
 * integers beyond 2^53 with their digits (origin-wire 7.1).
 *
 * @example
 * ```ts
 * import { printJson } from "./origin_flags.ts";
 * await printJson({ status: "closed" });
 * ```
 */
export async function printJson(value: unknown): Promise<void> {
  await writeOut(stringifyExactJson(value, 2) + "\n");
}

/**
 * `value` when it is one of `choices` (or undefined), else a usage error naming them.
 *
 * @example
 * ```ts
 * import { choice } from "./origin_flags.ts";
 * choice("--kind", "unit", ["unit", "dataset"]); // "unit"
 * ```
 */
export function choice<T extends string>(
  name: string,
  value: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (value === undefined || (choices as readonly string[]).includes(value)) return value as T | undefined;
  throw new UsageError(`${name} must be one of ${choices.join(", ")}, not ${JSON.stringify(value)}`);
}

/**
 * Micro-USDC (USDC's atomic units) as dollars: at least two decimals, more
 * only when there are more (`$12.50`, `$40.125`, `$0.000001`).
 *
 * @example
 * ```ts
 * import { usd } from "./origin_flags.ts";
 * [usd(12_500_000), usd(40_125_000), usd(1)]; // ["$12.50", "$40.125", "$0.000001"]
 * ```
 */
export function usd(micro: number | bigint | string): string {
  const text = formatUsdc(typeof micro === "number" ? Math.round(micro) : micro);
  return text.startsWith("-") ? `-$${text.slice(1)}` : `$${text}`;
}

/**
 * The date of an ISO time (`2026-10-12`), or the text as it is when it is not one.
 *
 * @example
 * ```ts
 * import { day } from "./origin_flags.ts";
 * day("2026-10-12T09:30:00.000Z"); // "2026-10-12"
 * ```
 */
export function day(iso: unknown): string {
  const text = String(iso ?? "");
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text;
}
