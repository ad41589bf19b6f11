/**
 * The Host guard against DNS rebinding: a page on a hostile domain that
 * resolves to this node sends that domain as `Host`, so the node answers only
 * to its own address.
 *
 * @module
 */
import { isIP } from "node:net";

/**
 * The host name of a `Host` header, lowercased and without brackets or port,
 * or null when the header is malformed.
 *
 * @example
 * ```ts
 * import { hostName } from "./host.ts";
 * hostName("[::1]:8686"); // "::1"
 * hostName("LocalHost:80"); // "localhost"
 * ```
 */
export function hostName(header: string): string | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/.exec(header.trim());
  if (!m) return null;
  return (m[1] ?? m[2]).toLowerCase().replace(/\.$/, "");
}

/**
 * Whether `name` (a host name or IP literal) is a loopback address.
 *
 * @example
 * ```ts
 * import { isLoopback } from "./host.ts";
 * isLoopback("127.0.0.1"); // true
 * isLoopback("0.0.0.0"); // false
 * ```
 */
export function isLoopback(name: string): boolean {
  const n = name.toLowerCase().replace(/^\[|\]$/g, "");
  if (n === "localhost" || n.endsWith(".localhost")) return true;
  if (isIP(n) === 4) return n.startsWith("127.");
  return n === "::1" || n === "0:0:0:0:0:0:0:1";
}

/**
 * Whether a request with `Host: header` is for this node. Loopback names are
 * always its own; a node bound beyond loopback also answers to IP literals
 * (a rebinding page can only send a domain name) and to `allowedHosts`.
 *
 * @example
 * ```ts
 * import { hostAllowed } from "./host.ts";
 * hostAllowed("127.0.0.1:8686", "127.0.0.1", []); // true
 * hostAllowed("evil.example:8686", "127.0.0.1", []); // false
 * ```
 */
export function hostAllowed(header: string | null, bindHost: string, allowedHosts: readonly string[]): boolean {
  if (header === null) return false;
  const name = hostName(header);
  if (name === null) return false;
  if (isLoopback(name)) return true;
  if (allowedHosts.some((h) => h.toLowerCase() === name)) return true;
  if (isLoopback(bindHost)) return false;
  return isIP(name) !== 0 || name === bindHost.toLowerCase();
}
