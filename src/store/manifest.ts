/**
 * The published form of a version, as `GET /projects/{slug}/manifest`, a
 * bundle and the project detail give it: the wire's manifest
 * (`svc-dataset-manifest/1`), parts with `sources` and, when asked, URLs.
 * A copy passes through every key the origin published; a local version's
 * parts take their `sources` from the project's provenance log, a page of
 * lines at a time, so a manifest over a hundred thousand contributions is
 * streamed, not held.
 *
 * @module
 */
import { type ExactJson, type Manifest, type ManifestPart, stringifyExactJson } from "../wire/mod.ts";
import { type PartSource, provenanceLog } from "./provenance.ts";
import { MANIFEST_FORMAT, type Version, type VersionPart } from "./version.ts";

export { BOOKKEEPING_KEYS, MANIFEST_FORMAT } from "./version.ts";

/** A part of a stored version, with where it sits. */
export interface PlacedPart extends VersionPart {
  /** Its path on disk. */
  path: string;
  /** Records in the parts before it, when the layout knows (the part stack does). */
  start: number | null;
}

/** What publishing reads of a stored version. */
export interface PublishedVersion {
  /** The store's root folder. */
  root: string;
  /** Project slug. */
  slug: string;
  /** The version as stored. */
  manifest: Version;
  /** Its parts in record order. */
  parts: readonly PlacedPart[];
}

/** How to publish. */
export interface PublishOptions {
  /** Each part's URL (none when it answers null), or null for none at all (project detail, bundles). */
  partUrl: ((sha256: string) => string | null) | null;
  /** Whether a local version's parts carry their `sources` (read from the provenance log). */
  sources: boolean;
  /** Keys written last, replacing any of the same name (`urlExpiresAt`). */
  trailing?: Record<string, unknown>;
}

function head(stored: PublishedVersion): Record<string, unknown> {
  const v = stored.manifest;
  if (v.origin?.kind === "copy") {
    const published = v.origin.published;
    const format = typeof published.format === "string" && published.format.startsWith("svc-dataset-manifest/")
      ? published.format
      : MANIFEST_FORMAT;
    const out: Record<string, unknown> = { format, project: stored.slug, version: v.version };
    for (const [key, value] of Object.entries(published)) {
      if (key !== "format" && key !== "project" && key !== "version") out[key] = value;
    }
    out.parts = [];
    return out;
  }
  const totals = {
    records: v.totals.records,
    bytes: v.totals.bytes,
    parts: v.totals.parts,
    contributions: v.totals.contributions,
  };
  return {
    format: MANIFEST_FORMAT,
    project: stored.slug,
    version: v.version,
    parent: v.parent,
    createdAt: v.createdAt,
    ...(v.schema ? { schema: v.schema } : {}),
    parts: [],
    totals,
  };
}

/** `top` with the trailing keys of `options` moved to its end. */
function withTrailing(top: Record<string, unknown>, options: PublishOptions): Record<string, unknown> {
  for (const key of Object.keys(options.trailing ?? {})) delete top[key];
  return { ...top, ...options.trailing };
}

/** The entry of part `i` without sources from the log (a listed part's own keys pass through). */
function partEntry(stored: PublishedVersion, i: number, partUrl: PublishOptions["partUrl"]): ManifestPart {
  const p = stored.parts[i];
  const part: ManifestPart = { sha256: p.sha256, bytes: p.bytes };
  const layout = stored.manifest.layout;
  if (layout.kind === "listed") {
    for (const [key, value] of Object.entries(layout.parts[i].entry)) {
      if (key !== "url" && key !== "sha256" && key !== "bytes") part[key] = value;
    }
  } else if (p.records !== null) part.records = p.records;
  const url = partUrl?.(p.sha256) ?? null;
  if (url !== null) part.url = url;
  return part;
}

/** Whether part sources come from the project's provenance log. */
function fromLog(stored: PublishedVersion, options: PublishOptions): boolean {
  return options.sources && stored.manifest.layout.kind === "stack";
}

function logSources(stored: PublishedVersion, i: number): AsyncGenerator<PartSource[]> {
  const layout = stored.manifest.layout as Extract<Version["layout"], { kind: "stack" }>;
  const part = stored.parts[i];
  return provenanceLog(stored.root, stored.slug).sources(
    part.start ?? 0,
    part.records ?? 0,
    layout.provenance.entry + 1,
  );
}

/**
 * The published manifest of `stored`, whole (see {@linkcode manifestChunks}
 * for a large local one).
 *
 * @example
 * ```ts ignore
 * import { publishManifest } from "./manifest.ts";
 * declare const stored: Parameters<typeof publishManifest>[0];
 * (await publishManifest(stored, { partUrl: null, sources: true })).parts.length;
 * ```
 */
export async function publishManifest(stored: PublishedVersion, options: PublishOptions): Promise<Manifest> {
  const out = withTrailing(head(stored), options) as Manifest;
  for (let i = 0; i < stored.parts.length; i++) {
    const part = partEntry(stored, i, options.partUrl);
    if (fromLog(stored, options)) {
      const sources: PartSource[] = [];
      for await (const batch of logSources(stored, i)) sources.push(...batch);
      part.sources = sources;
    }
    out.parts.push(part);
  }
  return out;
}

/**
 * The published manifest of `stored` as JSON text, in pieces: the parts'
 * sources a few thousand at a time, so that a local version over a hundred
 * thousand contributions costs the server a page of them in memory.
 *
 * @example
 * ```ts ignore
 * import { manifestChunks } from "./manifest.ts";
 * declare const stored: Parameters<typeof manifestChunks>[0];
 * let text = "";
 * for await (const piece of manifestChunks(stored, { partUrl: null, sources: true })) text += piece;
 * ```
 */
export async function* manifestChunks(stored: PublishedVersion, options: PublishOptions): AsyncGenerator<string> {
  const top = withTrailing(head(stored), options);
  const keys = Object.keys(top);
  yield "{";
  for (const [k, key] of keys.entries()) {
    yield `${k > 0 ? "," : ""}${JSON.stringify(key)}:`;
    if (key !== "parts") {
      yield stringifyExactJson(top[key] as ExactJson);
      continue;
    }
    yield "[";
    for (let i = 0; i < stored.parts.length; i++) {
      const part = partEntry(stored, i, options.partUrl);
      const text = stringifyExactJson(part as ExactJson);
      if (!fromLog(stored, options)) {
        yield `${i > 0 ? "," : ""}${text}`;
        continue;
      }
      yield `${i > 0 ? "," : ""}${text.slice(0, -1)}${text.length > 2 ? "," : ""}"sources":[`;
      let first = true;
      for await (const batch of logSources(stored, i)) {
        if (batch.length === 0) continue;
        yield `${first ? "" : ","}${batch.map((s) => JSON.stringify(s)).join(",")}`;
        first = false;
      }
      yield "]}";
    }
    yield "]";
  }
  yield "}";
}
