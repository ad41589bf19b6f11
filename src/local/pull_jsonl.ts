/**
 * The JSON-lines path of a pull, for when parts cannot be had: the version's
 * records paged from `/data` (1000 at a time, every page pinned to the version
 * the first one named) into `<store>/<slug>/v<N>.jsonl`, written under a
 * temporary name and renamed once whole. Records carry no signature, so a
 * pull that requires one refuses this path before asking anything.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { projectDir } from "../store/layout.ts";
import { stringifyExactJson } from "../wire/exact_json.ts";
import { isSlug } from "../wire/slug.ts";
import type { Client } from "../client/client.ts";
import { SignatureError, ValueError } from "../client/errors.ts";
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

const PAGE = 1000;

/**
 * Pages every record of `slug` (version `options.version`, else the newest)
 * into a JSON-lines file in the store.
 *
 * @example
 * ```ts ignore
 * const { file } = await pullJsonLines(client, "cities", { store: "svc-data" });
 * ```
 */
export async function pullJsonLines(
  client: Client,
  slug: string,
  options: { store: string; version?: number; verify?: boolean; onProgress?: (done: number, total: number) => void },
): Promise<JsonLinesResult> {
  if (!isSlug(slug)) throw new ValueError(`${JSON.stringify(slug)} is not a project slug`);
  if (options.verify) {
    throw new SignatureError(
      "the JSON-lines path carries no signature, so a verified pull refuses it; pull the Parquet parts instead",
      0,
      "signature",
      null,
    );
  }
  await refuseLocal(options.store, slug);
  // Integers beyond 2^53 come as bigint and are written back with every digit.
  const first = await client.data(slug, { version: options.version, limit: PAGE, offset: 0, exactIntegers: true });
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
    for (let page = first, offset = 0;; offset += PAGE) {
      if (page.version !== version) throw new ValueError(`page at ${offset} is of v${page.version}, not v${version}`);
      if (page.records.length > 0) {
        await out.write(page.records.map((r) => stringifyExactJson(r)).join("\n") + "\n");
      }
      records += page.records.length;
      options.onProgress?.(records, Math.max(total, records));
      if (page.count < PAGE) break;
      page = await client.data(slug, { version, limit: PAGE, offset: offset + PAGE, exactIntegers: true });
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
