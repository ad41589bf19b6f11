/**
 * Push (origin-wire 2.1): a JSON-lines file sent to the origin as one
 * contribution by a resumable multipart upload. The file is copied as gzip
 * (level 6) to `<file>.svc-upload.gz`, cut into parts of at least 5 MiB (at
 * most 1,000 of them), the upload is opened with `POST
 * /projects/{slug}/uploads`, the parts are PUT in parallel to the presigned
 * URLs the origin answered (with no key: an object store refuses a second
 * credential), each part's ETag is saved in `<file>.svc-upload.json` as it
 * comes, and `POST .../uploads/{id}/complete` closes it with the ETags. A
 * push stopped at any point is resumed by the same call: only the parts
 * without an ETag are sent. A file that changed (size, modification time or
 * inode), another base URL, slug or compression starts over.
 *
 * This is the remote client: it imports nothing of the store, the node or a
 * database.
 *
 * @module
 */
import { rm, stat } from "node:fs/promises";
import { isSlug, notASlug } from "../wire/mod.ts";
import { errorForStatus, KeyRequiredError, SvcError, ValueError, WaitTimeout } from "./errors.ts";
import { callJson, type Endpoint } from "./http.ts";
import { gzipCopy, readRange } from "./_upload_file.ts";
import { eachPart, putPart } from "./_upload_parts.ts";
import {
  DEFAULT_PART_BYTES,
  dropUploadState,
  fingerprintOf,
  MAX_PART_BYTES,
  type PartPlan,
  partRange,
  planParts,
  readUploadState,
  sameFile,
  serialized,
  uploadPaths,
  type UploadState,
  writeUploadState,
} from "./_upload_state.ts";

/** Where a push is, for a progress display. */
export interface PushProgress {
  /** `gzip`: the copy is being written (`done` of `total` source bytes); `upload`: parts are being sent. */
  phase: "gzip" | "upload";
  /** Bytes done: source bytes read, or bytes of the parts the object store holds. */
  done: number;
  /** Bytes in all. */
  total: number;
  /** Parts the object store holds (upload phase). */
  partsDone: number;
  /** Parts in all (upload phase; 0 while gzipping). */
  parts: number;
  /** The upload's id, once it is open. */
  uploadId: string | null;
}

/** How to push. */
export interface PushOptions {
  /** Where the records come from (4 to 2000 characters), sent as `sourceDeclaration` (null when absent). */
  sourceDeclaration?: string | null;
  /** Send a gzip copy (default true); false sends the file as it is. */
  compress?: boolean;
  /** Bytes of each part (default 8 MiB); raised to 5 MiB, and further when over 1,000 parts would be needed. */
  partSize?: number;
  /** Parts sent at once (default 4). */
  workers?: number;
  /** Wait until the origin has screened the contribution (merged or rejected). */
  wait?: boolean;
  /** Milliseconds to wait for the screening (default 900,000). */
  timeout?: number;
  /** Hears how far the push is. */
  onProgress?: (progress: PushProgress) => void;
  /** Stops the push; what was stored stays for the next call to resume. */
  signal?: AbortSignal;
  /** Refuse to go without an agent key (default true). */
  requireKey?: boolean;
}

/** What a push did: the origin's answer to `complete`, and with `wait` the screened contribution merged in. */
export interface PushResult {
  /** The contribution the upload became. */
  contributionId: string;
  /** Its status: as `complete` answered, or with `wait` the final one (`merged`, `rejected`). */
  status?: string;
  /** Parts of the upload. */
  parts: number;
  /** Parts this call sent (the others were stored by an earlier, stopped call). */
  uploadedParts: number;
  /** Bytes uploaded (the gzip copy's size, or the file's). */
  bytes: number;
  /** With `wait`: records accepted. */
  acceptedCount?: number | null;
  /** With `wait`: the version the records went into. */
  mergedVersion?: number | null;
  /** With `wait`: `{gate, reason}` when rejected. */
  verdict?: { gate?: string; reason?: string; [key: string]: unknown } | null;
  /** Anything else the origin answered. */
  [field: string]: unknown;
}

