/**
 * The release of this package.
 *
 * @module
 */

/** The release, as `svc --version` prints it (kept equal to `deno.json`'s `version` by a test). */
export const VERSION = "0.1.0";
