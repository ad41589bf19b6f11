/**
 * `versionStatistics` without a server, over an engine that counts its
 * calls: concurrent first calls compute once, later calls read memory or the
 * kept file and never the parts, a read-only node keeps nothing on disk, and
 * a failed write is a warning, not a failed answer.
 *
 * @module
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { openReadEngine } from "../../src/parquet/mod.ts";
import { nodeLog, type StatisticsState, versionStatistics } from "../../src/service/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { counting } from "../support/counting_engine.ts";

async function withState(
  fn: (
    make: (readOnly?: boolean) => StatisticsState & { engine: { uses: number } },
    root: string,
    warnings: string[],
  ) => Promise<void>,
): Promise<void> {
  const dir = await tempDir();
  await citiesStore(dir.path);
  const engine = await openReadEngine(dir.path);
  const warnings: string[] = [];
  try {
    await fn(
      (readOnly = false) => ({
        store: openStore(dir.path),
        engine: counting(engine),
        readOnly,
        log: nodeLog(null, (line) => warnings.push(line)),
      }),
      dir.path,
      warnings,
    );
  } finally {
    await engine.close();
    await dir.cleanup();
  }
}

Deno.test("statistics service: concurrent first calls compute once; later calls touch no part", async () => {
  await withState(async (make, root) => {
    const alone = make();
    const v1 = JSON.parse(await versionStatistics(alone, "cities", 1));
    assertEquals([v1.version, v1.records], [1, 250]);
    const once = alone.engine.uses;
    assert(once > 0);

    const state = make();
    const texts = await Promise.all(Array.from({ length: 6 }, () => versionStatistics(state, "cities", null)));
    assertEquals(new Set(texts).size, 1);
    assertEquals(JSON.parse(texts[0]).version, 2);
    assertEquals(state.engine.uses, once, "six calls, one computation");

    await rm(join(root, "cities", "v2", "statistics.json"));
    assertEquals(await versionStatistics(state, "cities", 2), texts[0], "from memory");
    assertEquals(state.engine.uses, once);

    const fresh = make();
    assertEquals(await versionStatistics(fresh, "cities", 1), JSON.stringify(v1), "from the kept file");
    assertEquals(fresh.engine.uses, 0);
  });
});

Deno.test("statistics service: a read-only node keeps its answers in memory only", async () => {
  await withState(async (make, root) => {
    const state = make(true);
    const text = await versionStatistics(state, "cities", 2);
    const uses = state.engine.uses;
    assertEquals(await versionStatistics(state, "cities", 2), text);
    assertEquals(state.engine.uses, uses);
    assertEquals(await readdir(join(root, "cities", "v2")), ["manifest.json"]);
  });
});

Deno.test("statistics service: a statistics file that cannot be written: the answer still comes, with a warning", async () => {
  await withState(async (make, root, warnings) => {
    const folder = join(root, "cities", "v2");
    await mkdir(join(folder, "statistics.json")); // a folder in the file's place: not read, not replaced
    assertEquals(JSON.parse(await versionStatistics(make(), "cities", 2)).records, 600);
    assertEquals((await readdir(folder)).sort(), ["manifest.json", "statistics.json"], "no temporary file left");
    assert(warnings.some((w) => /^warning: could not keep the statistics of cities v2: /.test(w)), warnings.join());
  });
});

Deno.test("statistics service: unknown project or version, and a failing computation that is not kept", async () => {
  await withState(async (make, root) => {
    const state = make();
    await assertRejects(() => versionStatistics(state, "nowhere", null), /project "nowhere" not found on this node/);
    await assertRejects(() => versionStatistics(state, "cities", 7), /version 7 is not on this node/);
    const broken = { ...state, engine: { ...state.engine, use: () => Promise.reject(new Error("engine down")) } };
    await assertRejects(() => versionStatistics(broken, "cities", 2), /engine down/);
    assertEquals(await readdir(join(root, "cities", "v2")), ["manifest.json"]);
    const text = await versionStatistics(state, "cities", 2);
    assertEquals(
      JSON.parse(await readFile(join(root, "cities", "v2", "statistics.json"), "utf8")).statistics.records,
      600,
    );
    assertEquals(JSON.parse(text).records, 600, "computed afresh once the engine works");
  });
});
