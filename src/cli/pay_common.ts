/**
 * What the payments commands share: the client (with the process's
 * environment, so that `SVC_PAY_URL`, `SVC_WALLET_KEY`, `SVC_MAX_PRICE` and
 * `SVC_X402_NETWORKS` count), amounts in dollars, and `--json` output.
 *
 * @module
 */
import process from "node:process";
import { Client } from "../client/client.ts";
import { formatUsdc } from "../pay/cap.ts";
import { stringifyExactJson } from "../wire/exact_json.ts";
import { endpointFrom } from "./endpoint.ts";
import { writeOut } from "./formats.ts";

/** The flags every payments command takes. */
export const PAY_FLAGS = {
  json: { type: "boolean" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The help lines of {@linkcode PAY_FLAGS}. */
export const PAY_FLAG_HELP = `  --json           print the answer as JSON, as the API gives it
  --base-url URL   the origin (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY    agent key (default: SVC_API_KEY)
  -h, --help       show this help`;

/** The environment the payments commands read, in their help. */
export const PAY_ENV_HELP = `Environment: SVC_PAY_URL (the pay service; default the origin, or
http://localhost:3001 for a loopback origin), SVC_WALLET_KEY (the wallet's
private key: it signs here and is never sent or printed), SVC_MAX_PRICE
(default 1.00), SVC_X402_NETWORKS (default eip155:84532, Base Sepolia).`;

/**
 * A client from the flags and the process's environment.
 *
 * @example
 * ```ts ignore
 * const client = payClient({ "base-url": "http://127.0.0.1:3000" });
 * ```
 */
export function payClient(flags: { "base-url"?: string; "api-key"?: string }): Client {
  return new Client({ ...endpointFrom(flags, process.env), env: process.env });
}

/**
 * Micro-USDC (or USDC atomic units) in dollars: `$0.10`, `$1.00`, `$0.000001`.
 *
 * @example
 * ```ts
 * import { usd } from "./pay_common.ts";
 * [usd(100_000), usd(12_500_000), usd(1)]; // ["$0.10", "$12.50", "$0.000001"]
 * ```
 */
export function usd(micro: number | bigint | string): string {
  const text = formatUsdc(typeof micro === "number" ? Math.trunc(micro) : micro);
  return text.startsWith("-") ? `-$${text.slice(1)}` : `$${text}`;
}

/**
 * Prints `answer` as pretty JSON (indent 2, integers beyond 2^53 as digits).
 *
 * @example
 * ```ts ignore
 * await printJson({ balanceMicro: 1 });
 * ```
 */
export async function printJson(answer: unknown): Promise<void> {
  await writeOut(stringifyExactJson(answer, 2) + "\n");
}
