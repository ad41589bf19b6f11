/**
 * The JSON-lines path of a pull, for when parts cannot be had: the version's
 * records paged from `/data` (`page` at a time, by default 200, the most a
 * keyless page of a free dataset holds on the origin; every page pinned to the version
 * the first one named) into `<store>/<slug>/v<N>.jsonl`, written under a
 * temporary name and renamed once whole. Records carry no signature, so a
 * pull that requires one refuses this path before asking anything.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { isObjectLocation, projectDir } from "../store/mod.ts";
import { isSlug, notASlug, stringifyExactJson, WIRE_LIMITS } from "../wire/mod.ts";
import { type Client, SignatureError, ValueError } from "../client/mod.ts";
import { refuseLocal } from "./pull.ts";

/** What a JSON-lines pull wrote. */
export interface JsonLinesResult {
  /** Project slug. */
  slug: string;
  /** The version paged. */
  version: number;
  /** Records written. */
  records: number;
  /** The file written. */
  file: string;
}

/** Records a page by default (origin-wire 7.3 `pull --page`). */
export const DEFAULT_PAGE: number = WIRE_LIMITS.page.default;

/** Most records `/data` answers a page. */
export const MAX_PAGE: number = WIRE_LIMITS.page.max;

/**
 * Pages every record of `slug` (version `options.version`, else the newest)
 * into a JSON-lines file in the store, `options.page` records a page (1 to
 * {@linkcode MAX_PAGE}, default {@linkcode DEFAULT_PAGE}).
 */
export async function pullJsonLines(
  client: Client,
  slug: string,
  options: {
    store: string;
    version?: number;
    verify?: boolean;
    page?: number;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<JsonLinesResult> {
  if (!isSlug(slug)) throw new ValueError(notASlug(slug));
  const pageSize = options.page ?? DEFAULT_PAGE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE) {
    throw new ValueError(`page must be a whole number from 1 to ${MAX_PAGE}, not ${pageSize}`);
  }
  if (options.verify) {
    throw new SignatureError(
      "the JSON-lines path carries no signature, so a verified pull refuses it; pull the Parquet parts instead",
      0,
      "signature",
      null,
    );
  }
  if (isObjectLocation(options.store)) {
    throw new ValueError("JSON lines are written into a store on disk, not into an object store: give --store DIR");
  }
  await refuseLocal(options.store, slug);
  // Integers beyond 2^53 come as bigint and are written back with every digit.
  const first = await client.data(slug, { version: options.version, limit: pageSize, offset: 0, exactIntegers: true });
  const version = first.version;
  // The page says how many records the version holds; an origin before 0.28 only says it in the manifest.
  const total = typeof first.total === "number" ? first.total : await client.manifest(slug, version).then(
    (m) => (m.totals as { records?: number } | undefined)?.records ?? 0,
    () => 0,
  );
  const dir = projectDir(options.store, slug);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `v${version}.jsonl`);
  const temp = join(dir, `.tmp-${randomUUID()}.jsonl`);
  const out = await open(temp, "wx");
  let records = 0;
  try {
    for (let page = first, offset = 0;; offset += pageSize) {
      if (page.version !== version) throw new ValueError(`page at ${offset} is of v${page.version}, not v${version}`);
      if (page.records.length > 0) {
        await out.write(page.records.map((r) => stringifyExactJson(r)).join("\n") + "\n");
      }
      records += page.records.length;
      options.onProgress?.(records, Math.max(total, records));
      if (page.count < pageSize) break;
      page = await client.data(slug, { version, limit: pageSize, offset: offset + pageSize, exactIntegers: true });
    }
    await out.sync();
    await out.close();
    await rename(temp, file);
  } catch (e) {
    await out.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw e;
  }
  return { slug, version, records, file };
}
