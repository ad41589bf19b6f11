/**
 * Parts' footers kept on disk (issue 47): the first reader reads them from
 * the parts once and keeps a file per part beside `parts/`; a later reader
 * (another node) reads those files and asks DuckDB nothing; the statistics
 * and columns are the same; a torn file is read from the part again; a
 * read-only node writes nothing; files of parts gone are swept.
 *
 * @module
 */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openReadEngine } from "../../src/parquet/mod.ts";
import { footerReader, keptFooters } from "../../src/sharing/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { assertEquals } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import { counting } from "../support/counting_engine.ts";

Deno.test("footers read once are kept per part, and another node reads them without asking DuckDB", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    const part = (p: number) => ({ sql: `SELECT (${p} * 10 + i)::BIGINT AS id, 'n' || i AS name FROM range(10) r(i)` });
    await w.version("tiny", 1, { parts: [part(0), part(1), part(2)] });
    w.close();
    const engine = counting(await openReadEngine(dir.path));
    try {
      const version = (await openStore(dir.path).version("tiny", 1))!;
      const paths = version.parts.map((p) => p.path);
      const warn = () => {};
      const kept = keptFooters({ readOnly: false, warn });
      const first = footerReader(engine, kept);
      const columns = await first.columns("tiny@1", paths);
      const stats = await Promise.all(first.statsOf(version.parts, columns));
      assertEquals(stats.map((s) => [s.numRecords, s.minValues.id, s.maxValues.id]), [[10, 0, 9], [10, 10, 19], [
        10,
        20,
        29,
      ]]);
      const folder = join(dir.path, "tiny", "footers");
      await kept.settle();
      assertEquals((await readdir(folder)).length, 3, "a file a part");
      const uses = engine.uses;
      const later = footerReader(engine, keptFooters({ readOnly: false, warn }));
      assertEquals(await later.columns("tiny@1", paths), columns);
      assertEquals(await Promise.all(later.statsOf(version.parts, columns)), stats);
      assertEquals(engine.uses, uses, "nothing asked of DuckDB");
      // A torn file is read from the part again; a read-only node reads what is kept and writes nothing.
      await writeFile(join(folder, `${version.parts[2].sha256}.json`), '{"format":"svc-foo');
      const readOnly = footerReader(engine, keptFooters({ readOnly: true, warn }));
      assertEquals(await Promise.all(readOnly.statsOf(version.parts, columns)), stats);
      assertEquals(engine.uses, uses + 1, "the torn one only");
      // A file of a part gone (pruned) is swept when a node first writes the folder.
      await writeFile(join(folder, `${"0".repeat(64)}.json`), "{}");
      const sweeping = keptFooters({ readOnly: false, warn });
      await Promise.all(footerReader(engine, sweeping).statsOf(version.parts, columns));
      await sweeping.settle();
      assertEquals((await readdir(folder)).sort(), version.parts.map((p) => `${p.sha256}.json`).sort());
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});
