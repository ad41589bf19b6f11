/**
 * What the payments commands share: the origin flags, client, `--json`
 * output and dollar amounts of `origin_flags.ts`, and the environment their
 * help names.
 *
 * @module
 */

export {
  ORIGIN_FLAGS as PAY_FLAGS,
  ORIGIN_OPTIONS_HELP as PAY_FLAG_HELP,
  originClient as payClient,
  printJson,
  usd,
} from "./origin_flags.ts";

/** The environment the payments commands read, in their help. */
export const PAY_ENV_HELP = `Environment: SVC_PAY_URL (the pay service; default the origin, or
http://localhost:3001 for a loopback origin), SVC_WALLET_KEY (the wallet's
private key: it signs here and is never sent or printed), SVC_MAX_PRICE
(default 1.00), SVC_X402_NETWORKS (default eip155:84532, Base Sepolia).`;
