/**
 * The store's upgrade in place, run by a node as it starts: every project
 * gets its journal of versions, and a local project whose versions list
 * their parts (each part carrying the `sources` of every contribution folded
 * into it, so that every version repeated the history before it) is moved to
 * the part stack and the provenance log.
 *
 * Crash-safe in three steps: (1) the two logs are written whole beside the
 * project and renamed into place, then a plan naming each version's top
 * part and provenance line (`index/upgrade.json`); (2) each version's
 * manifest is rewritten, atomically, from the plan; (3) the journal is made
 * and the plan removed. A crash before the plan starts again from (1) (no
 * manifest was touched); after it, the next start goes on from the plan.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { open, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { syncDir, writeFileAtomic } from "./atomic.ts";
import { fixedLine } from "./_fixed_log.ts";
import { journalFile, rebuildJournal } from "./journal.ts";
import { manifestFile, projectDir, versionOfDirName } from "./layout.ts";
import { type PartNode, partStack } from "./part_stack.ts";
import { type PartSource, type ProvenanceEntry, provenanceEntryOf, provenanceLog } from "./provenance.ts";
import { readChange } from "./changes.ts";
import { type ListedPart, parseVersion, type Version, versionDocument } from "./version.ts";
import { fileStampOf } from "../runtime/mod.ts";
import { stringifyExactJson } from "../wire/mod.ts";

/** What the upgrade did to one project. */
export interface UpgradeResult {
  /** Whether the project's journal was made. */
  journal: boolean;
  /** Versions moved to the part stack. */
  stacked: number;
}

interface Plan {
  format: 1;
  versions: Record<string, { top: number; provenance: number }>;
}

const planFile = (root: string, slug: string) => join(projectDir(root, slug), "index", "upgrade.json");

async function versionNumbers(root: string, slug: string): Promise<number[]> {
  const names = await readdir(projectDir(root, slug)).catch(() => [] as string[]);
  return names.map(versionOfDirName).filter((n): n is number => n !== null).sort((a, b) => a - b);
}

async function readVersion(root: string, slug: string, n: number): Promise<Version | null> {
  const text = await readFile(manifestFile(root, slug, n), "utf8").catch(() => null);
  if (text === null) return null;
  const v = parseVersion(text, slug, n);
  return "reason" in v ? null : v;
}

/** Whether `v` is a local version in the older, listed layout. */
const isListedLocal = (v: Version | null): v is Version & { layout: { kind: "listed"; parts: ListedPart[] } } =>
  v !== null && v.layout.kind === "listed" && v.origin?.kind !== "copy";

/** The sources a listed part says it holds, checked to fit it, or null. */
function listedSources(part: ListedPart): PartSource[] | null {
  const listed = part.entry.sources;
  if (!Array.isArray(listed) || part.records === null) return null;
  const out: PartSource[] = [];
  let at = 0;
  for (const s of [...listed].sort((a, b) => (a?.offset ?? 0) - (b?.offset ?? 0))) {
    const ok = s && Number.isSafeInteger(s.records) && Number.isSafeInteger(s.offset) && s.offset >= at &&
      (s.mergedInVersion === null || s.mergedInVersion === undefined || Number.isSafeInteger(s.mergedInVersion));
    if (!ok) return null;
    const text = (v: unknown) => typeof v === "string" && v.length <= 64 ? v : null;
    out.push({
      contributionId: text(s.contributionId),
      agentId: text(s.agentId),
      mergedInVersion: s.mergedInVersion ?? null,
      records: s.records,
      offset: s.offset,
    });
    at = s.offset + s.records;
  }
  return at <= part.records ? out : null;
}

/** The provenance of every record, from the newest version's parts: known runs, and unknown ones between them. */
function entriesOf(newest: Version & { layout: { kind: "listed"; parts: ListedPart[] } }, times: Map<number, string>) {
  const entries: ProvenanceEntry[] = [];
  const push = (e: Omit<ProvenanceEntry, "entry">) => {
    const last = entries[entries.length - 1];
    if (last && e.version === null && last.version === null) last.records += e.records;
    else if (e.records > 0) entries.push({ entry: entries.length, ...e });
  };
  let start = 0;
  for (const part of newest.layout.parts) {
    const records = part.records ?? 0;
    let at = 0;
    for (const s of listedSources(part) ?? []) {
      const unknown = { version: null, contributionId: null, agentId: null, at: null };
      if (s.offset > at) push({ ...unknown, records: s.offset - at, start: start + at });
      const at_ = s.mergedInVersion === null ? null : times.get(s.mergedInVersion) ?? null;
      push({ ...s, version: s.mergedInVersion, records: s.records, start: start + s.offset, at: at_ });
      at = s.offset + s.records;
    }
    if (at < records) {
      push({ version: null, contributionId: null, agentId: null, at: null, records: records - at, start: start + at });
    }
    start += records;
  }
  // Versions must not go down along the records: a run that would is taken as unknown. A run of unknown version
  // says which known version comes before it (it was merged then or later).
  let seen = 0;
  for (const e of entries) {
    if (e.version !== null && e.version < seen) e.version = null;
    if (e.version === null) e.after = seen;
    seen = Math.max(seen, e.version ?? 0);
  }
  return entries;
}

