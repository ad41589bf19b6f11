/**
 * The Host guard against DNS rebinding: a page on a hostile domain that
 * resolves to this node sends that domain as its authority, so on a node
 * without a token a request must name the node's own address, port
 * included. (A node with a token needs no such guard: without the token a
 * request gets only what is public, whatever it names.) The authority
 * checked is the request URL's, which is also the one every URL the node
 * builds starts from.
 *
 * @module
 */
import { isIP } from "node:net";
import { isLoopback, splitAuthority, urlHostName } from "../../http/mod.ts";

/** Where the node listens, as the Host guard needs it. */
export interface NodeAddress {
  /** The address bound (`127.0.0.1`, `0.0.0.0`, `::1`, a name). */
  host: string;
  /** The port bound. */
  port: number;
  /** Extra authorities the node answers to: `name` (any port) or `name:port` (that port). */
  allowedHosts: readonly string[];
}

/**
 * Whether a request for `url` (its authority: Host, or an absolute-form
 * target) is for this node: an allowed name, or the node's own address with
 * its port. A loopback node's own names are the loopback names; a node bound
 * beyond loopback also answers to IP literals (a rebinding page can only send
 * a domain name) and to the name it was bound with.
 *
 * @example
 * ```ts
 * import { hostAllowed } from "./host.ts";
 * const node = { host: "127.0.0.1", port: 8686, allowedHosts: [] };
 * hostAllowed(new URL("http://localhost:8686/projects"), node); // true
 * hostAllowed(new URL("http://127.0.0.1:9999/projects"), node); // false
 * hostAllowed(new URL("http://evil.example:8686/projects"), node); // false
 * hostAllowed(new URL("http://127.0.0.1:18686/"), { ...node, allowedHosts: ["127.0.0.1:18686"] }); // true
 * ```
 */
export function hostAllowed(url: URL, node: NodeAddress): boolean {
  const name = urlHostName(url);
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  for (const allowed of node.allowedHosts) {
    const entry = splitAuthority(allowed);
    if (entry.name === name && (entry.port === null || entry.port === port)) return true;
  }
  if (port !== node.port) return false;
  if (isLoopback(node.host)) return isLoopback(name);
  return isIP(name) !== 0 || name === node.host.toLowerCase();
}
