/**
 * The networks a purchase may be paid on and their USDC (origin-wire 5.3),
 * and the allowed list: the `networks` option, else `SVC_X402_NETWORKS`
 * (a comma list), else Base Sepolia alone.
 *
 * @module
 */
import { PaymentRequiredError } from "@svc/cli/client";

/** A network's USDC: the EIP-712 domain an authorization is signed over. */
export interface UsdcNetwork {
  /** The chain's name. */
  chain: string;
  /** EIP-155 chain id. */
  chainId: number;
  /** The USDC contract (the domain's `verifyingContract`). */
  usdc: string;
  /** The domain's `name`. */
  name: string;
  /** The domain's `version`. */
  version: string;
  /** Decimals of USDC. */
  decimals: number;
}

/** The networks svc pays on, by CAIP-2 id. */
export const USDC_NETWORKS: Readonly<Record<string, UsdcNetwork>> = {
  "eip155:84532": {
    chain: "Base Sepolia",
    chainId: 84532,
    usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    name: "USDC",
    version: "2",
    decimals: 6,
  },
  "eip155:8453": {
    chain: "Base",
    chainId: 8453,
    usdc: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    name: "USD Coin",
    version: "2",
    decimals: 6,
  },
};

/** The only network allowed unless another is opted in: Base Sepolia (test USDC). */
export const DEFAULT_NETWORKS: readonly string[] = ["eip155:84532"];

/**
 * The allowed networks: `option` (a list or a comma string), else
 * `env.SVC_X402_NETWORKS`, else {@linkcode DEFAULT_NETWORKS}; trimmed and
 * de-duplicated. A network svc does not know raises `PaymentRequiredError`.
 *
 * @example
 * ```ts
 * import { allowedNetworks } from "./networks.ts";
 * allowedNetworks(undefined, { SVC_X402_NETWORKS: " eip155:8453, eip155:84532,eip155:8453" });
 * // ["eip155:8453", "eip155:84532"]
 * ```
 */
export function allowedNetworks(
  option: string | readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const given = option ?? (env.SVC_X402_NETWORKS?.trim() ? env.SVC_X402_NETWORKS : undefined);
  const list = given === undefined ? [...DEFAULT_NETWORKS] : typeof given === "string" ? given.split(",") : [...given];
  const networks = [...new Set(list.map((n) => n.trim()).filter((n) => n !== ""))];
  const unknown = networks.filter((n) => !Object.hasOwn(USDC_NETWORKS, n));
  if (unknown.length > 0 || networks.length === 0) {
    const known = Object.entries(USDC_NETWORKS).map(([id, n]) => `${id} (${n.chain})`).join(", ");
    const what = unknown.length > 0 ? `unknown network ${unknown.join(", ")}` : "no network allowed";
    throw new PaymentRequiredError(`${what}: the known networks are ${known}`, null, null, "network");
  }
  return networks;
}
