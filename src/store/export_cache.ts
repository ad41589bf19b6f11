/**
 * Finished exports kept in the store, bounded by bytes. A version never
 * changes, so its gzip JSON lines are written once, while the first download
 * streams, and served again as a file:
 * `<store>/<slug>/exports/v<N>-<key>.jsonl.gz`, where the key names the
 * version's parts and the export format. When the kept files pass the
 * limit, the least recently used go (a hit refreshes a file's time). A
 * read-only cache serves what it finds and writes nothing.
 *
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { type FileHandle, mkdir, open, readdir, rename, stat, unlink, utimes } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isSlug } from "../wire/mod.ts";
import { projectDir } from "./layout.ts";
import { openRegularFile } from "./regular_file.ts";
import type { StoredVersion } from "./store.ts";

/** Bumped whenever the bytes of an export would change, so old files are not served. */
/**
 * The gzip level of exports. Level 2, not 1: Deno's zlib (zlib-ng) makes
 * level 1 its quickest strategy, whose output was 1.35x the size of
 * `gzip -1`'s on the same JSON lines; its level 2 came out 0.94x of
 * `gzip -1`'s size, at twice `gzip -1`'s speed (see docs/benchmarks.md).
 */
export const EXPORT_GZIP_LEVEL = 2;

/** Names how an export's bytes are made: a change here gives every version's export a new tag and file. */
const EXPORT_FORMAT = `svc-export-4 gzip-${EXPORT_GZIP_LEVEL}`;

/** The default limit of the export cache: 1 GiB. */
export const DEFAULT_EXPORT_CACHE_BYTES = 1024 ** 3;

/** How the export cache is bounded. */
export interface ExportCacheOptions {
  /** Most bytes kept; 0 keeps nothing. */
  maxBytes: number;
  /** Serve what is kept but write nothing (a read-only node). */
  readOnly: boolean;
}

/** The exports kept for a store. */
export interface ExportCache {
  /** The kept export of `version`, opened, or null. */
  open(version: StoredVersion): Promise<{ handle: FileHandle; size: number } | null>;
  /** `source` passed through unchanged, kept when it ends whole (and fits). */
  keep(source: ReadableStream<Uint8Array>, version: StoredVersion): ReadableStream<Uint8Array>;
  /** The kept files and their bytes. */
  files(): Promise<{ path: string; bytes: number; used: number }[]>;
}

/**
 * Where the finished export of `version` is kept.
 */
export function exportCachePath(root: string, version: StoredVersion): string {
  return join(projectDir(root, version.slug), "exports", `${exportTag(version)}.jsonl.gz`);
}

/**
 * What names the bytes of `version`'s export: `v<N>-<key>`, the key made
 * from its parts and the export format. The export of a version is the same
 * bytes each time it is made (DuckDB keeps the parts' record order, gzip is
 * deterministic), so the tag is the kept file's name and the answer's ETag.
 */
export function exportTag(version: StoredVersion): string {
  const key = createHash("sha256")
    .update(`${EXPORT_FORMAT}\n${version.parts.map((p) => p.sha256).join("\n")}`)
    .digest("hex")
    .slice(0, 16);
  return `v${version.version}-${key}`;
}

async function keptFiles(root: string): Promise<{ path: string; bytes: number; used: number }[]> {
  const out = [];
  for (const slug of await readdir(root).catch(() => [] as string[])) {
    if (!isSlug(slug)) continue;
    const dir = join(root, slug, "exports");
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!/^v\d+-[0-9a-f]{16}\.jsonl\.gz$/.test(name)) continue;
      const info = await stat(join(dir, name)).catch(() => null);
      if (info?.isFile()) out.push({ path: join(dir, name), bytes: info.size, used: info.mtimeMs });
    }
  }
  return out;
}

/**
 * The export cache of the store at `root`.
 */
export function createExportCache(root: string, options: ExportCacheOptions): ExportCache {
  const writable = !options.readOnly && options.maxBytes > 0;
  // Evictions are run one at a time: two finishing downloads must not both count the same files.
  let evicting = Promise.resolve();

  const evict = (kept: string) => {
    evicting = evicting.then(async () => {
      const files = (await keptFiles(root)).sort((a, b) => a.used - b.used);
      let total = files.reduce((a, f) => a + f.bytes, 0);
      for (const f of files) {
        if (total <= options.maxBytes) break;
        if (f.path === kept) continue;
        await unlink(f.path).catch(() => {});
        total -= f.bytes;
      }
    }).catch(() => {});
    return evicting;
  };

  return {
    async open(version) {
      const path = exportCachePath(root, version);
      const opened = await openRegularFile(path);
      if (opened && writable) {
        const now = new Date();
        await utimes(path, now, now).catch(() => {});
      }
      return opened;
    },
    keep(source, version) {
      return writable ? keepWhileStreaming(source, exportCachePath(root, version), options.maxBytes, evict) : source;
    },
    files: () => keptFiles(root),
  };
}

/**
 * Passes `source` through unchanged while writing it to a temporary file
 * beside `path`, renamed into place (after fsync) only when the whole stream
 * has gone through and is at most `maxBytes`; a cancelled or failed stream,
 * or a full disk, leaves nothing behind and the download goes on.
 */
function keepWhileStreaming(
  source: ReadableStream<Uint8Array>,
  path: string,
  maxBytes: number,
  kept: (path: string) => Promise<void>,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const temp = `${path}.tmp-${randomUUID()}`;
  let file: FileHandle | null = null;
  let opened = false;
  let written = 0;

  async function openTemp(): Promise<FileHandle | null> {
    try {
      await mkdir(dirname(path), { recursive: true });
      return await open(temp, "wx");
    } catch {
      return null; // a store that cannot be written still serves the export
    }
  }

  async function keep(bytes: Uint8Array): Promise<void> {
    written += bytes.byteLength;
    if (written > maxBytes) throw new Error("larger than the export cache");
    const { bytesWritten } = await file!.write(bytes);
    if (bytesWritten !== bytes.byteLength) throw new Error("short write");
  }

  async function discard() {
    const f = file;
    file = null;
    if (!f) return;
    await f.close().catch(() => {});
    await unlink(temp).catch(() => {});
  }

  async function finish() {
    const f = file!;
    file = null;
    try {
      await f.sync();
      await f.close();
      await rename(temp, path);
    } catch {
      await f.close().catch(() => {});
      await unlink(temp).catch(() => {});
      return;
    }
    await kept(path);
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!opened) {
          opened = true;
          file = await openTemp();
        }
        const { done, value } = await reader.read();
        if (done) {
          if (file) await finish();
          controller.close();
          return;
        }
        if (file) await keep(value).catch(discard);
        controller.enqueue(value);
      } catch (e) {
        await discard();
        controller.error(e);
      }
    },
    async cancel(reason) {
      await discard();
      await reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
