/**
 * Authorities as the node compares them: host names lowercased, without
 * brackets or a final dot; loopback names; `name:port` entries.
 *
 * @module
 */
import { isIP } from "node:net";

/**
 * Whether `name` (a host name or IP literal, brackets allowed) is a loopback address.
 *
 * @example
 * ```ts
 * import { isLoopback } from "./authority.ts";
 * isLoopback("127.0.0.1"); // true
 * isLoopback("0.0.0.0"); // false
 * ```
 */
export function isLoopback(name: string): boolean {
  const kept = loopbackKept.get(name);
  if (kept !== undefined) return kept;
  const n = name.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  const loopback = n === "localhost" || n.endsWith(".localhost") ||
    (isIP(n) === 4 ? n.startsWith("127.") : n === "::1" || n === "0:0:0:0:0:0:0:1");
  if (name.length <= NAME_KEPT_CHARS) {
    if (loopbackKept.size >= LOOPBACK_KEPT) loopbackKept.clear();
    loopbackKept.set(name, loopback);
  }
  return loopback;
}

/** Names {@linkcode isLoopback} answered, kept: every request's host is asked (most of the host guard's time). */
const loopbackKept = new Map<string, boolean>();
const LOOPBACK_KEPT = 256;
/** Longer names (no host name is) are answered each time, not kept. */
const NAME_KEPT_CHARS = 255;

/**
 * The host name of `url`, lowercased, without brackets or a final dot.
 *
 * @example
 * ```ts
 * import { urlHostName } from "./authority.ts";
 * urlHostName(new URL("http://[::1]:8686/")); // "::1"
 * ```
 */
export function urlHostName(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
}

/**
 * An allowed authority as `name` (lowercased, no brackets or final dot) and
 * `port` (null for any): `data.example`, `data.example:8443`, `[::1]:18686`.
 *
 * @example
 * ```ts
 * import { splitAuthority } from "./authority.ts";
 * splitAuthority("[::1]:18686"); // { name: "::1", port: 18686 }
 * splitAuthority("Data.Example"); // { name: "data.example", port: null }
 * ```
 */
export function splitAuthority(authority: string): { name: string; port: number | null } {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  const [host, port] = m ? [m[1], Number(m[2])] : [authority, null];
  return { name: host.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, ""), port };
}
