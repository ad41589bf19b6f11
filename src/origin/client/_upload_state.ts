/**
 * The bookkeeping of a resumable push: how a file is cut into parts, the
 * fingerprint that says whether a saved upload still belongs to the file, and
 * the state file `<file>.svc-upload.json`, rewritten atomically (a temporary
 * file fsynced, then renamed) after every part.
 *
 * @module
 */
import { open, readFile, rename, rm, stat } from "node:fs/promises";

/** 1 MiB. */
export const MIB = 1024 * 1024;
/** The smallest part the object store takes (but the last). */
export const MIN_PART_BYTES: number = 5 * MIB;
/** The largest part one PUT may carry (the object store's limit, 5 GiB). */
export const MAX_PART_BYTES: number = 5 * 1024 * MIB;
/** The most parts one upload has. */
export const MAX_PARTS = 1000;
/** The part size when none is asked for. */
export const DEFAULT_PART_BYTES: number = 8 * MIB;

/** How an upload of `bytes` is cut: every part `partSize` bytes but the last. */
export interface PartPlan {
  /** Bytes of every part but the last. */
  partSize: number;
  /** How many parts (1 to 1000). */
  parts: number;
}

/**
 * The parts of an upload of `bytes` (origin-wire 2.1 step 4): the asked part
 * size raised to 5 MiB, then raised again when more than 1,000 parts would
 * be needed.
 *
 * @example
 * ```ts
 * import { planParts } from "./_upload_state.ts";
 * planParts(12 * 1024 * 1024, 1); // { partSize: 5242880, parts: 3 }
 * planParts(1e10).partSize; // 10000000 (1,000 parts)
 * ```
 */
export function planParts(bytes: number, asked: number = DEFAULT_PART_BYTES): PartPlan {
  let partSize = Math.max(Math.ceil(asked), MIN_PART_BYTES);
  let parts = Math.max(1, Math.ceil(bytes / partSize));
  if (parts > MAX_PARTS) {
    partSize = Math.ceil(bytes / MAX_PARTS);
    parts = Math.ceil(bytes / partSize);
  }
  return { partSize, parts };
}

/**
 * The byte range `[start, end)` of part `n` (from 1) of an upload of `bytes`.
 *
 * @example
 * ```ts
 * import { partRange } from "./_upload_state.ts";
 * partRange(3, { partSize: 10, parts: 3 }, 25); // [20, 25]
 * ```
 */
export function partRange(n: number, plan: PartPlan, bytes: number): [number, number] {
  const start = (n - 1) * plan.partSize;
  return [start, Math.min(bytes, start + plan.partSize)];
}

/** What a saved upload must match to be resumed: the file as it was, sent the same way to the same place. */
export interface Fingerprint {
  /** Base URL of the origin the upload was started on. */
  baseUrl: string;
  /** Project slug. */
  slug: string;
  /** The source file's size in bytes. */
  size: number;
  /** Its modification time in nanoseconds, as digits (the runtime's precision). */
  mtime: string;
  /** Its inode number, as digits (a file replaced by a rename is another file). */
  ino: string;
  /** Whether the upload is the gzip copy. */
  compress: boolean;
}

/** The state file: the fingerprint, the upload and the ETags of the parts the object store holds. */
export interface UploadState extends Fingerprint {
  /** Format of this file. */
  format: "svc-upload/1";
  /** Bytes of the file that is sent (the gzip copy, or the source). */
  uploadBytes: number;
  /** Bytes of every part but the last. */
  partSize: number;
  /** How many parts. */
  parts: number;
  /** The origin's id of the upload; empty while none is open (the copy is whole, nothing was sent). */
  uploadId: string;
  /** When the part URLs expire, as the origin said, or null. */
  expiresAt: string | null;
  /** Presigned part URLs by part number. */
  urls: Record<string, string>;
  /** ETags (quotes removed) of the parts stored, by part number. */
  etags: Record<string, string>;
}

