/**
 * The duplicate gate's identities kept on disk, so a node restart does not
 * re-read every record: `<slug>/index/identities.bin` (16 bytes a record,
 * appended after each merge) and `identities.json` (how many are valid, and
 * the version whose records they are). A crash between the two leaves extra
 * bytes that the next reader cuts off; records of later versions are read
 * from their changes. Neither file is fsynced: both can be made again from
 * the parts.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { open, readFile, stat, truncate } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";
import { projectDir } from "./layout.ts";

/** Identities (base64 of 16 bytes) and the version they cover. */
export interface IdentityIndex {
  /** Record identities. */
  identities: Set<string>;
  /** The version whose records they are, every one (null: not known). */
  version: number | null;
}

const ID_BYTES = 16;

function files(root: string, slug: string) {
  const dir = join(projectDir(root, slug), "index");
  return { bin: join(dir, "identities.bin"), meta: join(dir, "identities.json") };
}

/**
 * The kept identities of `slug`, or null when there are none (or they cannot
 * be read).
 *
 * @example
 * ```ts
 * import { readIdentityIndex } from "./identity_index.ts";
 * const index = await readIdentityIndex("svc-data", "notes");
 * ```
 */
export async function readIdentityIndex(root: string, slug: string): Promise<IdentityIndex | null> {
  const { bin, meta } = files(root, slug);
  try {
    const kept = JSON.parse(await readFile(meta, "utf8")) as { count: number; version?: unknown };
    const count = kept.count;
    const bytes = await readFile(bin);
    if (!Number.isSafeInteger(count) || bytes.length < count * ID_BYTES) return null;
    if (bytes.length > count * ID_BYTES) await truncate(bin, count * ID_BYTES);
    const identities = new Set<string>();
    for (let i = 0; i < count; i++) {
      identities.add(Buffer.from(bytes.subarray(i * ID_BYTES, (i + 1) * ID_BYTES)).toString("base64"));
    }
    // An index written by an older release names the parts it covers, not a version: its coverage is not known.
    const version = Number.isSafeInteger(kept.version) ? kept.version as number : null;
    return { identities, version };
  } catch {
    return null;
  }
}

function metaText(index: IdentityIndex, count: number): string {
  return JSON.stringify({ count, version: index.version }) + "\n";
}

/**
 * Writes the whole index of `slug`.
 */
export async function writeIdentityIndex(root: string, slug: string, index: IdentityIndex): Promise<void> {
  const { bin, meta } = files(root, slug);
  const bytes = new Uint8Array(index.identities.size * ID_BYTES);
  let at = 0;
  for (const id of index.identities) {
    bytes.set(Buffer.from(id, "base64"), at);
    at += ID_BYTES;
  }
  await writeFileAtomic(bin, bytes, "made", { durable: false });
  await writeFileAtomic(meta, metaText(index, index.identities.size), "made", { durable: false });
}

/**
 * Appends `added` identities (already in `index`) and records the version
 * `index` covers; writes the whole index when the file on disk does not hold
 * exactly the others.
 */
export async function appendIdentities(
  root: string,
  slug: string,
  index: IdentityIndex,
  added: string[],
): Promise<void> {
  const { bin, meta } = files(root, slug);
  const kept = await stat(bin).then((s) => s.size, () => -1);
  if (kept !== (index.identities.size - added.length) * ID_BYTES) return await writeIdentityIndex(root, slug, index);
  const handle = await open(bin, "a");
  try {
    await handle.write(Buffer.concat(added.map((id) => Buffer.from(id, "base64"))));
  } finally {
    await handle.close();
  }
  await writeFileAtomic(meta, metaText(index, index.identities.size), "made", { durable: false });
}
