/**
 * The licenses the origin takes for datasets and knowledge units
 * (origin-wire 2.4, 3.1), and their canonical spelling.
 *
 * @module
 */

/** The licenses the origin takes (any letter case; sent as listed). A node takes any string. */
export const ORIGIN_LICENSES: readonly string[] = [
  "platform-standard",
  "CC0-1.0",
  "CC-BY-4.0",
  "CC-BY-SA-4.0",
  "ODbL-1.0",
  "PDDL-1.0",
  "CDLA-Permissive-2.0",
];

/**
 * The origin's spelling of `license` when it is on the list (any letter case),
 * else null.
 *
 * @example
 * ```ts
 * import { listedLicense } from "./licenses.ts";
 * listedLicense("cc-by-4.0"); // "CC-BY-4.0"
 * listedLicense("MIT"); // null
 * ```
 */
export function listedLicense(license: string): string | null {
  return ORIGIN_LICENSES.find((l) => l.toLowerCase() === license.toLowerCase()) ?? null;
}