/** Where a push of `file` keeps its state and its gzip copy. */
export interface UploadPaths {
  /** `<file>.svc-upload.json`. */
  state: string;
  /** `<file>.svc-upload.gz`. */
  gzip: string;
}

/**
 * The state file and gzip copy beside `file`.
 *
 * @example
 * ```ts
 * import { uploadPaths } from "./_upload_state.ts";
 * uploadPaths("notes.jsonl").state; // "notes.jsonl.svc-upload.json"
 * ```
 */
export function uploadPaths(file: string): UploadPaths {
  return { state: `${file}.svc-upload.json`, gzip: `${file}.svc-upload.gz` };
}

/**
 * The fingerprint of `file` as it is now, or null when it is not a regular file.
 *
 * @example
 * ```ts
 * import { fingerprintOf } from "./_upload_state.ts";
 * await fingerprintOf("notes.jsonl", { baseUrl: "https://origin.example", slug: "notes", compress: true });
 * ```
 */
export async function fingerprintOf(
  file: string,
  how: { baseUrl: string; slug: string; compress: boolean },
): Promise<Fingerprint | null> {
  const info = await stat(file, { bigint: true }).catch(() => null);
  if (!info?.isFile()) return null;
  return {
    baseUrl: how.baseUrl,
    slug: how.slug,
    size: Number(info.size),
    mtime: String(info.mtimeNs),
    ino: String(info.ino),
    compress: how.compress,
  };
}

/**
 * Whether a saved state belongs to the file as `now` describes it.
 */
export function sameFile(saved: Fingerprint, now: Fingerprint): boolean {
  return saved.baseUrl === now.baseUrl && saved.slug === now.slug && saved.size === now.size &&
    saved.mtime === now.mtime && saved.ino === now.ino && saved.compress === now.compress;
}

function isRecordOf(value: unknown, item: (v: unknown) => boolean): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every(item);
}

/**
 * The saved state at `path`, or null when there is none or it cannot be read
 * as one (a stale or damaged state is discarded, never trusted).
 *
 * @example
 * ```ts
 * import { readUploadState } from "./_upload_state.ts";
 * const saved = await readUploadState("notes.jsonl.svc-upload.json");
 * ```
 */
export async function readUploadState(path: string): Promise<UploadState | null> {
  let value: Partial<UploadState>;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch {
    return null;
  }
  const text = (v: unknown) => typeof v === "string" && v !== "";
  const whole = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  const ok = value?.format === "svc-upload/1" && text(value.baseUrl) && text(value.slug) && whole(value.size) &&
    text(value.mtime) && text(value.ino) && typeof value.compress === "boolean" && whole(value.uploadBytes) &&
    whole(value.partSize) && whole(value.parts) && typeof value.uploadId === "string" &&
    (value.expiresAt === null || text(value.expiresAt)) && isRecordOf(value.urls, text) &&
    isRecordOf(value.etags, text);
  return ok ? value as UploadState : null;
}

/**
 * Writes `state` to `path` so that a kill at any moment leaves the old file
 * or the new one whole: a temporary file beside it, fsynced, renamed over it.
 */
export async function writeUploadState(path: string, state: UploadState): Promise<void> {
  const temp = `${path}.tmp`;
  const handle = await open(temp, "w");
  try {
    await handle.writeFile(JSON.stringify(state, null, 1) + "\n");
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}

/**
 * Removes the state file (and a temporary one a kill may have left).
 *
 * @example
 * ```ts
 * import { dropUploadState } from "./_upload_state.ts";
 * await dropUploadState("notes.jsonl.svc-upload.json");
 * ```
 */
export async function dropUploadState(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.tmp`, { force: true });
}

/**
 * Calls `write` one at a time, in the order asked, so that state rewrites
 * from parallel parts never overlap; each call resolves once its own write
 * is done.
 */
export function serialized(write: () => Promise<void>): () => Promise<void> {
  let tail: Promise<void> = Promise.resolve();
  return () => {
    const next = tail.catch(() => {}).then(write);
    tail = next;
    return next;
  };
}
