/**
 * Version manifests: the stored form on disk and the published form a client
 * reads. Every key other than local bookkeeping passes through untouched, the
 * origin's `signature` above all.
 *
 * @module
 */
import { isSha256, type Manifest, type ManifestPart, parseDocumentJson } from "../wire/mod.ts";

/** The `format` of a published manifest. */
export const MANIFEST_FORMAT = "svc-dataset-manifest/1";

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

/** A part as a stored manifest lists it, checked. */
export interface StoredPart {
  /** Lowercase SHA-256 hex. */
  sha256: string;
  /** Exact size in bytes. */
  bytes: number;
  /** Records in the part, when the manifest says. */
  records: number | null;
  /** The part entry as stored, for publishing. */
  entry: Record<string, unknown>;
}

/** A stored manifest that parsed and whose part list is well formed. */
export interface StoredManifest {
  /** The manifest object as stored. */
  raw: Record<string, unknown>;
  /** The parts, in record order. */
  parts: StoredPart[];
}

/**
 * Checks the text of `v<N>/manifest.json` for version `version` of `slug`.
 * Returns the manifest, or a reason for people why the version cannot be
 * served.
 *
 * @example
 * ```ts
 * import { parseStoredManifest } from "./manifest.ts";
 * const r = parseStoredManifest('{"project":"cities","version":1,"parts":[]}', "cities", 1);
 * if ("reason" in r) console.log(r.reason);
 * ```
 */
export function parseStoredManifest(
  text: string,
  slug: string,
  version: number,
): StoredManifest | { reason: string } {
  let raw: unknown;
  try {
    raw = parseDocumentJson(text);
  } catch {
    return { reason: "manifest.json is not valid JSON" };
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    return { reason: "manifest.json is not a JSON object" };
  }
  const m = raw as Record<string, unknown>;
  if (m.version !== undefined && m.version !== version) {
    return { reason: `manifest.json names version ${JSON.stringify(m.version)}, not ${version}` };
  }
  if (m.project !== undefined && m.project !== slug) {
    return { reason: `manifest.json names project ${JSON.stringify(m.project)}, not ${slug}` };
  }
  if (!Array.isArray(m.parts)) return { reason: "manifest.json has no parts list" };
  const parts: StoredPart[] = [];
  for (const [i, p] of m.parts.entries()) {
    if (!p || typeof p !== "object" || Array.isArray(p)) return { reason: `part ${i} is not an object` };
    const entry = p as Record<string, unknown>;
    if (typeof entry.sha256 !== "string" || !isSha256(entry.sha256)) {
      return { reason: `part ${i} has no valid sha256` };
    }
    if (!isCount(entry.bytes)) return { reason: `part ${i} has no valid byte size` };
    const records = entry.records ?? entry.count;
    if (records !== undefined && !isCount(records)) return { reason: `part ${i} has an invalid record count` };
    parts.push({ sha256: entry.sha256, bytes: entry.bytes, records: (records as number | undefined) ?? null, entry });
  }
  return { raw: m, parts };
}

function isCount(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

/**
 * The published form of a stored manifest: bookkeeping keys dropped, `format`
 * restored, `project` and `version` filled in, and each part given the URL
 * `partUrl` returns (or none when `partUrl` is null, as in project detail).
 *
 * @example
 * ```ts
 * import { parseStoredManifest, publishManifest } from "./manifest.ts";
 * const m = parseStoredManifest('{"parts":[]}', "cities", 1);
 * if (!("reason" in m)) publishManifest(m, "cities", 1, null);
 * ```
 */
export function publishManifest(
  stored: StoredManifest,
  slug: string,
  version: number,
  partUrl: ((sha256: string) => string) | null,
): Manifest {
  const storedFormat = stored.raw.format;
  const format = typeof storedFormat === "string" && storedFormat.startsWith("svc-dataset-manifest/")
    ? storedFormat
    : MANIFEST_FORMAT;
  const out: Record<string, unknown> = { format, project: slug, version };
  for (const [key, value] of Object.entries(stored.raw)) {
    if (key === "format" || key === "project" || key === "version") continue;
    if (BOOKKEEPING_KEYS.includes(key)) continue;
    out[key] = value;
  }
  out.parts = stored.parts.map((p) => {
    const part: ManifestPart = { sha256: p.sha256, bytes: p.bytes };
    for (const [key, value] of Object.entries(p.entry)) {
      if (key !== "url" && key !== "sha256" && key !== "bytes") part[key] = value;
    }
    if (partUrl) part.url = partUrl(p.sha256);
    return part;
  });
  return out as Manifest;
}
