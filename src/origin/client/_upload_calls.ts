/**
 * The origin's calls of a push: opening an upload, completing it, the
 * refusal a node gives, and the wait for the screening of the contribution
 * the upload became.
 *
 * @module
 */
import { errorForStatus, SvcError, WaitTimeout } from "@svc/cli/client";
import { callJson, type Endpoint } from "@svc/cli/client";

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
const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The base URL of `endpoint`, without a trailing slash. */
export function baseOf(endpoint: Endpoint): string {
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
export async function refuseNode(endpoint: Endpoint): Promise<void> {
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

/**
 * Completes upload `uploadId` of `slug` with the parts' `etags`; the
 * origin's answer names the contribution. `retire` runs when the upload is
 * gone (404, 410): the next push starts a new one.
 */
export async function completeUpload(
  endpoint: Endpoint,
  slug: string,
  uploadId: string,
  etags: { n: number; etag: string }[],
  retire: () => Promise<void>,
): Promise<Record<string, unknown> & { contributionId: string }> {
  let answer: Record<string, unknown>;
  try {
    answer = (await callJson(
      endpoint,
      "POST",
      `/projects/${slug}/uploads/${encodeURIComponent(uploadId)}/complete`,
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
  return answer as Record<string, unknown> & { contributionId: string };
}
