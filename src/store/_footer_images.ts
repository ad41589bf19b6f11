/**
 * Footer images of parts in an object store: what reading a part's
 * Parquet footer needs (its columns, row groups and statistics, as Delta
 * Sharing's table metadata and file statistics read them) without fetching
 * the part. The footer is read with one ranged GET of the part's tail, and
 * written into a sparse local file of the part's exact size: the leading
 * magic, the footer, its length and the trailing magic at their own
 * offsets, holes elsewhere. DuckDB reads such a file's metadata as the
 * part's; nothing reads its data (a page, an export or SQL leases the part
 * itself). A bounded number are kept, in a folder of their own that is
 * emptied when the node starts.
 *
 * @module
 */
import { mkdir, open, rename, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { S3Client } from "../objectstore/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { partKey } from "./object_layout.ts";

/** Bytes of a part's tail asked for first: the footer of most parts fits. */
const TAIL = 64 * 1024;
/** Footer images kept. */
const KEPT = 4096;
const MAGIC = new TextEncoder().encode("PAR1");

/** Footer images of one store's parts. */
export interface FooterImages {
  /** The image of each of `parts` (of `slug`), made when missing; in order. */
  paths(slug: string, parts: readonly { sha256: string }[]): Promise<string[]>;
}

async function tail(client: S3Client, key: string): Promise<{ bytes: Uint8Array; size: number }> {
  const found = await client.get(key, { suffix: TAIL });
  const bytes = new Uint8Array(await new Response(found.body).arrayBuffer());
  if (bytes.length < 12) throw new NodeError("internal", `${client.url(key)} is not a Parquet file`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const footer = view.getUint32(bytes.length - 8, true);
  const magic = new TextDecoder().decode(bytes.subarray(bytes.length - 4));
  if (magic !== "PAR1" || footer + 12 > found.size) {
    throw new NodeError("internal", `${client.url(key)} does not end as a Parquet file does`);
  }
  if (footer + 8 <= bytes.length) return { bytes: bytes.subarray(bytes.length - footer - 8), size: found.size };
  const whole = await client.bytes(key, { offset: found.size - footer - 8, length: footer + 8 });
  return { bytes: whole, size: found.size };
}

/** Writes the image of a part of `size` bytes ending in `end` (footer, length, magic) at `path`. */
async function writeImage(path: string, size: number, end: Uint8Array): Promise<void> {
  const temp = `${path}.${randomBytes(6).toString("hex")}.partial`;
  const file = await open(temp, "wx");
  try {
    await file.truncate(size);
    await file.write(MAGIC, 0, MAGIC.length, 0);
    await file.write(end, 0, end.length, size - end.length);
  } catch (e) {
    await file.close();
    await unlink(temp).catch(() => {});
    throw e;
  } finally {
    await file.close().catch(() => {});
  }
  await rename(temp, path);
}

/**
 * The footer images of the parts `client` reaches, kept under `folder`
 * (emptied first).
 *
 * @example
 * ```ts ignore
 * import { footerImages } from "./_footer_images.ts";
 * declare const client: import("../objectstore/mod.ts").S3Client;
 * const images = await footerImages(client, "/var/cache/svc/.footers");
 * const [path] = await images.paths("cities", [{ sha256: "ab".repeat(32) }]);
 * ```
 */
export async function footerImages(client: S3Client, folder: string): Promise<FooterImages> {
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  /** Images made, least recently used first. */
  const made = new Map<string, Promise<string>>();
  const image = (slug: string, sha256: string): Promise<string> => {
    const id = `${slug}/${sha256}`;
    const known = made.get(id);
    if (known) {
      made.delete(id);
      made.set(id, known);
      return known;
    }
    const path = join(folder, slug, `${sha256}.parquet`);
    const making = (async () => {
      await mkdir(join(folder, slug), { recursive: true });
      const { bytes, size } = await tail(client, partKey(slug, sha256));
      await writeImage(path, size, bytes);
      return path;
    })();
    making.catch(() => made.delete(id));
    made.set(id, making);
    for (const [old, gone] of made) {
      if (made.size <= KEPT) break;
      made.delete(old);
      gone.then((p) => unlink(p), () => {}).catch(() => {});
    }
    return making;
  };
  return { paths: (slug, parts) => Promise.all(parts.map((p) => image(slug, p.sha256))) };
}
