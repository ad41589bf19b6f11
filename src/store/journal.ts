/**
 * A project's journal of versions, `<slug>/index/versions.log`: one line
 * `+N` when version N is committed and `-N` when it is pruned, appended
 * after the commit and before the prune. Readers learn which versions a
 * project holds from it, reading only what was appended since they last
 * looked, so a project of a hundred thousand versions is never listed
 * folder by folder again. The version folders stay the truth: a journal
 * that lost its last lines to a crash is caught up by looking for the next
 * version's folder, and one that is missing is rebuilt from the folders.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, readdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { syncDir } from "./atomic.ts";
import { projectDir, versionOfDirName } from "./layout.ts";
import { wroteToStore } from "./_writes_seen.ts";

/** The journal's path for `slug`. */
export function journalFile(root: string, slug: string): string {
  return join(projectDir(root, slug), "index", "versions.log");
}

/** What a stretch of the journal says. */
export interface JournalRead {
  /** Its lines in order: a version committed (`+`) or pruned (`-`). */
  ops: ["+" | "-", number][];
  /** Where the whole lines read end: the next read starts there. */
  end: number;
}

/**
 * The journal of `slug` from byte `from` on (a torn last line is left for
 * the next read), or null when the project has no journal.
 *
 * @example
 * ```ts
 * import { readJournal } from "./journal.ts";
 * console.log(await readJournal(await Deno.makeTempDir(), "notes", 0)); // null
 * ```
 */
export async function readJournal(root: string, slug: string, from: number): Promise<JournalRead | null> {
  let handle;
  try {
    handle = await open(journalFile(root, slug), "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    const size = (await handle.stat()).size;
    if (size <= from) return { ops: [], end: Math.min(from, size) };
    const bytes = new Uint8Array(size - from);
    await handle.read(bytes, 0, bytes.length, from);
    const text = new TextDecoder().decode(bytes);
    const whole = text.lastIndexOf("\n") + 1;
    const ops: JournalRead["ops"] = [];
    for (const line of text.slice(0, whole).split("\n")) {
      const m = /^([+-])([1-9][0-9]{0,14})$/.exec(line);
      if (m) ops.push([m[1] as "+" | "-", Number(m[2])]);
    }
    return { ops, end: from + new TextEncoder().encode(text.slice(0, whole)).length };
  } finally {
    await handle.close();
  }
}

/**
 * Appends `lines` (`+N`, `-N`) to the journal of `slug`; fsyncs when `sync`.
 * Call under the project's lock, and only once the journal exists.
 */
export async function appendJournal(root: string, slug: string, lines: readonly string[], sync: boolean) {
  if (lines.length === 0) return;
  let handle;
  try {
    handle = await open(journalFile(root, slug), "r+");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  try {
    const size = (await handle.stat()).size;
    const last = new Uint8Array(1);
    if (size > 0) await handle.read(last, 0, 1, size - 1);
    // A torn last line (a crash mid-append) is closed off so the new lines start fresh.
    const head = size > 0 && last[0] !== 10 ? "\n" : "";
    await handle.write(head + lines.map((l) => `${l}\n`).join(""), size);
    if (sync) await handle.sync();
  } finally {
    wroteToStore(root);
    await handle.close();
  }
}

/**
 * The newest version the journal of `slug` says was committed (0 when none
 * or no journal), read from its end backwards.
 *
 * @example
 * ```ts
 * import { lastCommitted } from "./journal.ts";
 * await lastCommitted(await Deno.makeTempDir(), "notes"); // 0
 * ```
 */
export async function lastCommitted(root: string, slug: string): Promise<number> {
  let handle;
  try {
    handle = await open(journalFile(root, slug), "r");
  } catch {
    return 0;
  }
  try {
    const size = (await handle.stat()).size;
    const CHUNK = 4096;
    let tail = "";
    for (let end = size; end > 0;) {
      const from = Math.max(0, end - CHUNK);
      const bytes = new Uint8Array(end - from);
      await handle.read(bytes, 0, bytes.length, from);
      tail = new TextDecoder().decode(bytes) + tail;
      // The first line may be cut at the chunk's start: it counts once the chunk before it is read.
      const lines = tail.split("\n").slice(from === 0 ? 0 : 1);
      const added = lines.map((l) => /^\+([1-9][0-9]{0,14})$/.exec(l)).filter((m) => m !== null).map((m) =>
        Number(m[1])
      );
      if (added.length > 0) return Math.max(...added);
      end = from;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

/**
 * Writes the journal of `slug` afresh from its version folders (each `+N`,
 * in order), atomically. Call under the project's lock.
 *
 * @example
 * ```ts
 * import { rebuildJournal } from "./journal.ts";
 * await rebuildJournal(await Deno.makeTempDir(), "notes"); // [] when the project has no version
 * ```
 */
export async function rebuildJournal(root: string, slug: string): Promise<number[]> {
  const dir = projectDir(root, slug);
  const names = await readdir(dir).catch(() => [] as string[]);
  const versions = names.map(versionOfDirName).filter((n): n is number => n !== null).sort((a, b) => a - b);
  const index = join(dir, "index");
  await mkdir(index, { recursive: true });
  const temp = join(index, `.versions.log.tmp-${randomUUID()}`);
  await writeFile(temp, versions.map((n) => `+${n}\n`).join(""));
  const handle = await open(temp, "r+");
  await handle.sync();
  await handle.close();
  await rename(temp, journalFile(root, slug));
  wroteToStore(root);
  await syncDir(index);
  return versions;
}
