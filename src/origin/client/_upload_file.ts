/**
 * The bytes a push sends: the gzip copy `<file>.svc-upload.gz` (level 6,
 * streamed in 1 MiB chunks into `<gz>.tmp`, fsynced and renamed, so the
 * whole file is never in memory and a kill never leaves half a copy under
 * the real name), and one part's byte range read from it.
 *
 * @module
 */
import { createReadStream, createWriteStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { MIB } from "./_upload_state.ts";

/** How hard the copy is compressed. */
export const GZIP_LEVEL = 6;

/**
 * Writes the gzip copy of `source` to `target` and returns its size;
 * `onProgress` hears the source bytes read so far. `signal` stops it (the
 * temporary file is removed).
 */
export async function gzipCopy(
  source: string,
  target: string,
  onProgress: (done: number) => void = () => {},
  signal?: AbortSignal,
): Promise<number> {
  const temp = `${target}.tmp`;
  let read = 0;
  const count = new Transform({
    transform(chunk: Uint8Array, _encoding, done) {
      read += chunk.byteLength;
      onProgress(read);
      done(null, chunk);
    },
  });
  let written = 0;
  const sized = new Transform({
    transform(chunk: Uint8Array, _encoding, done) {
      written += chunk.byteLength;
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      createReadStream(source, { highWaterMark: MIB }),
      count,
      createGzip({ level: GZIP_LEVEL, chunkSize: 64 * 1024 }),
      sized,
      createWriteStream(temp),
      { signal },
    );
    const handle = await open(temp, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
  return written;
}

/**
 * The bytes `[start, end)` of `file`, read into one buffer (a part is sent
 * with its exact length, as its URL was signed for).
 */
export async function readRange(file: string, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(end - start);
  const handle = await open(file, "r");
  try {
    let done = 0;
    while (done < bytes.byteLength) {
      const { bytesRead } = await handle.read(bytes, done, bytes.byteLength - done, start + done);
      if (bytesRead === 0) throw new Error(`${file} ended at byte ${start + done}, before ${end}: it changed`);
      done += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return bytes;
}
