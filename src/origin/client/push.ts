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
import { isSlug, notASlug } from "@svc/cli/wire";
import { errorForStatus, KeyRequiredError, SvcError, ValueError } from "@svc/cli/client";
import type { Endpoint, PushOptions, PushResult } from "@svc/cli/client";
import {
  baseOf,
  completeUpload,
  initUpload,
  refuseNode,
  type UploadRequest,
  waitForScreening,
} from "./_upload_calls.ts";
export { initUpload, type UploadAnswer, type UploadRequest, waitForScreening } from "./_upload_calls.ts";
export type { PushOptions, PushProgress, PushResult } from "@svc/cli/client";
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

/** The upload fields of a state that has no upload open. */
const NO_UPLOAD = { uploadId: "", expiresAt: null, urls: {} } as const;
/** A saved upload this close to its expiry is not resumed: its URLs would fail before the parts are sent. */
const EXPIRY_MARGIN_MS = 60_000;

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

/** A push's gzip copy (or the file) and its saved state, as far as a stopped push got. */
interface Prepared {
  /** What is sent: the gzip copy, or the file itself. */
  sent: string;
  /** Where the state is saved. */
  statePath: string;
  /** The saved state, when it still fits the file. */
  state: UploadState | null;
  /** The file as it is now. */
  now: NonNullable<Awaited<ReturnType<typeof fingerprintOf>>>;
}

/** The copy to send (made afresh unless a saved state still fits the file) and the state to resume from. */
async function prepared(endpoint: Endpoint, slug: string, file: string, options: PushOptions): Promise<Prepared> {
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
  return { sent, statePath: paths.state, state, now };
}

/** The upload to send `bytes` in parts of `plan`: the saved one while its URLs still serve, else a new one. */
async function openedUpload(
  endpoint: Endpoint,
  slug: string,
  ready: Prepared,
  upload: { bytes: number; plan: PartPlan; options: PushOptions },
): Promise<UploadState> {
  const { bytes, plan, options } = upload;
  // Until an upload is open, the state says only that the copy is whole: a stop before `init` keeps it.
  const state: UploadState = ready.state ??
    { format: "svc-upload/1", ...ready.now, uploadBytes: bytes, ...plan, ...NO_UPLOAD, etags: {} };
  const fresh = state.uploadId !== "" && state.partSize === plan.partSize && state.parts === plan.parts &&
    state.uploadBytes === bytes &&
    Array.from({ length: plan.parts }, (_, i) => String(i + 1)).every((n) => typeof state.urls[n] === "string") &&
    (state.expiresAt === null || Date.parse(state.expiresAt) - Date.now() > EXPIRY_MARGIN_MS);
  if (fresh) return state;
  const request: UploadRequest = {
    bytes,
    parts: plan.parts,
    partSize: plan.partSize,
    sourceDeclaration: options.sourceDeclaration ?? null,
    compression: (options.compress ?? true) ? "gzip" : "none",
  };
  await writeUploadState(ready.statePath, { ...state, ...plan, ...NO_UPLOAD, etags: {} });
  const opened: UploadState = { ...state, ...plan, ...await initUpload(endpoint, slug, request), etags: {} };
  await writeUploadState(ready.statePath, opened);
  return opened;
}

/**
 * Sends the parts `held` has no ETag for, `workers` at a time, saving each
 * ETag as it comes; resolves with how many this call sent.
 */
async function sendParts(
  endpoint: Endpoint,
  ready: Prepared,
  held: UploadState,
  upload: { bytes: number; plan: PartPlan; workers: number; options: PushOptions; retire: () => Promise<void> },
): Promise<number> {
  const { bytes, plan, workers, options } = upload;
  const { signal, onProgress = () => {} } = options;
  const save = serialized(() => writeUploadState(ready.statePath, held));
  const sizeOfPart = (n: number) => partRange(n, plan, bytes)[1] - partRange(n, plan, bytes)[0];
  let stored = Object.keys(held.etags).reduce((sum, n) => sum + sizeOfPart(Number(n)), 0);
  let partsDone = Object.keys(held.etags).length;
  const report = () =>
    onProgress({ phase: "upload", done: stored, total: bytes, partsDone, parts: plan.parts, uploadId: held.uploadId });
  report();
  const missing = Array.from({ length: plan.parts }, (_, i) => i + 1).filter((n) => !held.etags[String(n)]);
  let uploadedParts = 0;
  try {
    await eachPart(missing, workers, signal, async (n) => {
      const [start, end] = partRange(n, plan, bytes);
      const etag = await putPart(endpoint, held.urls[String(n)], await readRange(ready.sent, start, end), signal);
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
      await upload.retire();
      throw errorForStatus(
        e.status,
        `${e.message} (upload ${held.uploadId}: its part URLs are refused, expired or gone; ` +
          "the next push of this file starts a new upload)",
        e.body,
      );
    }
    throw e;
  }
  return uploadedParts;
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
  const ready = await prepared(endpoint, slug, file, options);
  const bytes = (await sizeOf(ready.sent)) ?? 0;
  const plan: PartPlan = planParts(bytes, asked);
  const held = await openedUpload(endpoint, slug, ready, { bytes, plan, options });
  /** The upload will not take parts any more: forget it, keep the copy, so the next push opens a new one from it. */
  const retire = () => writeUploadState(ready.statePath, { ...held, ...NO_UPLOAD, etags: {} });
  const uploadedParts = await sendParts(endpoint, ready, held, { bytes, plan, workers, options, retire });
  const etags = Object.entries(held.etags).map(([n, etag]) => ({ n: Number(n), etag })).sort((a, b) => a.n - b.n);
  const answer = await completeUpload(endpoint, slug, held.uploadId, etags, retire);
  await dropUploadState(ready.statePath);
  if (options.compress ?? true) await rm(ready.sent, { force: true });
  const result: PushResult = { ...answer, parts: plan.parts, uploadedParts, bytes };
  if (!options.wait) return result;
  const timeout = options.timeout ?? 900_000;
  return { ...result, ...await waitForScreening(endpoint, slug, answer.contributionId, timeout, options.signal) };
}
