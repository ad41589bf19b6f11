import { assert, assertEquals } from "../support/assert.ts";
import { Buffer } from "node:buffer";
import { gunzipSync } from "node:zlib";
import { openReadEngine, pageCache, pageReader } from "../../src/parquet/mod.ts";
import { jsonLines, rangeBlocks } from "../../src/parquet/export.ts";
import { openStore } from "../../src/store/mod.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

const PLAIN = `SELECT * FROM (VALUES
  (1, 'plain', 9007199254740993::BIGINT, 0.1::FLOAT, 0.1::DOUBLE + 0.2, 12345.67::DECIMAL(10,2), true, '{"color":"red"}'),
  (2, 'quote " back \\ nl ' || chr(10) || ' tab ' || chr(9) || ' ctl ' || chr(1) || ' é😀 </script> \u2028', -5::BIGINT, 'nan'::FLOAT, 'inf'::DOUBLE, -0.5::DECIMAL(10,2), false, '{}'),
  (3, NULL, NULL, 3.0::FLOAT, 124.0::DOUBLE, NULL, NULL, NULL),
  (4, '', 0::BIGINT, -0.0::FLOAT, 1e21::DOUBLE, 0::DECIMAL(10,2), NULL, '{"n":{"deep":[1,2]},"big":123456789012345678901}'),
  (5, 'x', (-9223372036854775807 - 1)::BIGINT, 3.4e38::FLOAT, 5e-324::DOUBLE, 99999999.99::DECIMAL(10,2), true, ' {"spaced":1} '),
  (6, 'y', 1::BIGINT, 1e-7::FLOAT, 123456789.123456789::DOUBLE, 0.01::DECIMAL(10,2), false, '[1,2]')
) t(id, s, big, f, d, dec, flag, _extra)`;

Deno.test("the SQL-built export lines are the records data pages give, byte for byte", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("plain", 1, { parts: [{ sql: PLAIN }, { sql: PLAIN.replace("(1, 'plain'", "(7, 'again'") }] });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("plain", 1))!;
      const page = await pageReader(engine).page(version, 0, 1000);
      // The same pages with the page cache on, once its blocks are decoded and held.
      const cache = pageCache(64 * 1024 * 1024);
      const cached = pageReader(engine, { cache });
      for (let round = 0; round < 2; round++) await cached.page(version, 0, 1000);
      await cached.settle();
      assertEquals(await cached.page(version, 0, 1000), page);
      assert(cache.stats().hits > 0, "the last page came from the cache");
      let text = "";
      for await (const bytes of jsonLines(engine, version)) text += new TextDecoder().decode(bytes);
      const lines = text.trimEnd().split("\n");
      assertEquals(lines.length, page.length);
      // Byte for byte: decimals keep their scale, doubles and control characters are written as JavaScript does.
      for (let i = 0; i < lines.length; i++) assertEquals(lines[i], page[i], `record ${i}`);
      // Written as a view's lines are, in ranges across the parts, when the row groups are known: the same bytes.
      const groups = await pageReader(engine).partGroups(version);
      let ranged = "";
      for await (const bytes of jsonLines(engine, version, { groups })) ranged += new TextDecoder().decode(bytes);
      assertEquals(ranged, text);
      assertEquals(lines[0].includes('"big":9007199254740993'), true, "64-bit integers keep every digit");
      assertEquals(lines[0].includes('"f":0.1,'), true, "32-bit floats print without noise");
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("the export gzip is a valid stream of every record, in order across blocks and parts", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("numbers", 1, {
      parts: [
        // At one block of 65,536 a query (as under a small budget), the first part takes three queries, the last
        // ending short; the second, exactly one block, takes a second query that writes nothing.
        { sql: "SELECT range AS id, 'r' || range AS name FROM range(140000)", rowGroupSize: 5000 },
        { sql: "SELECT 140000 + range AS id FROM range(65536)" },
        { sql: "SELECT 205536 AS id" },
      ],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("numbers", 1))!;
      const { gzipJsonLines } = await import("../../src/parquet/export.ts");
      const chunks: Uint8Array[] = [];
      for await (const c of gzipJsonLines(engine, version, { blocks: 1 })) chunks.push(c);
      const all = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.length;
      }
      const lines = new TextDecoder().decode(gunzipSync(all)).trimEnd().split("\n");
      assertEquals(lines.map((l) => JSON.parse(l).id), Array.from({ length: 205537 }, (_, i) => i));
      assertEquals(await Array.fromAsync(Deno.readDir(engine.scratch)), [], "no file of lines stays");
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("the export gzip is within 1.05x of gzip -1's size on the same JSON lines", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("cities", 1, {
      parts: [{
        sql: "SELECT range AS id, 'city-' || range AS name, 'C' || (range % 200) AS country, " +
          "(range * 7919) % 10000000 AS population, round((range * 31) % 1000 / 7, 3) AS score, " +
          "CASE WHEN range % 7 <> 0 THEN 'note ' || (range % 97) END AS note FROM range(200000)",
      }],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("cities", 1))!;
      const { gzipJsonLines } = await import("../../src/parquet/export.ts");
      let ours = 0;
      const gz: Uint8Array[] = [];
      for await (const c of gzipJsonLines(engine, version)) {
        ours += c.byteLength;
        gz.push(c);
      }
      const lines = gunzipSync(Buffer.concat(gz));
      const reference = new Deno.Command("gzip", { args: ["-1", "-c"], stdin: "piped", stdout: "piped" }).spawn();
      // Its output is read while the lines are written: a pipe left unread would stall both sides.
      const answered = reference.output();
      const writer = reference.stdin.getWriter();
      await writer.write(lines);
      await writer.close();
      const theirs = (await answered).stdout.byteLength;
      assert(ours <= theirs * 1.05, `export ${ours} bytes, gzip -1 ${theirs} bytes: ${(ours / theirs).toFixed(2)}x`);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("DuckDB builds eight blocks a query of narrow records, fewer of wide ones, one when the width is unknown", () => {
  assertEquals(rangeBlocks({ bytes: 4_500_000, records: 250_000 }), 8, "18 bytes a record");
  assertEquals(rangeBlocks({ bytes: 25_000_000, records: 250_000 }), 5, "100 bytes a record: 83,886 rows in 8 MiB");
  assertEquals(rangeBlocks({ bytes: 2_500_000_000, records: 250_000 }), 1, "10 KB a record");
  assertEquals(rangeBlocks({ bytes: 4_500_000, records: null }), 1);
});
