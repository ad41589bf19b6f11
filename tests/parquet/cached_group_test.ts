import { assert, assertEquals } from "../support/assert.ts";
import { cachedGroup, COMPRESSED_RUN } from "../../src/parquet/cached_group.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Records with wide characters and line separators, of varied lengths. */
function sampleRecords(n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => JSON.stringify({ id: i, name: `city-${i}`, note: i % 7 === 0 ? "é😀\u2028".repeat(i % 5) : null }),
  );
}

for (const compressed of [false, true]) {
  Deno.test(`a ${compressed ? "compressed" : "plain"} block gives back any range of its records, across runs`, () => {
    const records = sampleRecords(COMPRESSED_RUN * 3 + 17);
    const group = cachedGroup(records, { compressed });
    assertEquals(group.count, records.length);
    const edges = [
      0,
      1,
      99,
      COMPRESSED_RUN - 1,
      COMPRESSED_RUN,
      COMPRESSED_RUN + 1,
      2 * COMPRESSED_RUN + 5,
      records.length,
    ];
    for (const a of edges) {
      for (const b of edges) {
        if (b < a) continue;
        assertEquals(decode(group.bytes(a, b)), records.slice(a, b).join(","), `bytes ${a}..${b}`);
        const out = new Uint8Array(group.byteLength(a, b) + 4).fill(7);
        group.writeInto(a, b, out, 2);
        assertEquals(decode(out.subarray(2, -2)), records.slice(a, b).join(","), `written ${a}..${b}`);
        assertEquals([...out.subarray(0, 2), ...out.subarray(-2)], [7, 7, 7, 7], `around ${a}..${b}`);
        assertEquals(group.records(a, b), records.slice(a, b), `records ${a}..${b}`);
      }
    }
  });
}

Deno.test("a compressed block made plain again holds the same records, in a block of its own", () => {
  const records = sampleRecords(COMPRESSED_RUN * 2 + 9);
  const compressed = cachedGroup(records, { compressed: true });
  const plain = compressed.decompress();
  assertEquals(plain.compressed, false);
  assertEquals(plain.size, cachedGroup(records).size);
  assertEquals(decode(plain.bytes(0, plain.count)), records.join(","));
  assertEquals(
    plain.records(COMPRESSED_RUN - 1, COMPRESSED_RUN + 2),
    records.slice(COMPRESSED_RUN - 1, COMPRESSED_RUN + 2),
  );
  assertEquals(cachedGroup([], { compressed: true }).decompress().count, 0);
});

Deno.test("a compressed block holds under a fifth of a plain one's bytes; tiny and empty blocks work", () => {
  const records = sampleRecords(10_240);
  const plain = cachedGroup(records);
  const compressed = cachedGroup(records, { compressed: true });
  // Brotli at quality 1 keeps these at 5.5x; deflate at level 1 (until November 2026) at 3.9x.
  assert(compressed.size * 5 < plain.size, `${compressed.size} vs ${plain.size}`);
  assert(plain.size > records.join(",").length, "a plain block counts its bytes and its offsets");
  assertEquals(decode(cachedGroup(['{"id":1}'], { compressed: true }).bytes(0, 1)), '{"id":1}');
  const empty = cachedGroup([], { compressed: true });
  assertEquals([empty.count, empty.bytes(0, 0).length, empty.records(0, 0)], [0, 0, []]);
});

for (const compressed of [false, true]) {
  const kind = compressed ? "compressed" : "plain";
  Deno.test(`a ${kind} block holds the bytes its size says, once (nothing of its making kept beside them)`, async () => {
    // Measured in a process of its own, where a full collection can be forced and nothing else allocates.
    const code = `
    import { cachedGroup } from ${JSON.stringify(new URL("../../src/parquet/cached_group.ts", import.meta.url).href)};
    const records = Array.from({ length: 10240 }, (_, i) => JSON.stringify({ id: i, name: "city-" + i, score: (i * 7919) % 1000 }));
    // Freed buffers leave the count once the collector's sweeper has run: two collections and a turn of the loop.
    const settled = async () => { gc(); gc(); await new Promise((r) => setTimeout(r, 50)); gc(); return Deno.memoryUsage().external; };
    cachedGroup(records.slice(0, 300), { compressed: true }); // what the codec keeps for good, made before counting
    const before = await settled();
    const kept = Array.from({ length: 30 }, () => cachedGroup(records, { compressed: ${compressed} }));
    const after = await settled();
    console.log(JSON.stringify({ held: after - before, size: kept.reduce((n, g) => n + g.size, 0) }));
  `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--v8-flags=--expose-gc", code],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert(out.success, "the measuring process failed");
    const { held, size } = JSON.parse(new TextDecoder().decode(out.stdout));
    assert(size > 30 * 20_000, `30 blocks of ${size} bytes`);
    assert(held < size * 1.1, `30 ${kind} blocks hold ${held} bytes of buffers; their sizes add up to ${size}`);
  });
}