/** The body of `POST /projects/{slug}/uploads`. */
export interface UploadRequest {
  /** Bytes of the upload. */
  bytes: number;
  /** How many parts. */
  parts: number;
  /** Bytes of every part but the last. */
  partSize: number;
  /** Where the records come from, or null (sent even when null). */
  sourceDeclaration: string | null;
  /** `gzip` or `none`. */
  compression: "gzip" | "none";
}

/** The origin's answer to {@linkcode UploadRequest}. */
export interface UploadAnswer {
  /** The upload's id. */
  uploadId: string;
  /** When the part URLs expire, or null. */
  expiresAt: string | null;
  /** A presigned URL per part, each signed for that part's exact length. */
  urls: Record<string, string>;
}

const FINAL = new Set(["merged", "rejected"]);
/** The upload fields of a state that has no upload open. */
const NO_UPLOAD = { uploadId: "", expiresAt: null, urls: {} } as const;
/** A saved upload this close to its expiry is not resumed: its URLs would fail before the parts are sent. */
const EXPIRY_MARGIN_MS = 60_000;
const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function baseOf(endpoint: Endpoint): string {
  return endpoint.baseUrl.replace(/\/+$/, "");
}

function nodeRefusal(base: string, body: unknown): SvcError {
  return new SvcError(
    `${base} is a node, and push goes to the origin (a node answers 405 to uploads): set the base URL to the ` +
      "origin (SVC_BASE_URL, --base-url); a node's local projects take records with contribute",
    405,
    "push_on_node",
    body,
  );
}

/**
 * Opens an upload: `POST /projects/{slug}/uploads` (never retried). A node
 * answers 405: that becomes an error saying push goes to the origin.
 */
export async function initUpload(endpoint: Endpoint, slug: string, request: UploadRequest): Promise<UploadAnswer> {
  const base = baseOf(endpoint);
  let body: unknown;
  try {
    body = (await callJson(endpoint, "POST", `/projects/${slug}/uploads`, JSON.stringify(request), {}, {
      route: "POST /projects/{slug}/uploads",
    })).body;
  } catch (e) {
    if (e instanceof SvcError && e.status === 405) throw nodeRefusal(base, e.body);
    throw e;
  }
  const answer = body as { uploadId?: unknown; expiresAt?: unknown; parts?: unknown };
  const urls: Record<string, string> = {};
  for (const part of Array.isArray(answer?.parts) ? answer.parts : []) {
    const { n, url } = (part ?? {}) as { n?: unknown; url?: unknown };
    if (Number.isSafeInteger(n) && typeof url === "string" && /^https?:\/\//.test(url)) urls[String(n)] = url;
  }
  const complete = Array.from({ length: request.parts }, (_, i) => String(i + 1)).every((n) => n in urls);
  if (typeof answer?.uploadId !== "string" || answer.uploadId === "" || !complete) {
    const said = `${base}: the upload was answered without an uploadId and a URL for every part`;
    throw new SvcError(said, 0, "bad_answer", body);
  }
  const expiresAt = typeof answer.expiresAt === "string" ? answer.expiresAt : null;
  return { uploadId: answer.uploadId, expiresAt, urls };
}

/** The origin's `/healthz` says it is a node: refuse before the file is copied. An unreachable base URL fails here. */
async function refuseNode(endpoint: Endpoint): Promise<void> {
  let body: unknown;
  try {
    body = (await callJson(endpoint, "GET", "/healthz", null, {}, { route: "GET /healthz" })).body;
  } catch (e) {
    if (e instanceof SvcError && e.status === null) throw e;
    return; // an origin without /healthz (or one answering it oddly) is still asked to take the upload
  }
  if ((body as { node?: unknown } | null)?.node === true) throw nodeRefusal(baseOf(endpoint), body);
}

/**
 * Waits until contribution `id` of `slug` is `merged` or `rejected`
 * (polled at once, then after 0.25 s doubling up to 5 s); fails with
 * `contribution <id> still <status> after <t>s` once `timeoutMs` passed.
 */
export async function waitForScreening(
  endpoint: Endpoint,
  slug: string,
  id: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  const path = `/projects/${slug}/contributions/${encodeURIComponent(id)}`;
  for (let wait = 250;; wait = Math.min(wait * 2, 5_000)) {
    signal?.throwIfAborted();
    const view = (await callJson(endpoint, "GET", path, null, {}, { route: "GET /projects/{slug}/contributions/{id}" }))
      .body as Record<string, unknown>;
    if (FINAL.has(String(view?.status))) return view;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new WaitTimeout(
        `contribution ${id} still ${view?.status} after ${timeoutMs / 1000}s`,
        null,
        "wait_timeout",
        view,
      );
    }
    await sleepFor(Math.min(wait, left));
  }
}

