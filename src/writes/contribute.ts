/**
 * A contribution to a local project, inside the request and final: the
 * Idempotency-Key replay, then the gates per record (`schema`, `pii`), then
 * the duplicate gate over the batch, then the merge into a new version. The
 * whole step runs under the project's write lock.
 *
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import {
  deduplicate,
  type KnownRecords,
  knownRecords,
  learnPart,
  piiProblem,
  schemaErrors,
  storedForm,
  type StoredRecord,
} from "../gates/mod.ts";
import { jsonLines } from "../parquet/mod.ts";
import {
  appendIdentities,
  type ContributionView,
  IDEMPOTENCY_WINDOW_MS,
  type PlacedPart,
  pruneLocked,
  readContribution,
  readIdempotency,
  readIdentityIndex,
  rememberIdempotency,
  type StoredVersion,
  sweepIndex,
  withProjectLock,
  writeContribution,
  writeIdentityIndex,
} from "../store/mod.ts";
import { type ExactJson, type SchemaDef, stableStringify } from "../wire/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { mergeVersion, recoverProject } from "./merge.ts";
import { linesOf } from "./_lines.ts";
import type { WriteTarget } from "./target.ts";

/** A checked contribution request. */
export interface ContributionRequest {
  /** 1 to 500 records. */
  records: ExactJson[];
  /** Up to 500 characters, or null. */
  sourceDeclaration: string | null;
  /** The Idempotency-Key header, or null. */
  idempotencyKey: string | null;
  /** Who sends it, for the provenance of the part it lands in. */
  agentId: string;
}

/** The answer and whether it replays an earlier one. */
export interface ContributionOutcome {
  /** The contribution's answer. */
  view: ContributionView;
  /** True when an Idempotency-Key replayed a first answer. */
  replayed: boolean;
}

/** The JSON lines of `part`'s records (the export's stream cuts its bytes anywhere: a line may span two chunks). */
function partLines(ctx: WriteTarget, version: StoredVersion, part: PlacedPart): AsyncGenerator<string> {
  return linesOf(jsonLines(ctx.writer, { ...version, parts: [part] }));
}

/** The changes of versions `from + 1` to `latest`, or null when one of them is not known. */
async function changesSince(ctx: WriteTarget, latest: StoredVersion, from: number): Promise<PlacedPart[] | null> {
  const out: PlacedPart[] = [];
  for (let n = from + 1; n <= latest.version; n++) {
    const change = n === latest.version
      ? latest.manifest.change
      : (await ctx.store.version(latest.slug, n))?.manifest.change;
    if (!change) return null;
    out.push({ ...change, path: ctx.store.partPath(latest.slug, change.sha256), start: null });
  }
  return out;
}

/**
 * The identities of `slug`'s records, brought up to `latest`: from memory,
 * else from the kept index, then the records of the versions since read from
 * their changes (every part read again when a change is not known), and the
 * index kept again.
 */
async function knownFor(ctx: WriteTarget, slug: string, latest: StoredVersion | null): Promise<KnownRecords> {
  const perNode = ctx.writes.recordsByProject;
  let set = perNode.get(slug);
  if (!set) {
    set = (await readIdentityIndex(ctx.store.root, slug)) ?? knownRecords();
    perNode.set(slug, set);
  }
  if (!latest || set.version === latest.version) return set;
  const since = set.version !== null && set.version < latest.version
    ? await changesSince(ctx, latest, set.version)
    : null;
  if (!since) set.identities.clear();
  for (const part of since ?? latest.parts) await learnPart(set, partLines(ctx, latest, part));
  set.version = latest.version;
  await writeIdentityIndex(ctx.store.root, slug, set);
  return set;
}

function bodyHash(request: ContributionRequest): string {
  return createHash("sha256")
    .update(stableStringify({ records: request.records, sourceDeclaration: request.sourceDeclaration }))
    .digest("hex");
}

function gateProblem(records: ExactJson[], schema: SchemaDef): ContributionView["verdict"] | null {
  const { errors, count, reason } = schemaErrors(records, schema);
  if (count > 0) return { gate: "schema", reason, errors };
  for (const [i, record] of records.entries()) {
    const piiReason = piiProblem(record, i + 1);
    if (piiReason) return { gate: "pii", reason: piiReason };
  }
  return null;
}

