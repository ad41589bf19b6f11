/**
 * A bounded local cache of parts, for nodes that read from a bucket and
 * keep no copy of it: files named by their SHA-256 in a folder of their
 * own, their total never over a byte bound, the least recently used given
 * up first to make room, but never one being read (a reader holds a lease
 * until it is done). Readers missing the same part at once share one
 * download, verified by size and SHA-256 before it takes its name. Hits,
 * misses, downloads and evictions are counted for /metrics.
 *
 * One process owns a cache folder: two nodes must not share one.
 *
 * @module
 */
import { unlinkSync } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { NodeError } from "../errors/mod.ts";
import { type Family, gauge, readCounter } from "../metrics/mod.ts";
import type { S3Client } from "./client.ts";
import { downloadPart, type PartSource } from "./_part_download.ts";

export type { PartSource } from "./_part_download.ts";

/** How a cache is made. */
export interface PartCacheOptions {
  /** Its folder (made if missing; files left in it by an earlier run are kept, in their age's order). */
  folder: string;
  /** The most bytes its files may hold together. */
  maxBytes: number;
  /** Where missing parts come from. */
  source: PartSource;
  /** Tries of a download before a reader is told it failed (default 3). */
  tries?: number;
  /** Milliseconds a download may go without a byte before that try is given up (default 30 000). */
  stallMs?: number;
}

/** A part by its content. */
export interface PartRef {
  /** SHA-256 of its bytes, 64 lower-case hex digits. */
  sha256: string;
  /** Its size in bytes. */
  size: number;
  /**
   * Its file's path relative to the folder, in folders of its own (`cities/parts/<sha256>.parquet`, as a
   * store lays them out); the digest when absent. The path ends with the digest (and `.parquet`, if any).
   */
  name?: string;
  /** Where the object store holds it, for the source (see {@linkcode objectSource}). */
  key?: string;
}

/** A part held in the cache for a reader: not evicted until released. */
export interface PartLease {
  /** The part's file. */
  path: string;
  /** Lets the cache evict it again (once; later calls do nothing). */
  release(): void;
}

/** What a cache has done and holds. */
export interface PartCacheStats {
  /** Leases served from a file already there. */
  hits: number;
  /** Leases that waited for a download (their own or one already under way). */
  misses: number;
  /** Downloads finished and verified. */
  downloads: number;
  /** Bytes those downloads brought. */
  downloadedBytes: number;
  /** Downloads that failed after their tries. */
  failures: number;
  /** Files removed to make room. */
  evictions: number;
  /** Bytes held now, downloads under way included. */
  bytes: number;
  /** The bound. */
  maxBytes: number;
  /** Parts held now. */
  parts: number;
  /** Parts some reader holds a lease on now. */
  leased: number;
}

interface Entry {
  size: number;
  leases: number;
}

