/**
 * Page tokens of the sharing routes: opaque to clients, bound to the query
 * that made them and authenticated with the node's page key (an HMAC over
 * the query and the offset), so a token from another listing or another
 * table, an altered one or one made up is refused (400) instead of paging
 * something else. The key is derived from the node token when there is one
 * (tokens then survive a restart and work on every node of a fleet sharing
 * that token, as signed file URLs do), else drawn at random when the node
 * starts (a listing is then started again after a restart).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { SharingError } from "./errors.ts";
import { WIRE_LIMITS } from "../wire/mod.ts";

/** The most items one page may ask for. */
export const MAX_RESULTS: number = WIRE_LIMITS.sharingResults;

/** The secret page tokens are signed with. */
export type PageKey = Uint8Array;

/**
 * The page key of a node with token `token` (null: a node without one, whose
 * key is random).
 *
 * @example
 * ```ts
 * import { pageKeyFor } from "./paging.ts";
 * pageKeyFor("a-node-token").length; // 32
 * ```
 */
export function pageKeyFor(token: string | null): PageKey {
  if (token === null) return new Uint8Array(randomBytes(32));
  return new Uint8Array(createHmac("sha256", token).update("svc delta-sharing page tokens").digest());
}

function mac(key: PageKey, query: string, offset: number): Buffer {
  return createHmac("sha256", key).update(`${offset}\n${query}`).digest().subarray(0, 16);
}

function refused(): SharingError {
  return new SharingError(
    400,
    "INVALID_PARAMETER_VALUE",
    "pageToken is not one this server gave for this listing: start the listing again without it",
  );
}

/**
 * The token for the page starting at `offset` of `query` (a string naming
 * the listing and whatever fixes its items).
 *
 * @example
 * ```ts
 * import { pageKeyFor, pageOffset, pageToken } from "./paging.ts";
 * const key = pageKeyFor("t");
 * console.log(pageOffset(key, pageToken(key, "tables svc default", 20), "tables svc default")); // 20
 * ```
 */
export function pageToken(key: PageKey, query: string, offset: number): string {
  return `${offset.toString(36)}.${mac(key, query, offset).toString("base64url")}`;
}

/**
 * The offset a page token stands for, 0 without one; a token that is not
 * one of {@linkcode pageToken}'s for this `query` under `key` is 400.
 *
 * @example
 * ```ts
 * import { pageKeyFor, pageOffset } from "./paging.ts";
 * console.log(pageOffset(pageKeyFor(null), null, "shares")); // 0
 * ```
 */
export function pageOffset(key: PageKey, token: string | null | undefined, query: string): number {
  if (token === null || token === undefined || token === "") return 0;
  const m = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!m) throw refused();
  const offset = parseInt(m[1], 36);
  const given = Buffer.from(m[2], "base64url");
  if (!Number.isSafeInteger(offset) || given.length !== 16 || !timingSafeEqual(given, mac(key, query, offset))) {
    throw refused();
  }
  return offset;
}

/**
 * `maxResults` from a query string: a whole number 0 to
 * {@linkcode MAX_RESULTS}, the maximum when absent.
 *
 * @example
 * ```ts
 * import { maxResultsOf } from "./paging.ts";
 * console.log(maxResultsOf("10")); // 10
 * ```
 */
export function maxResultsOf(text: string | null): number {
  if (text === null) return MAX_RESULTS;
  if (!/^\d{1,10}$/.test(text) || Number(text) > 2147483647) {
    throw new SharingError(400, "INVALID_PARAMETER_VALUE", `maxResults must be a whole number from 0: ${text}`);
  }
  return Math.min(Number(text), MAX_RESULTS);
}

/** One page of a listing. */
export interface Page<T> {
  /** The items of this page. */
  items: T[];
  /** The token of the next page, when there is one. */
  nextPageToken?: string;
}

/**
 * Slices `all` into the page that `token` and `max` ask for. `max` 0 gives
 * no items and no token (PROTOCOL.md: "0 will return no results"): a token
 * would only repeat the page it came with.
 *
 * @example
 * ```ts
 * import { pageKeyFor, pageOf } from "./paging.ts";
 * console.log(pageOf(pageKeyFor(null), ["a", "b", "c"], "letters", null, 2).items); // ["a", "b"]
 * ```
 */
export function pageOf<T>(key: PageKey, all: readonly T[], query: string, token: string | null, max: number): Page<T> {
  const offset = pageOffset(key, token, query);
  if (max === 0) return { items: [] };
  const items = all.slice(offset, offset + max);
  const next = offset + items.length;
  return next < all.length ? { items, nextPageToken: pageToken(key, query, next) } : { items };
}
