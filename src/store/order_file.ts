/**
 * A version's kept sort orders, beside its manifest once computed, as its
 * statistics are (`statistics_file.ts`): `v<N>/order-<name>.bin`, written
 * atomically, going when retention prunes the version. A file is a header
 * line, `svc-order-2 <tag>`, then each record's position as a 32-bit
 * little-endian integer; the tag names what the order was computed from (the
 * column, the direction and the parts), and a file of another tag is not
 * served.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";
import { manifestFile } from "./layout.ts";
import { openRegularFile } from "./regular_file.ts";

// 2 since 2026-11-30: an order by a column named `p` kept under 1 was the records' own order (the position's alias
// shadowed the column), so no file of 1 is served; each is computed again once, into the same file.
const HEAD = "svc-order-2 ";

/**
 * `<store>/<slug>/v<N>/order-<name>.bin` for the order `tag` names (its name
 * a digest of the tag: a column's name may hold any character).
 *
 * @example
 * ```ts
 * import { orderFile } from "./order_file.ts";
 * orderFile("svc-data", "cities", 2, "population desc"); // "svc-data/cities/v2/order-….bin"
 * ```
 */
export function orderFile(root: string, slug: string, version: number, tag: string): string {
  const name = createHash("sha256").update(tag).digest("hex").slice(0, 32);
  return join(dirname(manifestFile(root, slug, version)), `order-${name}.bin`);
}

/**
 * The order kept for version `version` of `slug` under `tag`, or null when
 * there is none (or it is not a regular file, or was kept under another tag,
 * or is cut short).
 *
 * @example
 * ```ts
 * import { readOrder } from "./order_file.ts";
 * console.log(await readOrder(await Deno.makeTempDir(), "notes", 1, "t")); // null
 * ```
 */
export async function readOrder(root: string, slug: string, version: number, tag: string): Promise<Uint32Array | null> {
  const opened = await openRegularFile(orderFile(root, slug, version, tag));
  if (!opened) return null;
  let bytes: Uint8Array;
  try {
    bytes = await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
  const head = new TextEncoder().encode(`${HEAD}${tag}\n`);
  if (bytes.length < head.length || (bytes.length - head.length) % 4 !== 0) return null;
  for (let i = 0; i < head.length; i++) if (bytes[i] !== head[i]) return null;
  const order = new Uint32Array((bytes.length - head.length) / 4);
  new Uint8Array(order.buffer).set(bytes.subarray(head.length));
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
    const view = new DataView(order.buffer);
    for (let i = 0; i < order.length; i++) order[i] = view.getUint32(i * 4, true);
  }
  return order;
}

/**
 * Keeps `order` as version `version` of `slug`'s order named by `tag`. Never
 * makes the version's folder: when the version is gone (pruned meanwhile)
 * nothing is written and the answer is false.
 *
 * @example
 * ```ts
 * import { writeOrder } from "./order_file.ts";
 * await writeOrder(await Deno.makeTempDir(), "notes", 1, "t", new Uint32Array([1, 0])); // false: there is no v1 folder
 * ```
 */
export async function writeOrder(
  root: string,
  slug: string,
  version: number,
  tag: string,
  order: Uint32Array,
): Promise<boolean> {
  const head = new TextEncoder().encode(`${HEAD}${tag}\n`);
  const bytes = new Uint8Array(head.length + order.byteLength);
  bytes.set(head);
  const view = new DataView(bytes.buffer, head.length);
  for (let i = 0; i < order.length; i++) view.setUint32(i * 4, order[i], true);
  return await writeFileAtomic(orderFile(root, slug, version, tag), bytes, "existing");
}
