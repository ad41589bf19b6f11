/**
 * Making version N+1 of a local project from a contribution's new records:
 * the new part first (and, when older parts were folded into it, a part of
 * the records alone: the version's change), fsynced and renamed into place;
 * then one line on the project's part stack and one on its provenance log;
 * then the version's manifest, written in a temporary folder renamed to
 * `v<N+1>` in one step, which is the commit. Everything a version writes is
 * its own: its part, its line of each log, its manifest, whatever came
 * before it. The manifest carries the contribution's answer and
 * Idempotency-Key, so a crash after the commit loses nothing:
 * {@linkcode recoverProject} writes the answer file and the index entry
 * again from it.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { ReadEngine } from "../parquet/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { writePart } from "./write_part.ts";
import { type ExactJson, type SchemaDef, stableStringify } from "../wire/mod.ts";
import {
  commitVersion,
  type MergeOrigin,
  type PartNode,
  partStack,
  projectDir,
  type ProvenanceEntry,
  provenanceLog,
  readContribution,
  readIdempotency,
  rememberIdempotency,
  type Store,
  type StoredVersion,
  syncDir,
  type Version,
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

/** What made the version: the contribution merged (see `MergeOrigin`). */
export type MergeSource = Omit<MergeOrigin, "kind">;

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

/** The part stack and provenance of `latest`, with lines a write that did not commit left cut off. */
async function logsAt(root: string, slug: string, latest: StoredVersion | null) {
  const stack = partStack(root, slug);
  const provenance = provenanceLog(root, slug);
  const layout = latest?.manifest.layout ?? null;
  if (layout !== null && layout.kind !== "stack") {
    throw new NodeError(
      "unavailable",
      `${slug} v${latest!.version} is in an earlier release's layout, which takes no writes: a node that may write ` +
        "upgrades it when it starts (see its log)",
    );
  }
  const nodes = layout ? await stack.parts(layout.top) : [];
  await stack.log.cut(layout ? layout.top.node + 1 : 0);
  await provenance.log.cut(layout ? layout.provenance.entry + 1 : 0);
  return { stack, provenance, nodes };
}

/**
 * Writes version `(latest?.version ?? 0) + 1` of `slug` from `records` and
 * returns it. Call under the project's lock.
 */
export async function mergeVersion(
  { root, engine, slug, latest, schema, records, source }: MergeRequest,
): Promise<{ version: number; partSha256: string }> {
  const n = (latest?.version ?? 0) + 1;
  const partsDir = join(projectDir(root, slug), "parts");
  const { stack, provenance, nodes } = await logsAt(root, slug, latest);
  const kept = nodes.slice(0, nodes.length - foldCount(nodes, records.length));
  const folded = nodes.slice(kept.length);
  const below = kept[kept.length - 1] ?? null;
  const start = below ? below.start + below.records : 0;
  const paths = folded.map((p) => join(partsDir, `${p.sha256}.parquet`));
  const part = await writePart(engine, partsDir, schema, records, paths, folded.reduce((a, p) => a + p.records, 0));
  // The version's change (the records it adds) is its new part unless older parts were folded into that one.
  const change = folded.length === 0 ? part : await writePart(engine, partsDir, schema, records, [], 0);
  const top: PartNode = {
    node: stack.count(),
    pushedBy: n,
    sha256: part.sha256,
    bytes: part.bytes,
    records: part.records,
    below: below?.node ?? null,
    start,
    depth: kept.length,
  };
  const total = start + part.records;
  const entry: ProvenanceEntry = {
    entry: provenance.count(),
    version: n,
    contributionId: source.contribution.id,
    agentId: source.agentId,
    records: records.length,
    start: total - records.length,
    at: source.contribution.createdAt,
  };
  await Promise.all([syncDir(partsDir), stack.push([top], true), provenance.append([entry], true)]);
  const version: Version = {
    project: slug,
    version: n,
    parent: latest?.version ?? null,
    createdAt: source.contribution.createdAt,
    schema: { hash: schemaHash(schema), fields: schema.fields, allowExtra: schema.allowExtra },
    totals: {
      records: total,
      bytes: kept.reduce((a, p) => a + p.bytes, 0) + part.bytes,
      parts: kept.length + 1,
      contributions: (latest?.manifest.totals.contributions ?? 0) + 1,
    },
    signature: null,
    origin: { kind: "merge", ...source, contribution: { ...source.contribution, mergedVersion: n } },
    layout: { kind: "stack", top, provenance: entry },
    change: { sha256: change.sha256, bytes: change.bytes, records: change.records },
  };
  await commitVersion(root, version);
  return { version: n, partSha256: part.sha256 };
}

/** How many of the newest versions have their bookkeeping looked at when a node starts. */
export const RECOVER_AT_START = 64;

/**
 * Makes sure the `newest` versions' contributions have their answer files
 * and Idempotency-Key entries: a merge writes them after its commit (an
 * answer without waiting for the disk), so a failed write (a full disk)
 * leaves the newest without them, and a power cut the last few. Call under
 * the project's lock.
 */
export async function recoverProject(root: string, store: Store, slug: string, now: number, newest = 1) {
  const project = await store.project(slug);
  const keys = await readIdempotency(root, slug);
  let missing: Record<string, unknown> | null = null;
  for (const n of project?.versions.newestFirst(newest) ?? []) {
    const origin = (await store.version(slug, n))?.manifest.origin;
    if (origin?.kind !== "merge") continue;
    if (!(await readContribution(root, slug, origin.contribution.id))) {
      await writeContribution(root, slug, origin.contribution);
    }
    const key = origin.idempotency?.key;
    if (key && !Object.hasOwn(keys, key)) {
      (missing ??= Object.create(null) as Record<string, unknown>)[key] = origin.idempotency;
    }
  }
  for (const [key, entry] of Object.entries(missing ?? {})) {
    const { bodyHash, contribution, at } = entry as { bodyHash: string; contribution: string; at: string };
    await rememberIdempotency(root, slug, key, { bodyHash, contribution, at }, now);
  }
}
