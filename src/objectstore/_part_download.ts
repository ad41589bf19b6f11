/**
 * One part brought from the object store into the cache's folder: written
 * to a file of its own beside the final name, counted and hashed on the
 * way, flushed, and renamed into place only when its size and SHA-256 are
 * the ones asked for. A short or broken download is tried again; a part
 * whose bytes hash to something else is not (the object store holds it
 * wrong), nor one the object store does not have.
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { NodeError } from "../errors/mod.ts";

/**
 * Where a part's bytes come from: a stream of exactly `size` bytes hashing to `sha256`; `ref` is the part as
 * asked for (its `key` in the object store, when the asker knows it).
 */
export type PartSource = (
  sha256: string,
  size: number,
  ref?: { key?: string },
) => Promise<ReadableStream<Uint8Array>>;

/** A part's bytes that do not hash to its name: not tried again. */
class CorruptPart extends NodeError {
  constructor(sha256: string, got: string) {
    super("internal", `part ${sha256} from the object store hashes to ${got}: it is stored wrong`);
  }
}

/** How long a download may go without a byte before it is given up (and tried again): a stalled one holds readers. */
const STALL_MS = 30_000;

/** The chunks of `stream`, failing when none comes for `stallMs`; the stream is cancelled however it ends. */
async function* chunksOf(
  stream: ReadableStream<Uint8Array>,
  sha256: string,
  stallMs: number,
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    while (true) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        const message = `part ${sha256}: no byte came from the object store for ${stallMs / 1000} s`;
        timer = setTimeout(() => reject(new NodeError("unavailable", message)), stallMs);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), stalled]);
        if (done) return;
        yield value;
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

async function writeOnce(source: PartSource, part: PartWanted, partial: string, stallMs: number): Promise<void> {
  const { sha256, size } = part;
  const stream = await source(sha256, size, part);
  const hash = createHash("sha256");
  let count = 0;
  const file = await open(partial, "w");
  try {
    for await (const chunk of chunksOf(stream, sha256, stallMs)) {
      count += chunk.length;
      if (count > size) break;
      hash.update(chunk);
      await file.write(chunk);
    }
    await file.sync();
  } finally {
    await file.close();
  }
  if (count !== size) {
    throw new NodeError("unavailable", `part ${sha256} came as ${count > size ? "more than" : count} of ${size} bytes`);
  }
  const got = hash.digest("hex");
  if (got !== sha256) throw new CorruptPart(sha256, got);
}

/** A part to download: its digest, size, and key in the object store when known. */
export interface PartWanted {
  /** SHA-256 of its bytes. */
  sha256: string;
  /** Its size in bytes. */
  size: number;
  /** Its key in the object store. */
  key?: string;
}

/**
 * Downloads `part` from `source` into the file `final` (its folder made
 * when missing), verified, trying `tries` times in all, each given up after
 * `stallMs` without a byte.
 */
export async function downloadPart(
  source: PartSource,
  part: PartWanted,
  final: string,
  tries: number,
  stallMs: number = STALL_MS,
): Promise<void> {
  await mkdir(dirname(final), { recursive: true });
  const partial = `${final}.${randomBytes(6).toString("hex")}.partial`;
  for (let n = 1;; n++) {
    try {
      await writeOnce(source, part, partial, stallMs);
      await rename(partial, final);
      return;
    } catch (e) {
      await rm(partial, { force: true });
      const hopeless = e instanceof CorruptPart || (e instanceof NodeError && e.kind === "not-found");
      if (hopeless || n >= tries) throw e;
    }
  }
}
