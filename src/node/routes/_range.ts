/**
 * Single byte ranges over a file the node serves whole (parts, kept
 * exports): `Range: bytes=...` (206 with `Content-Range`, 416 past the end),
 * `If-Range` against a strong ETag (a mismatch gets the whole file, 200), and
 * HEAD.
 *
 * @module
 */
import type { FileHandle } from "node:fs/promises";
import { NodeError } from "../../errors/mod.ts";
import { fileBody } from "../file_body.ts";

/** A single byte range `[start, end]` or why none applies. */
export type ByteRange = { start: number; end: number } | "full" | "unsatisfiable";

/**
 * Parses one `Range: bytes=...` value against a file of `size` bytes; what
 * is not one well-formed range means the whole file.
 *
 * @example
 * ```ts
 * import { parseRange } from "./_range.ts";
 * parseRange("bytes=100-", 300); // { start: 100, end: 299 }
 * parseRange("bytes=300-", 300); // "unsatisfiable"
 * ```
 */
export function parseRange(header: string | null, size: number): ByteRange {
  if (header === null) return "full";
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return "full";
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== "" && Number(m[2]) < start) return "full";
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

/**
 * Whether an `If-None-Match` value names `etag` (or `*`); weak tags compare
 * by their opaque part.
 *
 * @example
 * ```ts
 * import { matchesEtag } from "./_range.ts";
 * matchesEtag('W/"abc", "def"', '"abc"'); // true
 * ```
 */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

/**
 * The answer for an open file of `size` bytes: the whole file (200), the one
 * range asked for (206), or a range-not-satisfiable {@linkcode NodeError}
 * (416, the wire's JSON error, `Content-Range: bytes *\/size`). A range
 * is honoured only when `If-Range` is absent or equals `etag` exactly (a
 * strong comparison), so a resumed download never joins two different
 * files. The handle is closed once the body ends, or at once when there is
 * no body (HEAD, 416, an empty file).
 */
export async function rangedFile(
  req: Request,
  handle: FileHandle,
  size: number,
  headers: Record<string, string>,
  etag: string,
): Promise<Response> {
  const all: Record<string, string> = { ...headers, etag, "accept-ranges": "bytes" };
  const bare = async (status: number, extra: Record<string, string> = {}) => {
    await handle.close();
    return new Response(null, { status, headers: { ...all, ...extra } });
  };
  const ifRange = req.headers.get("if-range");
  const range = ifRange === null || ifRange.trim() === etag ? parseRange(req.headers.get("range"), size) : "full";
  if (range === "unsatisfiable") {
    await handle.close();
    const { "content-type": _type, "content-length": _length, ...kept } = all;
    throw new NodeError("range-not-satisfiable", `range not satisfiable: the file has ${size} bytes`, {
      ...kept,
      "content-range": `bytes */${size}`,
    });
  }
  const { start, end } = range === "full" ? { start: 0, end: size - 1 } : range;
  all["content-length"] = String(end - start + 1);
  const status = range === "full" ? 200 : 206;
  if (status === 206) all["content-range"] = `bytes ${start}-${end}/${size}`;
  if (req.method === "HEAD" || size === 0) return await bare(status);
  return new Response(fileBody(handle, start, end), { status, headers: all });
}
