/**
 * ListObjectsV2's answer read: the objects of a page, the common prefixes
 * under a delimiter, and where the next page starts.
 *
 * @module
 */
import { elements, textOf } from "./_xml.ts";

/** What is known of an object from a listing or a HEAD. */
export interface ObjectInfo {
  /** Its key under the client's prefix. */
  key: string;
  /** Its size in bytes. */
  size: number;
  /** Its entity tag, quoted as the server gives it (`"9b2cf535f27731c974343645a3985328"`). */
  etag: string;
  /** When it was last written. */
  lastModified: Date;
}

/** One page of a listing. */
export interface ListPage {
  /** The objects, in key order. */
  objects: ObjectInfo[];
  /** The prefixes one delimiter deeper, when a delimiter was given (`parts/`), under the client's prefix. */
  prefixes: string[];
  /** The token of the next page, when there is one. */
  next?: string;
}

/**
 * Reads a ListObjectsV2 answer, taking `strip` (the client's prefix) off
 * every key.
 *
 * @example
 * ```ts
 * import { parseListPage } from "./_list.ts";
 * const xml = "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>p/a&amp;b</Key>" +
 *   "<LastModified>2026-01-02T03:04:05.000Z</LastModified><ETag>&quot;x&quot;</ETag><Size>3</Size></Contents>" +
 *   "</ListBucketResult>";
 * parseListPage(xml, "p/").objects[0].key; // "a&b"
 * ```
 */
export function parseListPage(xml: string, strip: string): ListPage {
  const unprefixed = (key: string) => key.startsWith(strip) ? key.slice(strip.length) : key;
  const objects = elements(xml, "Contents").map((block) => ({
    key: unprefixed(textOf(block, "Key") ?? ""),
    size: Number(textOf(block, "Size") ?? "0"),
    etag: textOf(block, "ETag") ?? "",
    lastModified: new Date(textOf(block, "LastModified") ?? 0),
  }));
  const prefixes = elements(xml, "CommonPrefixes").map((block) => unprefixed(textOf(block, "Prefix") ?? ""));
  const truncated = textOf(xml, "IsTruncated") === "true";
  const token = textOf(xml, "NextContinuationToken");
  return truncated && token ? { objects, prefixes, next: token } : { objects, prefixes };
}
