/**
 * One signed call to the object store: its URL (path-style or
 * virtual-hosted), the signature, a limit on the wait for the answer's
 * headers, tries again after a network failure or a 5xx for calls that are
 * safe to repeat, and S3's XML error turned into an
 * {@linkcode ObjectStoreError}.
 *
 * @module
 */
import type { S3Config } from "./config.ts";
import { encodePath } from "./_encode.ts";
import { codeOfStatus, ObjectStoreError } from "./errors.ts";
import { canonicalQuery, sha256Hex, signS3Headers } from "./sigv4.ts";
import { textOf } from "./_xml.ts";

/** One call. */
export interface S3Call {
  /** `GET`, `PUT`, ... */
  method: string;
  /** The whole key (prefix included); none for a call on the bucket. */
  key?: string;
  /** Query parameters, not encoded. */
  query?: [string, string][];
  /** Headers to send and sign (lower-case names). */
  headers?: Record<string, string>;
  /** The body, sent whole and hashed into the signature. */
  body?: Uint8Array;
  /** Whether the same call may be sent again after a failure that leaves its effect unknown. */
  idempotent: boolean;
  /** Statuses answered rather than thrown (404 for a HEAD that asks whether a key is there). */
  accept?: number[];
  /** Told of each try, from 1. */
  onAttempt?: (attempt: number) => void;
}

/** Where a call goes: what is signed, and the URL sent to. */
export interface S3Target {
  /** `https:` or `http:`. */
  protocol: string;
  /** Host and port as the URL has them. */
  host: string;
  /** The path, not encoded. */
  path: string;
}

/**
 * Where a call on `key` (or on the bucket) goes under `config`.
 *
 * @example
 * ```ts
 * import { targetOf } from "./_request.ts";
 * const config = {
 *   bucket: "b", prefix: "", endpoint: "http://127.0.0.1:7070", region: "us-east-1",
 *   credentials: { accessKeyId: "a", secretAccessKey: "s" }, pathStyle: true,
 * };
 * targetOf(config, "a b").path; // "/b/a b"
 * ```
 */
export function targetOf(config: S3Config, key?: string): S3Target {
  const endpoint = new URL(config.endpoint);
  const base = endpoint.pathname.replace(/\/+$/, "");
  if (config.pathStyle) {
    return {
      protocol: endpoint.protocol,
      host: endpoint.host,
      path: `${base}/${config.bucket}${key === undefined ? "" : `/${key}`}`,
    };
  }
  return { protocol: endpoint.protocol, host: `${config.bucket}.${endpoint.host}`, path: `${base}/${key ?? ""}` };
}

/** `s3://bucket/key` of a call, for messages. */
export function callName(config: S3Config, method: string, key?: string): string {
  return `${method} s3://${config.bucket}/${key ?? ""}`;
}

/** Checks that `key` can travel in a URL path unchanged: not empty, at most 1024 bytes, no "." or ".." part. */
export function checkKey(key: string): void {
  if (key === "" || new TextEncoder().encode(key).length > 1024) {
    throw new ObjectStoreError(
      `key ${JSON.stringify(key.slice(0, 80))}`,
      400,
      "KeyTooLongError",
      "keys are 1 to 1024 bytes",
    );
  }
  if (key.split("/").some((s) => s === "." || s === "..")) {
    // A URL's path drops such parts, so the key could not be named.
    throw new ObjectStoreError(`key ${JSON.stringify(key)}`, 400, "InvalidKey", 'a key has no "." or ".." part');
  }
}

async function failureOf(config: S3Config, call: S3Call, response: Response): Promise<ObjectStoreError> {
  const text = call.method === "HEAD" ? "" : await response.text().catch(() => "");
  const code = textOf(text, "Code") ?? codeOfStatus(response.status);
  const message = textOf(text, "Message") ?? response.statusText;
  return new ObjectStoreError(callName(config, call.method, call.key), response.status, code, message);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sends `call` once; the answer, or the error it came to. */
async function attempt(config: S3Config, call: S3Call): Promise<Response | ObjectStoreError> {
  const target = targetOf(config, call.key);
  const headers = signS3Headers(
    {
      method: call.method,
      host: target.host,
      path: target.path,
      query: call.query,
      headers: call.headers,
      payloadHash: call.body ? sha256Hex(call.body) : undefined,
    },
    config.credentials,
    config.region,
    new Date(),
  );
  delete headers.host;
  // Sent unsigned (a proxy may rewrite it): the bytes stored, never a compressed form of them.
  headers["accept-encoding"] = "identity";
  const search = call.query?.length ? `?${canonicalQuery(call.query)}` : "";
  const url = `${target.protocol}//${target.host}${encodePath(target.path)}${search}`;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), config.timeoutMs ?? 30_000);
  try {
    const response = await fetch(url, {
      method: call.method,
      headers,
      body: call.body as BodyInit | undefined,
      signal: abort.signal,
      redirect: "manual",
    });
    if (response.ok || call.accept?.includes(response.status)) return response;
    return await failureOf(config, call, response);
  } catch (e) {
    const reason = abort.signal.aborted ? `no answer within ${config.timeoutMs ?? 30_000} ms` : String(e);
    return new ObjectStoreError(callName(config, call.method, call.key), 0, "NetworkError", reason);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends `call` under `config`: the answer when it is a success (or a
 * status in `call.accept`), else throws the {@linkcode ObjectStoreError}
 * it came to; an idempotent call is tried again after a transient failure,
 * `config.retries` times (default 3), waiting 0.2 s, 0.4 s, 0.8 s... with
 * jitter.
 */
export async function send(config: S3Config, call: S3Call): Promise<Response> {
  const retries = call.idempotent ? config.retries ?? 3 : 0;
  for (let n = 0;; n++) {
    call.onAttempt?.(n + 1);
    const result = await attempt(config, call);
    if (result instanceof Response) return result;
    if (n >= retries || !result.transient) throw result;
    await pause(200 * 2 ** n * (0.5 + Math.random()));
  }
}
