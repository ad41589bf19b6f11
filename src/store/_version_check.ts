/**
 * Checking a version whole: its manifest parses, its parts resolve (listed,
 * or walked down the part stack) and every part is a regular file of exactly
 * its size. Checked versions are cached by manifest identity, a bounded
 * number of them, and their parts looked at again every two seconds.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { fileStampOf, linkInfoOf } from "../runtime/mod.ts";
import { manifestFile, partFile } from "./layout.ts";
import type { PlacedPart } from "./manifest.ts";
import { partStack } from "./part_stack.ts";
import { parseVersion, type Version } from "./version.ts";
import { versionLink } from "./no_follow.ts";

/** A whole version: its manifest and the paths of its parts. */
export interface StoredVersion {
  /** The store's root folder. */
  root: string;
  /** Project slug. */
  slug: string;
  /** Version number. */
  version: number;
  /** The version as stored. */
  manifest: Version;
  /** The parts in record order, each with its path on disk. */
  parts: PlacedPart[];
  /** When the manifest file was last written. */
  mtime: Date;
}

/** What a check found: a whole version, or why not. */
export type Checked = StoredVersion | { reason: string };

interface CachedVersion {
  key: string;
  checkedAt: number;
  result: Checked;
}

/** How long a whole version is trusted before its parts are checked on disk again. */
const RECHECK_MS = 2000;
/** Checked versions kept. */
const VERSIONS_KEPT = 1024;

/** What a part file is: its size, or what is wrong with it. */
export type PartSize = number | { reason: string };

/** The checks of one store. */
export interface VersionChecks {
  /** Checks version `version` of `slug`; null when it has no manifest file. */
  check(slug: string, version: number, sizeOf?: (sha256: string) => PartSize): Promise<Checked | null>;
  /** The size of a part file (lstat, synchronous: see `linkInfoOf`), or what is wrong with it. */
  partSize(slug: string, sha256: string): PartSize;
}

async function resolveParts(root: string, slug: string, manifest: Version): Promise<PlacedPart[] | { reason: string }> {
  const layout = manifest.layout;
  if (layout.kind === "listed") {
    let start: number | null = 0;
    return layout.parts.map((p) => {
      const placed = {
        sha256: p.sha256,
        bytes: p.bytes,
        records: p.records,
        path: partFile(root, slug, p.sha256),
        start,
      };
      start = start !== null && p.records !== null ? start + p.records : null;
      return placed;
    });
  }
  try {
    const nodes = await partStack(root, slug).parts(layout.top);
    return nodes.map((n) => ({
      sha256: n.sha256,
      bytes: n.bytes,
      records: n.records,
      path: partFile(root, slug, n.sha256),
      start: n.start,
    }));
  } catch (e) {
    return { reason: (e as Error).message };
  }
}

/**
 * The checks over the store at `root`.
 *
 * @example
 * ```ts
 * import { versionChecks } from "./_version_check.ts";
 * const checks = versionChecks(await Deno.makeTempDir());
 * console.log(await checks.check("notes", 1)); // null
 * ```
 */
export function versionChecks(root: string): VersionChecks {
  const versions = new Map<string, CachedVersion>();
  const checking = new Map<string, { key: string; result: Promise<Checked> }>();
  const partSize = (slug: string, sha256: string): PartSize => {
    const info = linkInfoOf(partFile(root, slug, sha256));
    if (info === null) return { reason: `part ${sha256} is missing` };
    return info.isFile ? info.size : { reason: `part ${sha256} is not a regular file` };
  };

  async function check(
    slug: string,
    version: number,
    sizeOf: (sha256: string) => PartSize = (sha) => partSize(slug, sha),
  ): Promise<Checked | null> {
    const file = manifestFile(root, slug, version);
    // Synchronous: asked on every data, manifest and export request, where an asynchronous stat cost 60 µs.
    const info = fileStampOf(file);
    if (info === null) return null;
    const key = `${info.key}:${info.size}`;
    const cacheKey = `${slug}/${version}`;
    const hit = versions.get(cacheKey);
    const now = Date.now();
    if (hit && hit.key === key && now - hit.checkedAt < RECHECK_MS) return hit.result;
    const linked = versionLink(root, slug, version);
    if (linked) return linked;
    // One look at the disk for all who ask meanwhile: a version of 200 parts is 200 lstats.
    const under = checking.get(cacheKey);
    if (under && under.key === key) return await under.result;
    const result = (async (): Promise<Checked> => {
      const reuse = hit && hit.key === key && "manifest" in hit.result ? hit.result : null;
      const manifest = reuse?.manifest ?? parseVersion(await readFile(file, "utf8"), slug, version);
      if ("reason" in manifest) return manifest;
      const parts = reuse?.parts ?? await resolveParts(root, slug, manifest);
      if ("reason" in parts) return parts;
      for (const part of parts) {
        const size = sizeOf(part.sha256);
        if (typeof size !== "number") return size;
        if (size !== part.bytes) {
          return { reason: `part ${part.sha256} has ${size} bytes, the manifest lists ${part.bytes}` };
        }
      }
      return { root, slug, version, manifest, parts, mtime: new Date(info.mtimeMs) };
    })();
    checking.set(cacheKey, { key, result });
    try {
      const checked = await result;
      versions.delete(cacheKey);
      versions.set(cacheKey, { key, checkedAt: now, result: checked });
      if (versions.size > VERSIONS_KEPT) versions.delete(versions.keys().next().value!);
      return checked;
    } finally {
      if (checking.get(cacheKey)?.result === result) checking.delete(cacheKey);
    }
  }

  return { check, partSize };
}
