/**
 * The percent-encoding Signature Version 4 asks for: every byte but the
 * unreserved characters of RFC 3986 (`A-Z a-z 0-9 - . _ ~`) as `%XX` in
 * upper case. An object key's slashes stay as they are in its path.
 *
 * @module
 */

/**
 * `text` percent-encoded byte by byte, all but the unreserved characters.
 *
 * @example
 * ```ts
 * import { uriEncode } from "./_encode.ts";
 * uriEncode("a b/c$ሴ"); // "a%20b%2Fc%24%E1%88%B4"
 * ```
 */
export function uriEncode(text: string): string {
  // encodeURIComponent leaves ! ' ( ) * alone; SigV4 encodes them.
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A path encoded segment by segment: slashes kept, everything else as
 * {@linkcode uriEncode} has it.
 *
 * @example
 * ```ts
 * import { encodePath } from "./_encode.ts";
 * encodePath("/bucket/test$file.text"); // "/bucket/test%24file.text"
 * ```
 */
export function encodePath(path: string): string {
  return path.split("/").map(uriEncode).join("/");
}