interface Pending {
  waiters: number;
  done: Promise<void>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** A bounded cache of parts in a local folder (see the module's documentation). */
export class PartCache {
  readonly #options: PartCacheOptions;
  /** In order of last use, least recent first. */
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Map<string, Pending>();
  #bytes = 0;
  readonly #counts = { hits: 0, misses: 0, downloads: 0, downloadedBytes: 0, failures: 0, evictions: 0 };

  private constructor(options: PartCacheOptions) {
    this.#options = options;
  }

  /**
   * Opens the cache in `options.folder`: removes downloads an earlier run
   * left unfinished, keeps its finished parts (oldest first in line for
   * eviction) down to the bound.
   *
   * @example
   * ```ts
   * import { PartCache } from "./part_cache.ts";
   * import { sha256Hex } from "./sigv4.ts";
   * const bytes = new TextEncoder().encode("a part's bytes");
   * const cache = await PartCache.open({
   *   folder: await Deno.makeTempDir(),
   *   maxBytes: 1 << 20,
   *   source: async () => new Blob([bytes]).stream(),
   * });
   * const lease = await cache.lease({ sha256: sha256Hex(bytes), size: bytes.length });
   * await Deno.readTextFile(lease.path); // "a part's bytes"
   * lease.release();
   * cache.stats().misses; // 1
   * ```
   */
  static async open(options: PartCacheOptions): Promise<PartCache> {
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes <= 0) {
      throw new NodeError(
        "bad-request",
        `the part cache's bound must be a positive number of bytes, not ${options.maxBytes}`,
      );
    }
    await mkdir(options.folder, { recursive: true });
    const cache = new PartCache(options);
    const found: { name: string; size: number; at: number }[] = [];
    await scan(options.folder, options.folder, 0, found);
    for (const f of found.sort((a, b) => a.at - b.at)) {
      cache.#entries.set(f.name, { size: f.size, leases: 0 });
      cache.#bytes += f.size;
    }
    cache.#evictFor(0);
    return cache;
  }

  /** The file a part is kept in. */
  #path(name: string): string {
    return join(this.#options.folder, name);
  }

  /** Evicts unleased parts, least recent first, until `room` more bytes fit; whether they do. */
  #evictFor(room: number): boolean {
    for (const [name, entry] of this.#entries) {
      if (this.#bytes + room <= this.#options.maxBytes) break;
      if (entry.leases > 0) continue;
      this.#entries.delete(name);
      this.#bytes -= entry.size;
      this.#counts.evictions++;
      // At once, not later: a download of the same part may rename a new file to this name next.
      unlinkSync(this.#path(name));
    }
    return this.#bytes + room <= this.#options.maxBytes;
  }

  #leaseOf(name: string, entry: Entry): PartLease {
    let released = false;
    return {
      path: this.#path(name),
      release: () => {
        if (released) return;
        released = true;
        entry.leases--;
      },
    };
  }

  async #fetch(part: PartRef, name: string, pending: Pending): Promise<void> {
    const { sha256, size } = part;
    try {
      if (size > this.#options.maxBytes) {
        throw new NodeError(
          "unavailable",
          `part ${sha256} is ${size} bytes, more than the part cache may hold (${this.#options.maxBytes})`,
        );
      }
      if (!this.#evictFor(size)) {
        throw new NodeError(
          "busy",
          `the part cache is full of parts being read (${this.#bytes} of ${this.#options.maxBytes} bytes)`,
          { "retry-after": "1" },
        );
      }
      this.#bytes += size;
      try {
        const { source, tries, stallMs } = this.#options;
        await downloadPart(source, part, this.#path(name), tries ?? 3, stallMs);
      } catch (e) {
        this.#bytes -= size;
        this.#counts.failures++;
        throw e;
      }
      this.#counts.downloads++;
      this.#counts.downloadedBytes += size;
      // Every reader that waited holds it from this instant: nothing can evict it between.
      this.#entries.set(name, { size, leases: pending.waiters });
    } finally {
      this.#pending.delete(name);
    }
  }

  /**
   * Leases `part`: from the folder when it is there, else downloaded (once
   * for all readers who miss it at the same time). Release the lease when
   * done reading. A part larger than the whole cache is an `unavailable`
   * error; a cache whose every part is being read, with no room left, a
   * `busy` one.
   */
  async lease(part: PartRef): Promise<PartLease> {
    const { sha256, size } = part;
    const name = part.name ?? sha256;
    if (!SHA256.test(sha256) || !Number.isSafeInteger(size) || size < 0 || !nameOk(name, sha256)) {
      throw new NodeError("internal", `not a part: ${JSON.stringify(part)}`);
    }
    const held = this.#entries.get(name);
    if (held && held.size === size) {
      this.#entries.delete(name);
      this.#entries.set(name, held);
      held.leases++;
      this.#counts.hits++;
      return this.#leaseOf(name, held);
    }
    if (held && held.leases === 0) {
      // A file of another size under this name (left by an earlier run): not this part.
      this.#entries.delete(name);
      this.#bytes -= held.size;
      unlinkSync(this.#path(name));
    } else if (held) {
      throw new NodeError("internal", `part ${sha256} is held as ${held.size} bytes, asked for as ${size}`);
    }
    this.#counts.misses++;
    let pending = this.#pending.get(name);
    if (!pending) {
      const made: Pending = { waiters: 0, done: Promise.resolve() };
      this.#pending.set(name, made);
      made.done = Promise.resolve().then(() => this.#fetch(part, name, made));
      pending = made;
    }
    pending.waiters++;
    await pending.done;
    return this.#leaseOf(name, this.#entries.get(name)!);
  }

  /**
   * Calls `fn` with the path of `part`'s file, leased for the call.
   *
   * @example
   * ```ts ignore
   * const bytes = await cache.withPart({ sha256, size }, (path) => Deno.readFile(path));
   * ```
   */
  async withPart<T>(part: PartRef, fn: (path: string) => T | Promise<T>): Promise<T> {
    const lease = await this.lease(part);
    try {
      return await fn(lease.path);
    } finally {
      lease.release();
    }
  }

  /** What the cache has done and holds now. */
  stats(): PartCacheStats {
    let leased = 0;
    for (const entry of this.#entries.values()) if (entry.leases > 0) leased++;
    return {
      ...this.#counts,
      bytes: this.#bytes,
      maxBytes: this.#options.maxBytes,
      parts: this.#entries.size,
      leased,
    };
  }

  /** The cache's metrics, for /metrics. */
  families(): Family[] {
    const s = this.stats();
    return [
      readCounter("svc_part_cache_hits_total", "Parts read from the local part cache.", [[{}, s.hits]]),
      readCounter("svc_part_cache_misses_total", "Parts that had to come from the object store.", [[{}, s.misses]]),
      readCounter("svc_part_cache_downloads_total", "Parts downloaded and verified.", [[{}, s.downloads]]),
      readCounter("svc_part_cache_downloaded_bytes_total", "Bytes of parts downloaded.", [[{}, s.downloadedBytes]]),
      readCounter("svc_part_cache_download_failures_total", "Downloads that failed.", [[{}, s.failures]]),
      readCounter("svc_part_cache_evictions_total", "Parts removed to make room.", [[{}, s.evictions]]),
      gauge("svc_part_cache_bytes", "Bytes the part cache holds (downloads under way included).", [[{}, s.bytes]]),
      gauge("svc_part_cache_max_bytes", "The most bytes the part cache may hold.", [[{}, s.maxBytes]]),
      gauge("svc_part_cache_parts", "Parts the part cache holds.", [[{}, s.parts]]),
      gauge("svc_part_cache_leased_parts", "Parts being read now.", [[{}, s.leased]]),
    ];
  }
}

/**
 * A {@linkcode PartSource} reading each part from `client` at the key
 * `keyOf` gives it.
 *
 * @example
 * ```ts ignore
 * const source = objectSource(client, (sha256) => `parts/${sha256}.parquet`);
 * const cache = await PartCache.open({ folder, maxBytes: 2 ** 30, source });
 * ```
 */
export function objectSource(client: S3Client, keyOf: (sha256: string) => string): PartSource {
  return async (sha256, _size, ref) => (await client.get(ref?.key ?? keyOf(sha256))).body;
}

/** Whether `name` is a relative path of plain segments whose last one is `sha256` or `<sha256>.parquet`. */
function nameOk(name: string, sha256: string): boolean {
  const segments = name.split("/");
  const last = segments[segments.length - 1];
  return (last === sha256 || last === `${sha256}.parquet`) &&
    segments.every((s) => s !== "" && s !== "." && s !== ".." && !s.includes("\\"));
}

/** A part's file as a store lays it out, or as the cache names it alone. */
const PART_FILE = /^[0-9a-f]{64}(\.parquet)?$/;

/**
 * Finds the finished parts under `dir` (at most three folders deep), and
 * removes unfinished downloads (`*.partial`).
 */
async function scan(
  root: string,
  dir: string,
  depth: number,
  found: { name: string; size: number; at: number }[],
): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth < 3 && !entry.name.startsWith(".")) await scan(root, path, depth + 1, found);
    else if (entry.isFile() && entry.name.endsWith(".partial")) await rm(path, { force: true });
    else if (entry.isFile() && PART_FILE.test(entry.name)) {
      const info = await stat(path);
      found.push({ name: relative(root, path).split(sep).join("/"), size: info.size, at: info.mtimeMs });
    }
  }
}