async function writeWhole(path: string, lines: readonly Record<string, unknown>[], width: number) {
  const temp = `${path}.tmp-${randomUUID()}`;
  const handle = await open(temp, "w");
  try {
    await handle.writeFile(lines.map((l) => fixedLine(l, width)).join(""));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}

/** Step (1): the logs and the plan, from the versions' manifests. */
async function makePlan(root: string, slug: string, versions: number[]): Promise<Plan> {
  const listed: (Version & { layout: { kind: "listed"; parts: ListedPart[] } })[] = [];
  for (const n of versions) {
    const v = await readVersion(root, slug, n);
    if (isListedLocal(v) && v.layout.parts.every((p) => p.records !== null)) listed.push(v);
  }
  const times = new Map(listed.map((v) => [v.version, v.createdAt ?? ""]));
  const entries = listed.length ? entriesOf(listed[listed.length - 1], times) : [];
  const nodes: PartNode[] = [];
  let stack: PartNode[] = [];
  const plan: Plan = { format: 1, versions: {} };
  for (const v of listed) {
    let same = 0;
    while (
      same < stack.length && same < v.layout.parts.length && stack[same].sha256 === v.layout.parts[same].sha256 &&
      stack[same].bytes === v.layout.parts[same].bytes
    ) same++;
    stack = stack.slice(0, same);
    for (const part of v.layout.parts.slice(same)) {
      const below = stack[stack.length - 1] ?? null;
      const node: PartNode = {
        node: nodes.length,
        pushedBy: null,
        sha256: part.sha256,
        bytes: part.bytes,
        records: part.records!,
        below: below?.node ?? null,
        start: below ? below.start + below.records : 0,
        depth: stack.length,
      };
      nodes.push(node);
      stack.push(node);
    }
    if (stack.length === 0) continue;
    const top = stack[stack.length - 1];
    const total = top.start + top.records;
    let reach = -1;
    for (const e of entries) if (e.start < total) reach = e.entry;
    if (top.node === nodes.length - 1 && top.pushedBy === null) top.pushedBy = v.version;
    plan.versions[v.version] = { top: top.node, provenance: Math.max(reach, 0) };
  }
  if (entries.length === 0) {
    entries.push({ entry: 0, version: null, contributionId: null, agentId: null, records: 0, start: 0, at: null });
  }
  const index = join(projectDir(root, slug), "index");
  await writeWhole(
    partStack(root, slug).log.path,
    nodes as unknown as Record<string, unknown>[],
    partStack(root, slug).log.width,
  );
  const provenance = provenanceLog(root, slug);
  await writeWhole(provenance.log.path, entries as unknown as Record<string, unknown>[], provenance.log.width);
  await syncDir(index);
  await writeFileAtomic(planFile(root, slug), JSON.stringify(plan) + "\n");
  return plan;
}

/** Step (2): one version's manifest rewritten on the part stack. */
async function restack(root: string, slug: string, n: number, at: { top: number; provenance: number }) {
  const v = await readVersion(root, slug, n);
  if (!isListedLocal(v)) return false;
  const top = await partStack(root, slug).node(at.top);
  const provenance = provenanceEntryOf(await provenanceLog(root, slug).log.read(at.provenance));
  if (!provenance) throw new Error(`${slug}: the provenance log has no line ${at.provenance}`);
  const change = await readChange(root, slug, n);
  const stacked: Version = { ...v, layout: { kind: "stack", top, provenance }, change: v.change ?? change };
  await writeFileAtomic(manifestFile(root, slug, n), stringifyExactJson(versionDocument(stacked), 2) + "\n");
  return true;
}

/**
 * Upgrades project `slug` in place when it needs it (see the module's
 * notes); a project that does not is left as it is. Call under the
 * project's lock.
 *
 * @example
 * ```ts
 * import { upgradeProject } from "./upgrade.ts";
 * await upgradeProject(await Deno.makeTempDir(), "notes"); // { journal: false, stacked: 0 }
 * ```
 */
export async function upgradeProject(
  root: string,
  slug: string,
  report: (line: string) => void = () => {},
): Promise<UpgradeResult> {
  const journal = fileStampOf(journalFile(root, slug)) !== null;
  const pending = await readFile(planFile(root, slug), "utf8").then((t) => JSON.parse(t) as Plan, () => null);
  if (journal && !pending) return { journal: false, stacked: 0 };
  const versions = await versionNumbers(root, slug);
  let plan = pending;
  if (pending) report(`upgrading ${slug}: going on with the upgrade a stop interrupted`);
  if (!plan) {
    const newest = versions.length ? await readVersion(root, slug, versions[versions.length - 1]) : null;
    if (isListedLocal(newest)) {
      report(`upgrading ${slug}: ${versions.length} version(s) to the part stack and provenance log`);
      plan = await makePlan(root, slug, versions);
    }
  }
  let stacked = 0;
  for (const [n, at] of Object.entries(plan?.versions ?? {})) {
    if (await restack(root, slug, Number(n), at)) stacked++;
  }
  const parts = join(projectDir(root, slug), "parts");
  for (const name of await readdir(parts).catch(() => [] as string[])) {
    if (name.startsWith(".tmp-")) await rm(join(parts, name), { force: true });
  }
  await rebuildJournal(root, slug);
  await rm(planFile(root, slug), { force: true });
  return { journal: !journal, stacked };
}
