/**
 * A small S3 client for one bucket and prefix: HEAD, GET (whole or a
 * range), PUT (whole, conditional, or streamed in parts), DELETE,
 * ListObjectsV2 page by page, and pre-signed GET URLs. Keys are relative to
 * the prefix. Written here rather than taken from the AWS SDK: these calls
 * are all the node needs, and the SDK's dozens of packages would ride into
 * every install of the node for them.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { S3Config } from "./config.ts";
import { ObjectStoreError } from "./errors.ts";
import { type ListPage, type ObjectInfo, parseListPage } from "./_list.ts";
import { s3Url } from "./location.ts";
import { abortUpload, multipartUpload, type OpenUpload, openUploads, partsOf } from "./_multipart.ts";
import { callName, checkKey, send, targetOf } from "./_request.ts";
import { presignS3Url } from "./sigv4.ts";

export type { ListPage, ObjectInfo } from "./_list.ts";
export type { OpenUpload } from "./_multipart.ts";

/** Conditions and metadata of a write. */
export interface PutOptions {
  /** `"*"`: write only if no object has the key (S3's `If-None-Match: *`); else a `conflict` error. */
  ifNoneMatch?: "*";
  /** Write only over the object whose entity tag this is (`If-Match`); else a `conflict` error. */
  ifMatch?: string;
  /** The object's `Content-Type` (default `application/octet-stream`). */
  contentType?: string;
}

/** How a streamed upload is cut. */
export interface UploadOptions extends Omit<PutOptions, "ifMatch"> {
  /** Bytes per part (default 8 MiB; S3 wants at least 5 MiB for all parts but the last). */
  partSize?: number;
  /** Parts sent at once (default 4). */
  concurrency?: number;
}

/** Which bytes to read. */
export interface GetOptions {
  /** The first byte (default 0). */
  offset?: number;
  /** How many bytes (default to the end). */
  length?: number;
  /** The last this many bytes instead (`bytes=-N`); the whole object when it is shorter. */
  suffix?: number;
  /** Read only the object whose entity tag this is; else a `conflict` error. */
  ifMatch?: string;
}

/** An object being read. */
export interface ObjectBody {
  /** The bytes asked for, to be read or cancelled. */
  body: ReadableStream<Uint8Array>;
  /** How many bytes `body` holds. */
  length: number;
  /** The whole object's size. */
  size: number;
  /** The object's entity tag. */
  etag: string;
  /** When it was last written (the epoch when the server does not say). */
  lastModified: Date;
}

/** A pre-signed GET. */
export interface PresignOptions {
  /** Seconds the URL works for (1 to 604800). */
  expiresIn: number;
  /** The instant it is signed at (default now). */
  now?: Date;
}

function md5Hex(bytes: Uint8Array): string {
  return createHash("md5").update(bytes).digest("hex");
}

function rangeOf(options: GetOptions): string | undefined {
  if (options.suffix !== undefined) {
    if (!Number.isSafeInteger(options.suffix) || options.suffix <= 0) {
      throw new RangeError(`a suffix of ${options.suffix}`);
    }
    return `bytes=-${options.suffix}`;
  }
  if (options.offset === undefined && options.length === undefined) return undefined;
  const start = options.offset ?? 0;
  if (options.length === undefined) return `bytes=${start}-`;
  if (options.length <= 0) throw new RangeError(`a range of ${options.length} bytes`);
  return `bytes=${start}-${start + options.length - 1}`;
}

/**
 * The host (and port) every call under `config` goes to: the endpoint's,
 * or the bucket's name before it when addressed virtual-hosted. What a
 * node's network permission must name.
 *
 * @example
 * ```ts
 * import { s3Host } from "./client.ts";
 * const credentials = { accessKeyId: "a", secretAccessKey: "s" };
 * s3Host({ bucket: "b", prefix: "", endpoint: "http://127.0.0.1:7070", region: "us-east-1", credentials, pathStyle: true });
 * // "127.0.0.1:7070"
 * ```
 */
export function s3Host(config: S3Config): string {
  return targetOf(config).host;
}

/** One bucket and prefix of an S3-compatible object store. */
export class S3Client {
  /** The configuration it was made with. */
  readonly config: S3Config;

