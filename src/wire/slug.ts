/**
 * Project slugs: the only identifiers that become filesystem paths.
 *
 * @module
 */

/** The slug grammar of the wire contract: 3 to 60 characters, lowercase letters, digits and inner hyphens. */
export const SLUG_PATTERN: RegExp = /^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$/;

/**
 * Whether `value` is a valid project slug.
 *
 * @example
 * ```ts
 * import { isSlug } from "./slug.ts";
 * isSlug("world-cities"); // true
 * isSlug("../etc"); // false
 * ```
 */
export function isSlug(value: string): boolean {
  return SLUG_PATTERN.test(value);
}

/** What a project slug may be, in words. */
export const SLUG_RULE =
  "3 to 60 lowercase letters, digits and hyphens, starting and ending with a letter or digit, as in world-cities";

/**
 * The message for `value`, which is not a project slug: it, and what a slug may be.
 *
 * @example
 * ```ts
 * import { notASlug } from "./slug.ts";
 * notASlug("World Cities").startsWith('"World Cities" is not a project slug: a slug is 3 to 60 lowercase'); // true
 * ```
 */
export function notASlug(value: string): string {
  return `${JSON.stringify(value.slice(0, 100))} is not a project slug: a slug is ${SLUG_RULE}`;
}

/** The content address of a part: 64 lowercase hex digits of its SHA-256. */
export const SHA256_PATTERN: RegExp = /^[0-9a-f]{64}$/;

/**
 * Whether `value` is a lowercase SHA-256 hex digest.
 *
 * @example
 * ```ts
 * import { isSha256 } from "./slug.ts";
 * isSha256("a".repeat(64)); // true
 * isSha256("A".repeat(64)); // false
 * ```
 */
export function isSha256(value: string): boolean {
  return SHA256_PATTERN.test(value);
}
