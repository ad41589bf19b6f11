/**
 * Crash safety: a writer killed with SIGKILL at random moments, many times,
 * never leaves a torn or missing version, and every contribution it was
 * answered `merged` for is in the store afterwards.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { openReadEngine, pageReader } from "../../src/parquet/mod.ts";
import { openStore, readContribution } from "../../src/store/mod.ts";
import { DENO_RUN, ROOT } from "../support/cli_process.ts";
import { tempDir } from "../support/store_fixture.ts";

const WRITER = `${ROOT}tests/support/writer_main.ts`;

function writer(store: string, first: number, count?: number) {
  return new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "-A", WRITER, store, String(first), ...(count === undefined ? [] : [String(count)])],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) text += chunk;
  return text;
}

/** A child's stdout: all of it once it ends, and the moment its first line is out. */
function linesOf(stream: ReadableStream<Uint8Array>): { first: Promise<string>; all: Promise<string> } {
  let seen: (line: string) => void = () => {};
  const first = new Promise<string>((resolve) => (seen = resolve));
  const all = (async () => {
    let text = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      if (text.includes("\n")) seen(text.slice(0, text.indexOf("\n")));
    }
    return text;
  })();
  return { first, all };
}

Deno.test("a writer killed at random points leaves whole, consecutive versions and loses no merged contribution", async () => {
  const dir = await tempDir();
  try {
    const merged = new Map<string, number>();
    let batch = 0;
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 12; round++) {
      const child = writer(dir.path, batch);
      const out = linesOf(child.stdout);
      const err = collect(child.stderr);
      // Killed at a random point after its first merge, however slow the machine is to start it.
      const first = await Promise.race([out.first, child.status.then(() => null)]);
      if (first === null) throw new Error(`the writer stopped before merging: ${await err}`);
      await new Promise((r) => setTimeout(r, random() * 1500));
      child.kill("SIGKILL");
      const status = await child.status;
      assertEquals(status.signal, "SIGKILL", await err);
      for (const line of (await out.all).split("\n")) {
        const m = /^merged (\S+) (\d+) (\d+)$/.exec(line);
        if (m) merged.set(m[1], Number(m[3]));
      }
      batch += 1000;
    }
    assert(merged.size >= 12, `the writers got work done between kills (${merged.size} merges)`);

    const finisher = writer(dir.path, batch, 1);
    const [out, err, status] = await Promise.all([collect(finisher.stdout), collect(finisher.stderr), finisher.status]);
    assertEquals(status.code, 0, err);
    assert(/^merged /.test(out));

    const store = openStore(dir.path);
    const project = await store.project("notes");
    assertEquals(project?.incomplete, [], "no torn version");
    const versions = project!.versions;
    assertEquals(versions.runs, [[1, versions.count]], "consecutive");
    const engine = await openReadEngine(dir.path);
    try {
      const latest = (await store.latest("notes"))!;
      const ids = new Set(
        (await pageReader(engine).page(latest, 0, 1_000_000)).map((text) => JSON.parse(text).id as number),
      );
      for (const [id, b] of merged) {
        for (let i = 0; i < 5; i++) {
          assert(ids.has(b * 5 + i), `batch ${b} of contribution ${id} is in the latest version`);
        }
        assertEquals((await readContribution(dir.path, "notes", id))?.status, "merged", `contribution ${id} kept`);
      }
      assertEquals(ids.size, latest.manifest.totals.records);
    } finally {
      await engine.close();
    }
    const leftovers = [];
    for (const sub of ["", "parts", "index", "contributions"]) {
      leftovers.push(...(await readdir(join(dir.path, "notes", sub))).filter((n) => n.startsWith(".")));
    }
    assertEquals(leftovers, [], "no temporary file, staging folder or lock is left after a clean run");
  } finally {
    await dir.cleanup();
  }
});

Deno.test("a lock left empty by a writer killed while creating it is taken over once it is old", async () => {
  const { withProjectLock } = await import("../../src/store/lock.ts");
  const { mkdir, writeFile, utimes } = await import("node:fs/promises");
  const dir = await tempDir();
  try {
    await mkdir(join(dir.path, "notes"));
    const lock = join(dir.path, "notes", ".lock");
    await writeFile(lock, "");
    const old = new Date(Date.now() - 11_000);
    await utimes(lock, old, old);
    assertEquals(await withProjectLock(dir.path, "notes", () => Promise.resolve("taken"), 2000), "taken");
    await writeFile(lock, "999999@elsewhere.example");
    const { LockTimeout } = await import("../../src/store/lock.ts");
    const e = await withProjectLock(dir.path, "notes", () => Promise.resolve("no"), 200).catch((e) => e);
    assert(e instanceof LockTimeout, "a lock of another host is never broken");
  } finally {
    await dir.cleanup();
  }
});
