/**
 * The versions of a store in an object store, as readers see them: a
 * version is whole when its manifest object is there and parses (a writer
 * puts every part first and the manifest last, so a manifest names only
 * parts that are there), and its parts are placed in the local folder
 * where the part cache keeps them. Manifests are kept in memory (a bounded
 * number of versions), each looked at again (a HEAD, its entity tag
 * compared) once older than the store's refresh age, behind the readers'
 * backs.
 *
 * @module
 */
import { join } from "node:path";
import type { S3Client } from "../objectstore/mod.ts";
import type { PlacedPart } from "./manifest.ts";
import { manifestKey } from "./object_layout.ts";
import { parseVersion } from "./version.ts";
import type { Checked } from "./_version_check.ts";

/** Versions kept in memory. */
const VERSIONS_KEPT = 1024;

/** Why a version with no manifest object is not served. */
export const NO_MANIFEST = "manifest.json is not in the object store (being committed, or its writer stopped first)";

/** One kept version. */
interface Entry {
  /** What was found: a whole version, why not, or null (no manifest). */
  result: Checked | null;
  /** The manifest's entity tag ("" when there is none). */
  etag: string;
  /** When it was read or checked. */
  at: number;
  /** A look under way. */
  running: Promise<Entry> | null;
}

/** The versions of an object store, kept. */
export interface ObjectVersions {
  /** Version `n` of `slug`: whole, why not, or null when it has no manifest. */
  check(slug: string, n: number): Promise<Checked | null>;
  /** Forgets what is kept of version `n` of `slug` (its writer has just committed it). */
  forget(slug: string, n: number): void;
}

/** A version read from its manifest's `text`, its parts placed under `root`. */
function checkedOf(root: string, slug: string, n: number, text: string, lastModified: Date): Checked {
  const manifest = parseVersion(text, slug, n);
  if ("reason" in manifest) return manifest;
  if (manifest.layout.kind !== "listed") {
    return { reason: "a local project's version: an object store holds copies, which list their parts" };
  }
  let start: number | null = 0;
  const parts: PlacedPart[] = manifest.layout.parts.map((p) => {
    const placed = {
      sha256: p.sha256,
      bytes: p.bytes,
      records: p.records,
      path: join(root, slug, "parts", `${p.sha256}.parquet`),
      start,
    };
    start = start !== null && p.records !== null ? start + p.records : null;
    return placed;
  });
  return { root, slug, version: n, manifest, parts, mtime: lastModified };
}

/**
 * The versions of the store `client` reaches, their parts placed under
 * `root`, each looked at again once older than `ageMs`; `failed` is told
 * of looks that failed behind a reader's back.
 *
 * @example
 * ```ts ignore
 * import { objectVersions } from "./_object_versions.ts";
 * declare const client: import("../objectstore/mod.ts").S3Client;
 * const versions = objectVersions(client, "/var/cache/svc", 1000, console.error);
 * console.log(await versions.check("cities", 1));
 * ```
 */
export function objectVersions(
  client: S3Client,
  root: string,
  ageMs: number,
  failed: (e: unknown) => void,
): ObjectVersions {
  const kept = new Map<string, Entry>();
  /** First reads under way, by `slug/n`: who asks meanwhile waits for that one. */
  const first = new Map<string, Promise<Entry>>();
  const read = async (slug: string, n: number): Promise<Entry> => {
    const key = manifestKey(slug, n);
    try {
      const found = await client.get(key);
      const text = await new Response(found.body).text();
      return { result: checkedOf(root, slug, n, text, found.lastModified), etag: found.etag, at: 0, running: null };
    } catch (e) {
      if ((e as { kind?: string }).kind !== "not-found") throw e;
      return { result: null, etag: "", at: 0, running: null };
    }
  };
  /** The entry as the object store has it now: the kept one when its manifest is the same. */
  const again = async (slug: string, n: number, before: Entry | undefined): Promise<Entry> => {
    const started = Date.now();
    let entry: Entry;
    if (before && before.result !== null) {
      const head = await client.head(manifestKey(slug, n));
      entry = head && head.etag === before.etag ? { ...before, running: null } : await read(slug, n);
    } else {
      entry = await read(slug, n);
    }
    entry.at = started;
    const id = `${slug}/${n}`;
    kept.delete(id);
    kept.set(id, entry);
    if (kept.size > VERSIONS_KEPT) kept.delete(kept.keys().next().value!);
    return entry;
  };
  const look = (slug: string, n: number, before: Entry | undefined): Promise<Entry> => {
    if (before?.running) return before.running;
    const running = again(slug, n, before);
    if (before) {
      before.running = running;
      running.catch(() => {}).finally(() => (before.running = null));
    }
    return running;
  };
  return {
    async check(slug, n) {
      const id = `${slug}/${n}`;
      const before = kept.get(id);
      if (!before) {
        let reading = first.get(id);
        if (!reading) {
          reading = look(slug, n, undefined).finally(() => first.delete(id));
          first.set(id, reading);
        }
        return (await reading).result;
      }
      if (Date.now() - before.at < ageMs) return before.result;
      // A version not there before is looked for now (it may have just been committed); one there, behind the back.
      if (before.result === null) return (await look(slug, n, before)).result;
      look(slug, n, before).catch(failed);
      return before.result;
    },
    forget(slug, n) {
      kept.delete(`${slug}/${n}`);
    },
  };
}
