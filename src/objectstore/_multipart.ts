/**
 * A body of unknown length, streamed up in parts: cut into parts of a
 * fixed size, sent as one multipart upload a few parts at a time (memory
 * stays at those parts), completed in order, or aborted on any failure so
 * that no half object is ever visible.
 *
 * @module
 */
import type { S3Config } from "./config.ts";
import { ObjectStoreError } from "./errors.ts";
import { callName, send } from "./_request.ts";
import { elements, escapeXml, textOf } from "./_xml.ts";

/** The most parts S3 takes in one upload. */
const MAX_PARTS = 10_000;

/**
 * `source` cut into parts of `size` bytes (the last may be shorter; none
 * for an empty source).
 *
 * @example
 * ```ts
 * import { partsOf } from "./_multipart.ts";
 * async function* chunks() { yield new Uint8Array(3); yield new Uint8Array(4); }
 * const sizes = [];
 * for await (const part of partsOf(chunks(), 5)) sizes.push(part.length);
 * sizes; // [5, 2]
 * ```
 */
export async function* partsOf(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let buffer = new Uint8Array(size);
  let filled = 0;
  for await (const chunk of source) {
    for (let at = 0; at < chunk.length;) {
      const n = Math.min(size - filled, chunk.length - at);
      buffer.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === size) {
        yield buffer;
        buffer = new Uint8Array(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buffer.subarray(0, filled);
}

/** How a multipart upload goes. */
export interface MultipartOptions {
  /** Parts sent at once. */
  concurrency: number;
  /** `If-None-Match: *` on the completion: the object appears only if no other did first. */
  ifNoneMatch?: "*";
  /** The object's `Content-Type`. */
  contentType?: string;
}

async function createUpload(config: S3Config, key: string, contentType?: string): Promise<string> {
  const response = await send(config, {
    method: "POST",
    key,
    query: [["uploads", ""]],
    headers: contentType ? { "content-type": contentType } : {},
    // Tried again, it may leave an upload never completed behind: a bucket's lifecycle rule clears those.
    idempotent: true,
  });
  const id = textOf(await response.text(), "UploadId");
  if (!id) throw new ObjectStoreError(callName(config, "POST", key), response.status, "NoUploadId", "no UploadId");
  return id;
}

async function uploadPart(config: S3Config, key: string, id: string, number: number, body: Uint8Array) {
  const response = await send(config, {
    method: "PUT",
    key,
    query: [["partNumber", String(number)], ["uploadId", id]],
    body,
    idempotent: true,
  });
  await response.body?.cancel();
  const etag = response.headers.get("etag");
  if (!etag) throw new ObjectStoreError(callName(config, "PUT", key), response.status, "NoETag", `part ${number}`);
  return etag;
}

async function completeUpload(
  config: S3Config,
  key: string,
  id: string,
  etags: string[],
  options: MultipartOptions,
): Promise<string> {
  const body = `<CompleteMultipartUpload>${
    etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`).join("")
  }</CompleteMultipartUpload>`;
  const response = await send(config, {
    method: "POST",
    key,
    query: [["uploadId", id]],
    headers: { "content-type": "application/xml", ...(options.ifNoneMatch ? { "if-none-match": "*" } : {}) },
    body: new TextEncoder().encode(body),
    // Completed twice, the second finds no upload; a conditional one would find its own object and call it a rival.
    idempotent: false,
  });
  const text = await response.text();
  // S3 may answer 200 and still fail, saying so in the body.
  const code = textOf(text, "Code");
  if (code) throw new ObjectStoreError(callName(config, "POST", key), 200, code, textOf(text, "Message") ?? "");
  return textOf(text, "ETag") ?? "";
}

/** Aborts upload `id` of `key`: its parts are dropped. */
export async function abortUpload(config: S3Config, key: string, id: string): Promise<void> {
  const response = await send(config, { method: "DELETE", key, query: [["uploadId", id]], idempotent: true });
  await response.body?.cancel();
}

/** A multipart upload begun and neither completed nor aborted. */
export interface OpenUpload {
  /** Its key under the client's prefix. */
  key: string;
  /** Its id. */
  uploadId: string;
  /** When it began. */
  initiated: Date;
}

/** The first 1,000 uploads open under `prefix` (a whole key prefix), their keys with `strip` taken off. */
export async function openUploads(config: S3Config, prefix: string, strip: string): Promise<OpenUpload[]> {
  const response = await send(config, {
    method: "GET",
    query: [["uploads", ""], ["prefix", prefix]],
    idempotent: true,
  });
  return elements(await response.text(), "Upload").map((block) => {
    const key = textOf(block, "Key") ?? "";
    return {
      key: key.startsWith(strip) ? key.slice(strip.length) : key,
      uploadId: textOf(block, "UploadId") ?? "",
      initiated: new Date(textOf(block, "Initiated") ?? 0),
    };
  });
}

/**
 * Uploads `parts` (at least two) to `key` as one multipart upload; the
 * object's entity tag and size.
 */
export async function multipartUpload(
  config: S3Config,
  key: string,
  parts: AsyncIterable<Uint8Array>,
  options: MultipartOptions,
): Promise<{ etag: string; size: number }> {
  const id = await createUpload(config, key, options.contentType);
  const etags: string[] = [];
  const running = new Set<Promise<void>>();
  let size = 0;
  try {
    let number = 0;
    for await (const part of parts) {
      if (++number > MAX_PARTS) {
        throw new ObjectStoreError(callName(config, "PUT", key), 400, "TooManyParts", `more than ${MAX_PARTS} parts`);
      }
      size += part.length;
      const at = number;
      const sent: Promise<void> = uploadPart(config, key, id, at, part).then((etag) => void (etags[at - 1] = etag));
      const tracked = sent.finally(() => running.delete(tracked));
      tracked.catch(() => {}); // seen by Promise.race/all below; not unhandled meanwhile
      running.add(tracked);
      if (running.size >= options.concurrency) await Promise.race(running);
    }
    await Promise.all(running);
    return { etag: await completeUpload(config, key, id, etags, options), size };
  } catch (e) {
    await Promise.allSettled(running);
    // The failure that led here is the one to report; a lifecycle rule clears an upload this cannot abort.
    await abortUpload(config, key, id).catch(() => {});
    throw e;
  }
}
