/**
 * The payment packages, for tests only, by their full npm specifiers: the
 * tests' lock file (`deno.dev.lock`) pins them here, while no import map
 * and no module graph of `src/` names them (`src/origin/pay/packages.ts` loads
 * them by a specifier built at run time, at these same versions).
 *
 * @module
 */
export * as x402Fetch from "npm:@x402/fetch@2.27.0";
export * as x402EvmClient from "npm:@x402/evm@2.27.0/exact/client";
export * as viemAccounts from "npm:viem@2.57.20/accounts";
