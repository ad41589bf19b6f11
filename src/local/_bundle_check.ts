/**
 * What a load reads and checks of a bundle before the store changes: its
 * members (only the allowed names, each once; each part's size and
 * SHA-256, written to a staging folder as it is read), then its header,
 * project file and manifest agreeing with one another and with the parts.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { join } from "node:path";
import { copyOf, type CopyVersion, parseVersion } from "../store/mod.ts";
import { isSlug, parseDocumentJson } from "../wire/mod.ts";
import { BundleError } from "../client/mod.ts";
import { readTar } from "./tar.ts";
import type { BundleHeader } from "./types.ts";

/** The `format` of a bundle header. */
export const BUNDLE_FORMAT = "svc-bundle/1";
const PART_MEMBER = /^parts\/([0-9a-f]{64})\.parquet$/;
const MAX_JSON_MEMBER = 16 * 1024 * 1024;
const JSON_MEMBERS = ["svc-bundle.json", "project.json", "manifest.json"];

/**
 * Refuses a bundle, saying why.
 *
 * @example
 * ```ts
 * import { refuse } from "./_bundle_check.ts";
 * try {
 *   refuse("the bundle has no manifest.json");
 * } catch (e) {
 *   console.log((e as Error).message); // "the bundle has no manifest.json"
 * }
 * ```
 */
export function refuse(message: string): never {
  throw new BundleError(message, 0, "bundle", null);
}

/** A bundle's members as read: its JSON members whole, and its parts' sizes by SHA-256. */
export interface BundleMembers {
  /** `svc-bundle.json`, `project.json` and `manifest.json`, as bytes. */
  json: Map<string, Uint8Array>;
  /** Each part's size, by its SHA-256 (checked as it was read). */
  parts: Map<string, number>;
}

/** A bundle whose members agree: what a load lays out. */
export interface CheckedBundle {
  /** Its header. */
  header: BundleHeader;
  /** Its `project.json`, parsed (unchecked: a load keeps only known keys). */
  meta: unknown;
  /** Its manifest as sent (the signature covers it). */
  raw: Record<string, unknown>;
  /** The version as the store keeps a copy. */
  copy: CopyVersion;
  /** Each part's size, by its SHA-256. */
  parts: Map<string, number>;
}

async function whole(body: AsyncIterable<Uint8Array>, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let at = 0;
  for await (const c of body) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

async function stagedPart(body: AsyncIterable<Uint8Array>, sha: string, staging: string | null): Promise<void> {
  const hash = createHash("sha256");
  const out = staging === null ? null : await open(join(staging, `${sha}.parquet`), "wx");
  try {
    for await (const c of body) {
      hash.update(c);
      await out?.write(c);
    }
    await out?.sync();
  } finally {
    await out?.close();
  }
  if (hash.digest("hex") !== sha) refuse(`part ${sha} in the bundle does not match its SHA-256`);
}

/**
 * Reads the bundle at `file`: its JSON members whole, its parts checked
 * against their names and written into `staging` (only checked when null).
 */
export async function readMembers(
  file: string,
  staging: string | null,
  onProgress?: (doneBytes: number, totalBytes: number) => void,
): Promise<BundleMembers> {
  const size = (await stat(file)).size;
  let read = 0;
  const counted = async function* () {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
      read += (chunk as Uint8Array).length;
      onProgress?.(read, size);
      yield chunk as Uint8Array;
    }
  };
  const json = new Map<string, Uint8Array>();
  const parts = new Map<string, number>();
  for await (const entry of readTar(counted())) {
    const part = PART_MEMBER.exec(entry.name);
    const known = JSON_MEMBERS.includes(entry.name);
    if (!part && !known) refuse(`the bundle holds a member it may not: ${JSON.stringify(entry.name)}`);
    if (json.has(entry.name) || (part && parts.has(part[1]))) refuse(`the bundle holds ${entry.name} twice`);
    if (known) {
      if (entry.size > MAX_JSON_MEMBER) refuse(`${entry.name} is too large`);
      json.set(entry.name, await whole(entry.body, entry.size));
      continue;
    }
    await stagedPart(entry.body, part![1], staging);
    parts.set(part![1], entry.size);
  }
  for (const name of JSON_MEMBERS) if (!json.has(name)) refuse(`the bundle has no ${name}`);
  return { json, parts };
}

function headerOf(members: BundleMembers): BundleHeader {
  const header = parsed(members, "svc-bundle.json") as BundleHeader;
  if (header.format !== BUNDLE_FORMAT) {
    refuse(`the bundle's format is ${JSON.stringify(header.format)}, not ${BUNDLE_FORMAT}`);
  }
  if (typeof header.project !== "string" || !isSlug(header.project)) refuse("the bundle names no valid project");
  if (!Number.isSafeInteger(header.version) || header.version < 1) refuse("the bundle names no valid version");
  return header;
}

function parsed(members: BundleMembers, name: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(members.json.get(name)));
  } catch {
    return refuse(`${name} in the bundle is not JSON`);
  }
}

/**
 * The bundle `members` hold, once its header, manifest and parts agree:
 * the manifest matches the header's SHA-256, counts and bytes, and lists
 * exactly the parts the bundle holds, each at its size.
 */
export function checkedBundle(members: BundleMembers): CheckedBundle {
  const header = headerOf(members);
  const meta = parsed(members, "project.json");
  const manifestBytes = members.json.get("manifest.json")!;
  const manifestText = new TextDecoder().decode(manifestBytes);
  const checked = parseVersion(manifestText, header.project, header.version);
  if ("reason" in checked) refuse(`the bundle's manifest does not match its header: ${checked.reason}`);
  const raw = parseDocumentJson(manifestText) as Record<string, unknown>;
  const copy = copyOf(raw, { verified: false, taken: {} });
  if ("reason" in copy || copy.layout.kind !== "listed") refuse("the bundle's manifest does not list its parts");
  if (createHash("sha256").update(manifestBytes).digest("hex") !== header.manifestSha256) {
    refuse("the bundle's manifest does not match the SHA-256 its header gives");
  }
  const listed = copy.layout.parts;
  const bytes = listed.reduce((a, p) => a + p.bytes, 0);
  if (header.parts !== listed.length || header.bytes !== bytes) refuse("the bundle's header and manifest disagree");
  for (const p of listed) {
    if (members.parts.get(p.sha256) !== p.bytes) {
      refuse(`part ${p.sha256} is missing from the bundle or has the wrong size`);
    }
  }
  const names = new Set(listed.map((p) => p.sha256));
  for (const sha of members.parts.keys()) {
    if (!names.has(sha)) refuse(`the bundle holds part ${sha}, which its manifest does not list`);
  }
  return { header, meta, raw, copy, parts: members.parts };
}