/**
 * Runs one contribution to the local project `slug` with `schema`.
 */
export function contribute(
  ctx: WriteTarget,
  slug: string,
  schema: SchemaDef,
  request: ContributionRequest,
): Promise<ContributionOutcome> {
  const hash = bodyHash(request);
  return withProjectLock(ctx.store.root, slug, async () => {
    const now = ctx.now();
    // Finishing what an earlier write left undone is worth trying, not worth failing this one for.
    await sweepIndex(ctx.store.root, slug, now).catch(() => 0);
    await recoverProject(ctx.store.root, ctx.store, slug, now).catch((e) =>
      ctx.log.warn(`${slug}: the bookkeeping of an earlier merge is still not written: ${e.message}`)
    );
    const key = request.idempotencyKey;
    if (key !== null) {
      const entry = (await readIdempotency(ctx.store.root, slug))[key];
      if (entry && now - Date.parse(entry.at) < IDEMPOTENCY_WINDOW_MS) {
        if (entry.bodyHash !== hash) {
          throw new NodeError("unprocessable", "this Idempotency-Key was used with a different body within 24 hours");
        }
        const first = await readContribution(ctx.store.root, slug, entry.contribution);
        if (first) return { view: first, replayed: true };
      }
    }
    const view: ContributionView = {
      id: randomUUID(),
      status: "rejected",
      recordCount: request.records.length,
      acceptedCount: null,
      verdict: {},
      mergedVersion: null,
      createdAt: new Date(now).toISOString(),
      sourceDeclaration: request.sourceDeclaration,
    };
    const idempotency = key === null ? null : { key, bodyHash: hash, contribution: view.id, at: view.createdAt };
    const problem = gateProblem(request.records, schema);
    const latest = problem ? null : await ctx.store.latest(slug);
    const set = problem ? null : await knownFor(ctx, slug, latest);
    const stored = request.records.map((r) => storedForm(r as StoredRecord, schema));
    const batch = set ? deduplicate(set, stored) : null;
    if (problem) view.verdict = problem;
    else if (batch!.fresh.length === 0) {
      view.verdict = { gate: "dedup", reason: "every record already exists in the dataset" };
    } else {
      view.status = "merged";
      view.acceptedCount = batch!.fresh.length;
      view.verdict = { ok: true, droppedDuplicates: batch!.dropped, parts: 1 };
      const merged = await mergeVersion({
        root: ctx.store.root,
        engine: ctx.writer,
        slug,
        latest,
        schema,
        records: batch!.fresh,
        source: { contribution: view, idempotency, agentId: request.agentId },
      });
      view.mergedVersion = merged.version;
      for (const id of batch!.identities) set!.identities.add(id);
      set!.version = merged.version;
    }
    // The answer is decided here. What follows is bookkeeping: when it fails (a full disk), the answer
    // stands, and the next write finishes it from the version's manifest (`recoverProject`).
    await bookkeeping(ctx, slug, view, async () => {
      if (view.status === "merged") await appendIdentities(ctx.store.root, slug, set!, batch!.identities);
      await writeContribution(ctx.store.root, slug, view);
      if (idempotency) {
        const { key: k, ...entry } = idempotency;
        await rememberIdempotency(ctx.store.root, slug, k, entry, now);
      }
      if (view.status === "merged" && ctx.keepVersions !== null) {
        await pruneLocked(ctx.store.root, slug, ctx.keepVersions);
      }
    });
    return { view, replayed: false };
  });
}

async function bookkeeping(ctx: WriteTarget, slug: string, view: ContributionView, steps: () => Promise<void>) {
  try {
    await steps();
  } catch (e) {
    ctx.log.warn(
      `contribution ${view.id} to ${slug} is ${view.status}` +
        `${view.mergedVersion ? ` as v${view.mergedVersion}` : ""}, but its bookkeeping failed ` +
        `(${(e as Error).message}); the next write finishes it`,
    );
  }
}
