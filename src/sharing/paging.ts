/**
 * Page tokens of the sharing routes: opaque to clients, bound to the query
 * that made them, so a token from another listing or another table is
 * refused instead of silently paging something else.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { SharingError } from "./errors.ts";

/** The most items one page may ask for. */
export const MAX_RESULTS = 1000;

function queryDigest(query: string): string {
  return createHash("sha256").update(query).digest("base64url").slice(0, 16);
}

/**
 * The token for the page starting at `offset` of `query` (a string naming
 * the listing and whatever fixes its items).
 *
 * @example
 * ```ts
 * import { pageToken, pageOffset } from "./paging.ts";
 * console.log(pageOffset(pageToken("tables svc default", 20), "tables svc default")); // 20
 * ```
 */
export function pageToken(query: string, offset: number): string {
  return Buffer.from(JSON.stringify({ q: queryDigest(query), o: offset })).toString("base64url");
}

/**
 * The offset a page token stands for, 0 without one; a token that is not
 * one of {@linkcode pageToken}'s for this `query` is 400.
 *
 * @example
 * ```ts
 * import { pageOffset } from "./paging.ts";
 * console.log(pageOffset(null, "shares")); // 0
 * ```
 */
export function pageOffset(token: string | null | undefined, query: string): number {
  if (token === null || token === undefined || token === "") return 0;
  let parsed: { q?: unknown; o?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw new SharingError(400, "INVALID_PARAMETER_VALUE", "pageToken is not one this server gave");
  }
  if (parsed?.q !== queryDigest(query) || !Number.isSafeInteger(parsed.o) || (parsed.o as number) < 0) {
    throw new SharingError(400, "INVALID_PARAMETER_VALUE", "pageToken belongs to another query");
  }
  return parsed.o as number;
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
 * Slices `all` into the page that `token` and `max` ask for.
 *
 * @example
 * ```ts
 * import { pageOf } from "./paging.ts";
 * console.log(pageOf(["a", "b", "c"], "letters", null, 2).items); // ["a", "b"]
 * ```
 */
export function pageOf<T>(all: readonly T[], query: string, token: string | null, max: number): Page<T> {
  const offset = pageOffset(token, query);
  const items = all.slice(offset, offset + max);
  const next = offset + items.length;
  return next < all.length ? { items, nextPageToken: pageToken(query, next) } : { items };
}
