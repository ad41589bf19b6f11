/**
 * The version: the node's one typed model of what `v<N>/manifest.json`
 * holds, read by {@linkcode parseVersion} and written by
 * {@linkcode versionDocument} alone, whoever makes the version (a merge, a
 * pull, a follow, a load, a store's upgrade).
 *
 * Two layouts of parts: a copy lists its parts as the origin published them
 * (`listed`, every key passed through, the signature's bytes above all); a
 * local project's version names the top of its part stack and its line of
 * provenance (`stack`, see `part_stack.ts` and `provenance.ts`), so its file
 * has the same size at the thousandth version as at the first. (A local
 * version's `provenance` is its contribution's line; for a version upgraded
 * from the older layout, the last line its records reach.)
 *
 * @module
 */
import { isSha256, parseDocumentJson, type SchemaField, stringifyExactJson } from "../wire/mod.ts";
import type { ContributionView, IdempotencyEntry } from "./contributions.ts";
import { type PartNode, partNodeOf } from "./part_stack.ts";
import { type ProvenanceEntry, provenanceEntryOf } from "./provenance.ts";
import type { VersionChange } from "./changes.ts";

/** The `format` of a published manifest. */
export const MANIFEST_FORMAT = "svc-dataset-manifest/1";
/** The `format` of a local version's file on disk. */
export const LOCAL_VERSION_FORMAT = "svc-local-version/2";

/** Keys a pull or load adds on disk and the published manifest leaves out. */
export const BOOKKEEPING_KEYS: readonly string[] = [
  "count",
  "file",
  "downloaded",
  "pulledAt",
  "loaded",
  "loadedAt",
  "loadedFrom",
  "source",
  "verified",
];

/** A part of a version. */
export interface VersionPart {
  /** Lowercase SHA-256 hex of its file. */
  sha256: string;
  /** Its exact size in bytes. */
  bytes: number;
  /** Its records, when known. */
  records: number | null;
}

/** A part as a copy's manifest lists it: its entry passes through as published. */
export interface ListedPart extends VersionPart {
  /** The entry as the origin published it (without `url`). */
  entry: Record<string, unknown>;
}

/** The schema a version was written with. */
export interface VersionSchema {
  /** SHA-256 of its stable JSON, when given. */
  hash: string | null;
  /** Its fields. */
  fields: SchemaField[];
  /** Whether records may carry other fields. */
  allowExtra: boolean;
}

/** A version's totals, each when given. */
export interface VersionTotals {
  /** Records. */
  records: number | null;
  /** Bytes of its parts. */
  bytes: number | null;
  /** Its parts. */
  parts: number | null;
  /** Contributions merged up to it. */
  contributions: number | null;
}

/** What made a local project's version: the contribution it merged. */
export interface MergeOrigin {
  /** A merge on this node. */
  kind: "merge";
  /** The contribution's answer, `mergedVersion` set. */
  contribution: ContributionView;
  /** Its Idempotency-Key, if it came with one. */
  idempotency: ({ key: string } & IdempotencyEntry) | null;
  /** Who sent it. */
  agentId: string;
}

/** Where a copy came from. */
export interface CopyOrigin {
  /** Taken from an origin or another node, or loaded from a bundle. */
  kind: "copy";
  /** The manifest as published, without part URLs and bookkeeping: what passes through. */
  published: Record<string, unknown>;
  /** Whether its signature verified against pinned keys when it was taken. */
  verified: boolean;
  /** The bookkeeping of its taking (`pulledAt`, `downloaded`, `source`, `loaded`, `loadedAt`, `loadedFrom`). */
  taken: Record<string, unknown>;
}

/** Where a version's parts are written down. */
export type PartsLayout =
  | { kind: "listed"; parts: ListedPart[] }
  | { kind: "stack"; top: PartNode; provenance: ProvenanceEntry };

