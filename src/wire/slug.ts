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
