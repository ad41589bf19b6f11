/**
 * The shapes of the client's own calls that the wire documents do not name:
 * an export answer and an export download.
 *
 * @module
 */
export type { QueryAnswer } from "../wire/mod.ts";

/** One answer of `GET /projects/{slug}/export`, its body unread. */
export interface ExportAnswer {
  /** 200 (the whole export), 206 (the bytes from `offset` on) or 416 (nothing past `size`). */
  status: number;
  /** The file name the node suggests, or null. */
  filename: string | null;
  /** The export's strong ETag, or null when the answer carried none. */
  etag: string | null;
  /** Where in the export the body starts: 0 for the whole, the range's start for 206, `size` for 416. */
  offset: number;
  /** Bytes of the whole export, when the answer says (never while it is still being made). */
  size: number | null;
  /** The bytes. */
  body: ReadableStream<Uint8Array>;
}

/** How to download an export to a file. */
export interface ExportFileOptions {
  /** The version (default: the newest, asked of `GET /projects/{slug}`). */
  version?: number;
  /** The file (default `./<slug>-v<N>.jsonl.gz`); the bytes go to `<file>.part` until whole. */
  out?: string;
  /** Called as bytes arrive: bytes held so far, and the whole export's (0 when not known yet). */
  onProgress?: (doneBytes: number, totalBytes: number) => void;
}

/** What a finished export download holds. */
export interface ExportFileResult {
  /** Project slug. */
  project: string;
  /** Version exported. */
  version: number;
  /** Where it was written. */
  file: string;
  /** Bytes of the file (gzip). */
  bytes: number;
  /** Records (lines) in it. */
  records: number;
  /** Bytes already held from an earlier, cut download (0 when it started afresh). */
  resumedFrom: number;
}