/** One version of a project. */
export interface Version {
  /** Project slug. */
  project: string;
  /** Version number. */
  version: number;
  /** The version it was made on, when known. */
  parent: number | null;
  /** When it was made (ISO 8601), when known. */
  createdAt: string | null;
  /** Its schema, when the manifest gives one. */
  schema: VersionSchema | null;
  /** Its totals. */
  totals: VersionTotals;
  /** The origin's signature, passed through untouched. */
  signature: Record<string, unknown> | null;
  /** What made it: a merge here, or a copy (null for a version of an older local project that did not say). */
  origin: MergeOrigin | CopyOrigin | null;
  /** Its parts. */
  layout: PartsLayout;
  /** The part holding exactly the records it added, when known. */
  change: VersionChange | null;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const textOrNull = (v: unknown): string | null => typeof v === "string" ? v : null;

function schemaOf(value: unknown): VersionSchema | null {
  if (!isObject(value) || !Array.isArray(value.fields)) return null;
  return { hash: textOrNull(value.hash), fields: value.fields as SchemaField[], allowExtra: value.allowExtra === true };
}

function totalsOf(value: unknown): VersionTotals {
  const t = isObject(value) ? value : {};
  const n = (v: unknown) => isCount(v) ? v : null;
  return { records: n(t.records), bytes: n(t.bytes), parts: n(t.parts), contributions: n(t.contributions) };
}

function changeOf(value: unknown): VersionChange | null {
  if (!isObject(value) || typeof value.sha256 !== "string" || !isSha256(value.sha256)) return null;
  return isCount(value.bytes) && isCount(value.records)
    ? { sha256: value.sha256, bytes: value.bytes, records: value.records }
    : null;
}

function listedParts(parts: unknown[]): ListedPart[] | { reason: string } {
  const out: ListedPart[] = [];
  for (const [i, p] of parts.entries()) {
    if (!isObject(p)) return { reason: `part ${i} is not an object` };
    const { url: _url, ...entry } = p;
    if (typeof entry.sha256 !== "string" || !isSha256(entry.sha256)) return { reason: `part ${i} has no valid sha256` };
    if (!isCount(entry.bytes)) return { reason: `part ${i} has no valid byte size` };
    const records = entry.records ?? entry.count;
    if (records !== undefined && !isCount(records)) return { reason: `part ${i} has an invalid record count` };
    out.push({ sha256: entry.sha256, bytes: entry.bytes, records: (records as number | undefined) ?? null, entry });
  }
  return out;
}

function mergeOriginOf(value: unknown): MergeOrigin | null {
  if (!isObject(value) || !isObject(value.contribution) || typeof value.contribution.id !== "string") return null;
  return {
    kind: "merge",
    contribution: value.contribution as unknown as ContributionView,
    idempotency: isObject(value.idempotency) ? value.idempotency as unknown as MergeOrigin["idempotency"] : null,
    agentId: typeof value.agentId === "string" ? value.agentId : "anonymous",
  };
}

function copyOriginOf(m: Record<string, unknown>): CopyOrigin {
  const published: Record<string, unknown> = {};
  const taken: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(m)) {
    if (key === "verified") continue;
    if (BOOKKEEPING_KEYS.includes(key)) taken[key] = value;
    else if (key !== "format" && key !== "urlExpiresAt") published[key] = value;
  }
  return { kind: "copy", published, verified: m.verified === true, taken };
}

/** The fields every layout shares. */
function common(m: Record<string, unknown>, slug: string, version: number) {
  return {
    project: slug,
    version,
    parent: isCount(m.parent) ? m.parent : null,
    createdAt: textOrNull(m.createdAt) ?? textOrNull(m.publishedAt),
    schema: schemaOf(m.schema),
    totals: totalsOf(m.totals),
    signature: isObject(m.signature) ? m.signature : null,
  };
}

/**
 * Reads the text of `v<N>/manifest.json` as version `version` of `slug`.
 * Returns the version, or a reason for people why it cannot be served.
 *
 * @example
 * ```ts
 * import { parseVersion } from "./version.ts";
 * const v = parseVersion('{"project":"cities","version":1,"parts":[]}', "cities", 1);
 * if (!("reason" in v)) console.log(v.layout.kind); // "listed"
 * ```
 */