  /**
   * @example
   * ```ts ignore
   * import { S3Client, s3ConfigFrom } from "./mod.ts";
   * const client = new S3Client(s3ConfigFrom("s3://datasets/svc"));
   * await client.put("hello.txt", "hi");
   * ```
   */
  constructor(config: S3Config) {
    this.config = config;
  }

  /** The whole key of `key` (the prefix before it), checked. */
  #key(key: string): string {
    const full = `${this.config.prefix}${key}`;
    checkKey(full);
    return full;
  }

  /** `s3://bucket/prefix/key`, for messages. */
  url(key = ""): string {
    return s3Url(this.config, key);
  }

  /**
   * What is known of `key`, or `null` when there is no such object (a HEAD
   * has no body to tell a missing key from a missing bucket: `listPage`
   * does, with `NoSuchBucket`).
   */
  async head(key: string): Promise<ObjectInfo | null> {
    const response = await send(this.config, { method: "HEAD", key: this.#key(key), idempotent: true, accept: [404] });
    await response.body?.cancel();
    if (response.status === 404) return null;
    return {
      key,
      size: Number(response.headers.get("content-length") ?? "0"),
      etag: response.headers.get("etag") ?? "",
      lastModified: new Date(response.headers.get("last-modified") ?? 0),
    };
  }

  /** Reads `key`, or the range `options` gives, as a stream; a `not-found` error when it is not there. */
  async get(key: string, options: GetOptions = {}): Promise<ObjectBody> {
    const full = this.#key(key);
    const range = rangeOf(options);
    const headers: Record<string, string> = {};
    if (range) headers.range = range;
    if (options.ifMatch) headers["if-match"] = options.ifMatch;
    const response = await send(this.config, { method: "GET", key: full, headers, idempotent: true });
    const length = Number(response.headers.get("content-length") ?? "0");
    const total = /\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
    const whole = options.suffix !== undefined
      ? length <= options.suffix
      : (options.offset ?? 0) === 0 && (options.length === undefined || options.length >= length);
    if (range && response.status !== 206 && !whole) {
      await response.body?.cancel();
      throw new ObjectStoreError(callName(this.config, "GET", full), response.status, "RangeIgnored", range);
    }
    return {
      body: response.body ?? new Blob([]).stream(),
      length,
      size: total ? Number(total[1]) : length,
      etag: response.headers.get("etag") ?? "",
      lastModified: new Date(response.headers.get("last-modified") ?? 0),
    };
  }

  /** Reads `key` (or a range of it) whole into memory. */
  async bytes(key: string, options: GetOptions = {}): Promise<Uint8Array> {
    const found = await this.get(key, options);
    const bytes = new Uint8Array(await new Response(found.body).arrayBuffer());
    if (bytes.length !== found.length) {
      const call = callName(this.config, "GET", this.#key(key));
      throw new ObjectStoreError(call, 0, "NetworkError", `${bytes.length} of ${found.length} bytes came`);
    }
    return bytes;
  }

  /**
   * Writes `body` to `key` in one request; its entity tag. A conditional
   * write that loses is a `conflict` {@linkcode ObjectStoreError} (code
   * `PreconditionFailed`); one tried again after its answer was lost, that
   * then finds its own bytes there (same size, same MD5), has won.
   */
  async put(key: string, body: Uint8Array | string, options: PutOptions = {}): Promise<{ etag: string }> {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    const headers: Record<string, string> = { "content-type": options.contentType ?? "application/octet-stream" };
    if (options.ifNoneMatch) headers["if-none-match"] = options.ifNoneMatch;
    if (options.ifMatch) headers["if-match"] = options.ifMatch;
    let attempts = 0;
    try {
      const response = await send(this.config, {
        method: "PUT",
        key: this.#key(key),
        headers,
        body: bytes,
        idempotent: true,
        onAttempt: (n) => void (attempts = n),
      });
      await response.body?.cancel();
      return { etag: response.headers.get("etag") ?? "" };
    } catch (e) {
      if (attempts > 1 && e instanceof ObjectStoreError && e.code === "PreconditionFailed") {
        const found = await this.head(key);
        if (found?.size === bytes.length && found.etag.replaceAll('"', "") === md5Hex(bytes)) {
          return { etag: found.etag };
        }
      }
      throw e;
    }
  }

  /**
   * Writes what `source` yields to `key`: one PUT when it fits in a part,
   * else a multipart upload that appears whole or not at all. Its entity tag
   * and size.
   */
  async upload(
    key: string,
    source: AsyncIterable<Uint8Array>,
    options: UploadOptions = {},
  ): Promise<{ etag: string; size: number }> {
    const full = this.#key(key);
    const partSize = options.partSize ?? 8 * 1024 * 1024;
    const parts = partsOf(source, partSize);
    const first = await parts.next();
    const second = first.done ? first : await parts.next();
    if (second.done) {
      const bytes = first.done ? new Uint8Array(0) : first.value;
      return { ...(await this.put(key, bytes, options)), size: bytes.length };
    }
    async function* all() {
      yield first.value as Uint8Array;
      yield second.value as Uint8Array;
      yield* parts;
    }
    return await multipartUpload(this.config, full, all(), {
      concurrency: options.concurrency ?? 4,
      ifNoneMatch: options.ifNoneMatch,
      contentType: options.contentType ?? "application/octet-stream",
    });
  }

  /** Multipart uploads begun under `prefix` and never finished (a writer that died mid-way leaves them). */
  openUploads(prefix = ""): Promise<OpenUpload[]> {
    return openUploads(this.config, `${this.config.prefix}${prefix}`, this.config.prefix);
  }

  /** Drops an open upload's parts. */
  abortUpload(upload: OpenUpload): Promise<void> {
    return abortUpload(this.config, this.#key(upload.key), upload.uploadId);
  }

  /** Deletes `key` (nothing happens when it is not there). */
  async delete(key: string): Promise<void> {
    const response = await send(this.config, { method: "DELETE", key: this.#key(key), idempotent: true });
    await response.body?.cancel();
  }

  /** One page of the objects whose keys start with `prefix` (ListObjectsV2). */
  async listPage(
    prefix: string,
    options: { token?: string; maxKeys?: number; delimiter?: string; startAfter?: string } = {},
  ): Promise<ListPage> {
    const query: [string, string][] = [["list-type", "2"], ["prefix", `${this.config.prefix}${prefix}`]];
    if (options.token) query.push(["continuation-token", options.token]);
    if (options.maxKeys) query.push(["max-keys", String(options.maxKeys)]);
    if (options.delimiter) query.push(["delimiter", options.delimiter]);
    if (options.startAfter) query.push(["start-after", `${this.config.prefix}${options.startAfter}`]);
    const response = await send(this.config, { method: "GET", query, idempotent: true });
    return parseListPage(await response.text(), this.config.prefix);
  }

  /** Every object whose key starts with `prefix`, in key order, a page at a time. */
  async *list(prefix: string, options: { pageSize?: number } = {}): AsyncGenerator<ObjectInfo> {
    let token: string | undefined;
    do {
      const page = await this.listPage(prefix, { token, maxKeys: options.pageSize });
      yield* page.objects;
      token = page.next;
    } while (token);
  }

  /** A URL that GETs `key` for `options.expiresIn` seconds with no credentials. */
  presignGet(key: string, options: PresignOptions): string {
    const target = targetOf(this.config, this.#key(key));
    return presignS3Url(
      { method: "GET", ...target, expiresIn: options.expiresIn },
      this.config.credentials,
      this.config.region,
      options.now ?? new Date(),
    );
  }

  /** Creates the bucket (tests and first setups; a bucket already there and owned is fine). */
  async createBucket(): Promise<void> {
    const region = this.config.region;
    const body = region === "us-east-1" ? undefined : new TextEncoder().encode(
      `<CreateBucketConfiguration><LocationConstraint>${region}</LocationConstraint></CreateBucketConfiguration>`,
    );
    const response = await send(this.config, { method: "PUT", body, idempotent: true, accept: [409] });
    const text = await response.text();
    if (response.status === 409 && !text.includes("BucketAlreadyOwnedByYou")) {
      throw new ObjectStoreError(callName(this.config, "PUT"), 409, "BucketAlreadyExists", "owned by someone else");
    }
  }
}