async function sizeOf(path: string): Promise<number | null> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? info.size : null;
}

function checkOptions(slug: string, options: PushOptions): { workers: number; partSize: number } {
  if (!isSlug(slug)) throw new ValueError(notASlug(slug));
  const declaration = options.sourceDeclaration;
  if (declaration !== undefined && declaration !== null) {
    const length = typeof declaration === "string" ? [...declaration].length : -1;
    if (length < 4 || length > 2000) throw new ValueError("sourceDeclaration must be 4 to 2000 characters");
  }
  const workers = options.workers ?? 4;
  if (!Number.isSafeInteger(workers) || workers < 1 || workers > 64) {
    throw new ValueError("workers must be a whole number from 1 to 64");
  }
  const partSize = options.partSize ?? DEFAULT_PART_BYTES;
  if (!(partSize > 0) || partSize > MAX_PART_BYTES) {
    throw new ValueError("partSize must be more than 0 and at most 5 GiB");
  }
  return { workers, partSize };
}

/**
 * Pushes the JSON-lines `file` to project `slug` on the origin as one
 * contribution (see the module's description), resuming a push of the same
 * file that was stopped.
 */
export async function pushFile(
  endpoint: Endpoint,
  slug: string,
  file: string,
  options: PushOptions = {},
): Promise<PushResult> {
  const { workers, partSize: asked } = checkOptions(slug, options);
  if (!endpoint.apiKey && options.requireKey !== false) throw new KeyRequiredError("push");
  const { signal, onProgress = () => {} } = options;
  const compress = options.compress ?? true;
  const now = await fingerprintOf(file, { baseUrl: baseOf(endpoint), slug, compress });
  if (!now) throw new SvcError(`no such file: ${file}`, 0, "no_file", null);
  if (now.size === 0) throw new SvcError(`${file} is empty: there is nothing to push`, 0, "empty_file", null);
  await refuseNode(endpoint);
  const paths = uploadPaths(file);
  const sent = compress ? paths.gzip : file;
  let state = await readUploadState(paths.state);
  if (state && !(sameFile(state, now) && await sizeOf(sent) === state.uploadBytes)) state = null;
  if (!state) {
    await dropUploadState(paths.state);
    if (compress) {
      const report = (done: number) =>
        onProgress({ phase: "gzip", done, total: now.size, partsDone: 0, parts: 0, uploadId: null });
      report(0);
      await gzipCopy(file, paths.gzip, report, signal);
    }
  }
  const bytes = (await sizeOf(sent)) ?? 0;
  const plan: PartPlan = planParts(bytes, asked);
  // Until an upload is open, the state says only that the copy is whole: a stop before `init` keeps it.
  state ??= { format: "svc-upload/1", ...now, uploadBytes: bytes, ...plan, ...NO_UPLOAD, etags: {} };
  const fresh = (s: UploadState) =>
    s.uploadId !== "" && s.partSize === plan.partSize && s.parts === plan.parts && s.uploadBytes === bytes &&
    Array.from({ length: plan.parts }, (_, i) => String(i + 1)).every((n) => typeof s.urls[n] === "string") &&
    (s.expiresAt === null || Date.parse(s.expiresAt) - Date.now() > EXPIRY_MARGIN_MS);
  if (!state || !fresh(state)) {
    const request: UploadRequest = {
      bytes,
      parts: plan.parts,
      partSize: plan.partSize,
      sourceDeclaration: options.sourceDeclaration ?? null,
      compression: compress ? "gzip" : "none",
    };
    await writeUploadState(paths.state, { ...state, ...plan, ...NO_UPLOAD, etags: {} });
    const upload = await initUpload(endpoint, slug, request);
    state = { ...state, ...plan, ...upload, etags: {} };
    await writeUploadState(paths.state, state);
  }
  const held: UploadState = state;
  /** The upload will not take parts any more: forget it, keep the copy, so the next push opens a new one from it. */
  const retire = () => writeUploadState(paths.state, { ...held, ...NO_UPLOAD, etags: {} });
  const save = serialized(() => writeUploadState(paths.state, held));
  const sizeOfPart = (n: number) => partRange(n, plan, bytes)[1] - partRange(n, plan, bytes)[0];
  let stored = Object.keys(held.etags).reduce((sum, n) => sum + sizeOfPart(Number(n)), 0);
  let partsDone = Object.keys(held.etags).length;
  const report = () =>
    onProgress({
      phase: "upload",
      done: stored,
      total: bytes,
      partsDone,
      parts: plan.parts,
      uploadId: held.uploadId,
    });
  report();
  const missing = Array.from({ length: plan.parts }, (_, i) => i + 1).filter((n) => !held.etags[String(n)]);
  let uploadedParts = 0;
  try {
    await eachPart(missing, workers, signal, async (n) => {
      const [start, end] = partRange(n, plan, bytes);
      const etag = await putPart(endpoint, held.urls[String(n)], await readRange(sent, start, end), signal);
      held.etags[String(n)] = etag;
      uploadedParts++;
      await save();
      stored += end - start;
      partsDone++;
      report();
    });
  } catch (e) {
    if (e instanceof SvcError && (e.status === 403 || e.status === 404)) {
      // The part URLs are refused (expired, or the upload is gone): they will not take a part again.
      await retire();
      throw errorForStatus(
        e.status,
        `${e.message} (upload ${held.uploadId}: its part URLs are refused, expired or gone; ` +
          "the next push of this file starts a new upload)",
        e.body,
      );
    }
    throw e;
  }
  const etags = Object.entries(held.etags).map(([n, etag]) => ({ n: Number(n), etag })).sort((a, b) => a.n - b.n);
  let answer: Record<string, unknown>;
  try {
    answer = (await callJson(
      endpoint,
      "POST",
      `/projects/${slug}/uploads/${encodeURIComponent(held.uploadId)}/complete`,
      JSON.stringify({ etags }),
      {},
      { route: "POST /projects/{slug}/uploads/{uploadId}/complete" },
    )).body as Record<string, unknown>;
  } catch (e) {
    if (e instanceof SvcError && (e.status === 404 || e.status === 410)) {
      await retire();
      throw errorForStatus(e.status, `${e.message} (the next push of this file starts a new upload)`, e.body);
    }
    throw e;
  }
  if (typeof answer?.contributionId !== "string") {
    const said = `${baseOf(endpoint)}: the upload was completed without a contributionId`;
    throw new SvcError(said, 0, "bad_answer", answer);
  }
  await dropUploadState(paths.state);
  if (compress) await rm(paths.gzip, { force: true });
  let result: PushResult = {
    ...answer,
    contributionId: answer.contributionId,
    parts: plan.parts,
    uploadedParts,
    bytes,
  };
  if (options.wait) {
    const view = await waitForScreening(endpoint, slug, answer.contributionId, options.timeout ?? 900_000, signal);
    result = { ...result, ...view };
  }
  return result;
}