export function parseVersion(text: string, slug: string, version: number): Version | { reason: string } {
  let raw: unknown;
  try {
    raw = parseDocumentJson(text);
  } catch {
    return { reason: "manifest.json is not valid JSON" };
  }
  if (!isObject(raw)) return { reason: "manifest.json is not a JSON object" };
  const m = raw;
  if (m.version !== undefined && m.version !== version) {
    return { reason: `manifest.json names version ${JSON.stringify(m.version)}, not ${version}` };
  }
  if (m.project !== undefined && m.project !== slug) {
    return { reason: `manifest.json names project ${JSON.stringify(m.project)}, not ${slug}` };
  }
  if (m.format === LOCAL_VERSION_FORMAT) {
    const top = partNodeOf(m.stack);
    const provenance = provenanceEntryOf(m.provenance);
    if (!top) return { reason: "manifest.json names no valid top part" };
    if (!provenance) return { reason: "manifest.json names no valid provenance" };
    // A version made before this layout (upgraded in place) may not say which contribution made it.
    const origin = mergeOriginOf(m.contribution);
    return {
      ...common(m, slug, version),
      origin,
      layout: { kind: "stack", top, provenance },
      change: changeOf(m.change),
    };
  }
  if (!Array.isArray(m.parts)) return { reason: "manifest.json has no parts list" };
  const parts = listedParts(m.parts);
  if ("reason" in parts) return parts;
  const origin = mergeOriginOf(m.source) ?? (isObject(m.source) ? null : copyOriginOf(m));
  return { ...common(m, slug, version), origin, layout: { kind: "listed", parts }, change: null };
}

/**
 * The on-disk document of `version`: the one writer of `manifest.json`.
 * A local version's file holds its own facts (its top part, its line of
 * provenance, its change, the contribution); a copy's holds the manifest
 * as published, parts without URLs, and the bookkeeping of its taking.
 *
 * @example
 * ```ts
 * import { versionDocument } from "./version.ts";
 * const copy = {
 *   project: "cities", version: 1, parent: null, createdAt: null, schema: null, signature: null, change: null,
 *   totals: { records: null, bytes: null, parts: null, contributions: null },
 *   origin: { kind: "copy" as const, published: { project: "cities", version: 1 }, verified: false, taken: {} },
 *   layout: { kind: "listed" as const, parts: [] },
 * };
 * versionDocument(copy).format; // "parquet"
 * ```
 */
export function versionDocument(version: Version): Record<string, unknown> {
  const { origin, layout } = version;
  if (layout.kind === "stack") {
    if (origin?.kind === "copy") throw new TypeError("a copy's parts are listed, not stacked");
    return {
      format: LOCAL_VERSION_FORMAT,
      project: version.project,
      version: version.version,
      parent: version.parent,
      createdAt: version.createdAt,
      schema: version.schema,
      totals: version.totals,
      stack: layout.top,
      provenance: layout.provenance,
      change: version.change,
      contribution: origin
        ? { contribution: origin.contribution, idempotency: origin.idempotency, agentId: origin.agentId }
        : null,
    };
  }
  if (origin?.kind !== "copy") throw new TypeError("only copies are written with their parts listed");
  return {
    ...origin.published,
    project: version.project,
    version: version.version,
    parts: layout.parts.map((p) => p.entry),
    format: "parquet",
    ...(origin.verified ? { verified: true } : {}),
    ...origin.taken,
  };
}

/**
 * A copy of a published `manifest` (part URLs and `urlExpiresAt` dropped),
 * as a pull, a follow or a load takes it, with the bookkeeping of its taking.
 *
 * @example
 * ```ts
 * import { copyOf } from "./version.ts";
 * const v = copyOf({ project: "cities", version: 1, parts: [] }, { verified: false, taken: { pulledAt: "now" } });
 * if (!("reason" in v)) console.log(v.origin?.kind); // "copy"
 * ```
 */
export function copyOf(
  manifest: Record<string, unknown>,
  taking: { verified: boolean; taken: Record<string, unknown> },
): CopyVersion | { reason: string } {
  const { urlExpiresAt: _e, ...kept } = manifest;
  const slug = String(manifest.project);
  const n = Number(manifest.version);
  const parsed = parseVersion(stringifyExactJson(kept), slug, n);
  if ("reason" in parsed) return parsed;
  if (parsed.layout.kind !== "listed") return { reason: "a copy lists its parts" };
  const published = copyOriginOf(kept).published;
  return {
    ...parsed,
    layout: parsed.layout,
    origin: { kind: "copy", published, verified: taking.verified, taken: taking.taken },
  };
}

/** A copy: its parts listed, its origin a copy's. */
export type CopyVersion = Version & { origin: CopyOrigin; layout: { kind: "listed"; parts: ListedPart[] } };
