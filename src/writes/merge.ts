/**
 * Making version N+1 of a local project: the new part first (fsynced and
 * renamed into place), then the manifest, written in a temporary folder that
 * is renamed to `v<N+1>` in one step, which is the commit. The manifest
 * carries the contribution's answer and Idempotency-Key (under the
 * bookkeeping key `source`, which the published manifest leaves out), so a
 * crash after the commit loses nothing: {@linkcode recoverProject} writes
 * the answer file and the index entry again from it.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { ReadEngine } from "../parquet/mod.ts";
import { writePart } from "./write_part.ts";
import { type ExactJson, type SchemaDef, stableStringify } from "../wire/mod.ts";
import {
  CHANGES_FILE,
  changeText,
  commitVersion,
  type ContributionView,
  type IdempotencyEntry,
  MANIFEST_FORMAT,
  partSources,
  projectDir,
  readContribution,
  readIdempotency,
  rememberIdempotency,
  type Store,
  type StoredVersion,
  sweepProject,
  syncDir,
  writeContribution,
} from "../store/mod.ts";

/** Only parts under this size are folded into a new version's part. */
export const FOLD_BELOW_BYTES = 1024 * 1024;

/**
 * How many of the last `parts` a batch of `incoming` records folds into its
 * new part: the run of tail parts, each under 1 MiB, that hold at most twice
 * the records gathered so far. Like a binary counter, a record is rewritten
 * about log2(batches) times in all, not once per batch.
 *
 * @example
 * ```ts
 * import { foldCount } from "./merge.ts";
 * foldCount([{ bytes: 9000, records: 1500 }, { bytes: 3000, records: 500 }], 500); // 2
 * foldCount([{ bytes: 9000, records: 1500 }], 500); // 0
 * ```
 */
export function foldCount(parts: readonly { bytes: number; records?: number | null }[], incoming: number): number {
  let gathered = incoming;
  let count = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const { bytes, records } = parts[i];
    if (bytes >= FOLD_BELOW_BYTES || records === undefined || records === null || records > 2 * gathered) break;
    gathered += records;
    count++;
  }
  return count;
}

/** What the manifest's `source` key records of the contribution that made it. */
export interface MergeSource {
  /** The answer, with `mergedVersion` set. */
  contribution: ContributionView;
  /** The Idempotency-Key it came with, if any. */
  idempotency: ({ key: string } & IdempotencyEntry) | null;
  /** Who sent it, for the part's provenance (see {@linkcode partSources}). */
  agentId: string;
}

/**
 * The hash a manifest's `schema` carries: SHA-256 of the schema's stable
 * JSON.
 *
 * @example
 * ```ts
 * import { schemaHash } from "./merge.ts";
 * schemaHash({ fields: [], allowExtra: false }).length; // 64
 * ```
 */
export function schemaHash(schema: SchemaDef): string {
  return createHash("sha256").update(stableStringify({ fields: schema.fields, allowExtra: schema.allowExtra }))
    .digest("hex");
}

/** What {@linkcode mergeVersion} writes, and where. */
export interface MergeRequest {
  /** The store's root folder. */
  root: string;
  /** The engine that writes the Parquet part. */
  engine: ReadEngine;
  /** The project. */
  slug: string;
  /** The version merged onto, or null for the first. */
  latest: StoredVersion | null;
  /** The project's schema. */
  schema: SchemaDef;
  /** The records the new version adds, deduplicated. */
  records: Record<string, ExactJson>[];
  /** The contribution that brings them. */
  source: MergeSource;
}

/**
 * Writes version `(latest?.version ?? 0) + 1` of `slug` from `records` and
 * returns it. Call under the project's lock.
 */
export async function mergeVersion(
  { root, engine, slug, latest, schema, records, source }: MergeRequest,
): Promise<{ version: number; partSha256: string }> {
  const n = (latest?.version ?? 0) + 1;
  const dir = projectDir(root, slug);
  const previous = latest?.parts ?? [];
  const folded = previous.slice(previous.length - foldCount(previous, records.length));
  const foldRecords = folded.reduce((a, p) => a + (p.records ?? 0), 0);
  const part = await writePart(engine, join(dir, "parts"), schema, records, folded.map((p) => p.path), foldRecords);
  await syncDir(join(dir, "parts"));
  const parts = [
    ...previous.slice(0, previous.length - folded.length).map((p) => ({
      ...p.entry,
      sha256: p.sha256,
      bytes: p.bytes,
      records: p.records,
    })),
    {
      sha256: part.sha256,
      bytes: part.bytes,
      records: part.records,
      sources: partSources(folded, {
        contributionId: source.contribution.id,
        agentId: source.agentId,
        mergedInVersion: n,
        records: records.length,
      }),
    },
  ];
  const totals = latest?.manifest.raw.totals as { contributions?: number } | undefined;
  const manifest = {
    format: MANIFEST_FORMAT,
    project: slug,
    version: n,
    parent: latest?.version ?? null,
    createdAt: source.contribution.createdAt,
    schema: { hash: schemaHash(schema), fields: schema.fields, allowExtra: schema.allowExtra },
    parts,
    totals: {
      records: parts.reduce((a, p) => a + (p.records ?? 0), 0),
      bytes: parts.reduce((a, p) => a + p.bytes, 0),
      parts: parts.length,
      contributions: (totals?.contributions ?? 0) + 1,
    },
    source: { ...source, contribution: { ...source.contribution, mergedVersion: n } },
  };
  // The version's change (the records it adds) is its new part unless older parts were folded into that one.
  const change = folded.length === 0 ? part : await writePart(engine, join(dir, "parts"), schema, records, [], 0);
  if (change !== part) await syncDir(join(dir, "parts"));
  const beside = {
    [CHANGES_FILE]: changeText({ sha256: change.sha256, bytes: change.bytes, records: change.records }),
  };
  await commitVersion(root, slug, n, manifest, beside);
  return { version: n, partSha256: part.sha256 };
}

/**
 * Tidies a local project after a crash, under its lock: sweeps temporary
 * files and staging folders, and makes sure the newest version's
 * contribution has its answer file and Idempotency-Key entry.
 */
export async function recoverProject(root: string, store: Store, slug: string, now: number): Promise<void> {
  await sweepProject(root, slug, now);
  const latest = await store.latest(slug);
  const source = latest?.manifest.raw.source as MergeSource | undefined;
  if (!source?.contribution?.id) return;
  if (!(await readContribution(root, slug, source.contribution.id))) {
    await writeContribution(root, slug, source.contribution);
  }
  const key = source.idempotency?.key;
  if (key && !(key in await readIdempotency(root, slug))) {
    const { bodyHash, contribution, at } = source.idempotency!;
    await rememberIdempotency(root, slug, key, { bodyHash, contribution, at }, now);
  }
}
