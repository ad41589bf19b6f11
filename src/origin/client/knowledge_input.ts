/**
 * What the knowledge calls check or shape before anything is sent
 * (origin-wire 3.1, 3.3, 6): the source declaration, the license's
 * canonical spelling, bodies without the keys left out, query strings
 * without the parameters not given.
 *
 * @module
 */
import { listedLicense, ORIGIN_LICENSES } from "@svc/cli/wire";
import { ValueError } from "@svc/cli/client";

/**
 * A unit's source declaration, refused unless it is a string of at least 4
 * characters once trimmed and at most 2000 as given.
 *
 * @example
 * ```ts
 * import { checkUnitSource } from "./knowledge_input.ts";
 * checkUnitSource("measured on our own fleet"); // "measured on our own fleet"
 * ```
 */
export function checkUnitSource(text: unknown): string {
  if (typeof text !== "string" || [...text.trim()].length < 4) {
    throw new ValueError(
      "sourceDeclaration is required: how you came to know it, 4-2000 characters (not blank, at least 4 once trimmed)",
    );
  }
  const length = [...text].length;
  if (length > 2000) throw new ValueError(`sourceDeclaration must be at most 2000 characters, not ${length}`);
  return text;
}

/**
 * The origin's spelling of `license` (any letter case), or undefined when
 * none was given; a license off the list is refused.
 *
 * @example
 * ```ts
 * import { originLicense } from "./knowledge_input.ts";
 * originLicense("cc0-1.0"); // "CC0-1.0"
 * ```
 */
export function originLicense(license: unknown): string | undefined {
  if (license === undefined || license === null) return undefined;
  const listed = typeof license === "string" ? listedLicense(license) : null;
  if (!listed) {
    throw new ValueError(`license must be one of ${ORIGIN_LICENSES.join(", ")} (any letter case), not ${license}`);
  }
  return listed;
}

/**
 * JSON text of `fields` without the keys whose value is undefined or null
 * (a null means "not given" here; calls that send null mean it build their
 * body themselves).
 *
 * @example
 * ```ts
 * import { bodyOf } from "./knowledge_input.ts";
 * bodyOf({ rating: 5, comment: undefined, parentId: null }); // '{"rating":5}'
 * ```
 */
export function bodyOf(fields: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null)));
}

/**
 * A query string of the parameters given (undefined and null dropped), with
 * its `?`, or "" when none is.
 *
 * @example
 * ```ts
 * import { queryOf } from "./knowledge_input.ts";
 * queryOf({ q: "dns ttl", limit: 5, mode: undefined }); // "?q=dns+ttl&limit=5"
 * ```
 */
export function queryOf(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : "";
}

/**
 * A path segment for an id (a unit id, a slug), percent-encoded.
 *
 * @example
 * ```ts
 * import { idPath } from "./knowledge_input.ts";
 * idPath("a/b"); // "a%2Fb"
 * ```
 */
export function idPath(id: string): string {
  return encodeURIComponent(id);
}
