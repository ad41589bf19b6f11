/**
 * A version's export downloaded to a file, resumable: the bytes go to
 * `<file>.part` and the export's ETag to `<file>.part.etag`; a later run
 * asks only for the bytes past what the `.part` holds (`Range`, with
 * `If-Range` naming that ETag). A 206 is appended; a 200 (the node holds a
 * different export now, or cannot serve ranges yet) starts the file over.
 * The file is checked to be whole gzip, and its lines counted, before it is
 * renamed into place.
 *
 * @module
 */
import { createReadStream } from "node:fs";
import { type FileHandle, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { isSlug, notASlug, type ProjectDetail } from "../wire/mod.ts";
import { SvcError, ValueError } from "./errors.ts";
import type { ExportAnswer, ExportFileOptions, ExportFileResult } from "./types.ts";

/** What an export download needs of the client (the `Client` is one). */
export interface ExportClient {
  /** The base URL, for messages. */
  readonly baseUrl: string;
  /** A project's detail, for its newest version. */
  project(slug: string): Promise<ProjectDetail>;
  /** One request for the export of a version, from a byte offset when resuming. */
  export(slug: string, options: { version?: number; from?: { offset: number; etag: string } }): Promise<ExportAnswer>;
}

/**
 * The newest version of `slug` the base URL serves: the newest one a node
 * holds whole, else the project's `latestVersion` (the origin).
 */
export async function newestVersion(client: ExportClient, slug: string): Promise<number> {
  const detail = await client.project(slug);
  const held = Array.isArray(detail.localVersions) ? detail.localVersions[0] : undefined;
  const newest = held ?? detail.latestVersion;
  if (!Number.isSafeInteger(newest) || newest < 1) {
    throw new SvcError(`${client.baseUrl}: project ${slug} has no version yet`, 0, "no_version", detail);
  }
  return newest;
}

/** The lines of a gzip file; throws when it is not whole gzip. */
async function gzipLines(path: string): Promise<number> {
  let lines = 0;
  const count = new Writable({
    write(chunk: Uint8Array, _encoding, done) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      done();
    },
  });
  await pipeline(createReadStream(path), createGunzip(), count);
  return lines;
}

/** What an earlier, cut download left: its bytes and the ETag they belong to, or null. */
async function heldPart(part: string, tagFile: string): Promise<{ offset: number; etag: string } | null> {
  const info = await stat(part).catch(() => null);
  const etag = (await readFile(tagFile, "utf8").catch(() => "")).trim();
  if (info?.isFile() && info.size > 0 && etag !== "") return { offset: info.size, etag };
  return null;
}

/**
 * Downloads the export of `slug` (`options.version`, else the newest) to
 * `options.out` (default `<slug>-v<N>.jsonl.gz`), resuming a cut download.
 */
export async function exportFile(
  client: ExportClient,
  slug: string,
  options: ExportFileOptions = {},
): Promise<ExportFileResult> {
  if (!isSlug(slug)) throw new ValueError(notASlug(slug));
  const version = options.version ?? await newestVersion(client, slug);
  const file = options.out ?? `${slug}-v${version}.jsonl.gz`;
  const part = `${file}.part`;
  const tagFile = `${part}.etag`;
  let held = await heldPart(part, tagFile);
  let answer: ExportAnswer = await client.export(slug, { version, from: held ?? undefined });
  if (held) {
    const same = answer.etag === held.etag && answer.offset === held.offset;
    const usable = same && (answer.status === 206 || (answer.status === 416 && answer.size === held.offset));
    if (!usable) {
      // A 200 is the whole export: start over with it. Anything else (another export's range, 416 elsewhere): ask again.
      if (answer.status !== 200) {
        await answer.body.cancel();
        answer = await client.export(slug, { version });
      }
      held = null;
    }
  }
  const resumedFrom = held?.offset ?? 0;
  const total = answer.size ?? 0;
  let done = resumedFrom;
  const brokeOff = (why: string) =>
    new SvcError(
      `${client.baseUrl}: the export of ${slug} v${version} broke off after ${done} bytes (${why}); ` +
        (answer.etag ? `run it again to resume from ${part}` : "run it again to start over"),
      0,
      "network",
      null,
    );
  const reader = answer.body.getReader();
  let handle: FileHandle | null = null;
  try {
    handle = await open(part, held ? "a" : "w");
    // The tag is written after the .part is emptied and before its first byte: it always names what the .part holds.
    if (!held && answer.etag) await writeFile(tagFile, answer.etag + "\n");
    else if (!held) await rm(tagFile, { force: true });
    options.onProgress?.(done, total);
    while (true) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (e) {
        throw brokeOff((e as Error).message);
      }
      if (step.done) break;
      await handle.write(step.value);
      done += step.value.byteLength;
      options.onProgress?.(done, total);
    }
    await handle.sync();
  } finally {
    await reader.cancel().catch(() => {});
    await handle?.close();
  }
  if (answer.size !== null && done !== answer.size) throw brokeOff(`${answer.size} bytes were announced`);
  let records: number;
  try {
    records = await gzipLines(part);
  } catch (e) {
    await rm(part, { force: true });
    await rm(tagFile, { force: true });
    throw new SvcError(
      `the export of ${slug} v${version} is not whole gzip (${(e as Error).message}); ` +
        `the download was removed, so the next one starts over`,
      0,
      "bad_export",
      null,
    );
  }
  await rename(part, file);
  await rm(tagFile, { force: true });
  return { project: slug, version, file, bytes: done, records, resumedFrom };
}
