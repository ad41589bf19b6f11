/**
 * The client side of svc: the wire shapes a node and the origin answer
 * with, and their validators. Importing this module loads no part of the
 * node and no database.
 *
 * @example
 * ```ts
 * import { isSlug, type DataPage } from "./mod.ts";
 * const page: DataPage = await (await fetch("http://127.0.0.1:8686/projects/cities/data")).json();
 * console.log(isSlug(page.project), page.count);
 * ```
 *
 * @module
 */
export { isSha256, isSlug, SHA256_PATTERN, SLUG_PATTERN } from "./src/wire/slug.ts";
export type * from "./src/wire/types.ts";
export { VERSION } from "./src/version.ts";
