import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import { runCodec } from "../../src/parquet/_run_codec.ts";

const encoder = new TextEncoder();
const records = (n: number, from = 0) =>
  encoder.encode(
    Array.from({ length: n }, (_, i) => JSON.stringify({ id: from + i, name: `city-${from + i}` })).join(","),
  );

Deno.test("Deno's zstd decompresses runs with one kept native decompressor", () => {
  const codec = runCodec();
  assertEquals(codec.name, "zstd");
  assert(codec.kept, "the kept decompressor failed its check at load: runs go through zstdDecompressSync");
});

Deno.test("a run is decompressed into its place, its neighbours left as they were", () => {
  const codec = runCodec();
  const runs = [records(128), records(128, 128), records(3, 256)];
  const out = new Uint8Array(runs.reduce((n, r) => n + r.length, 0) + 2).fill(7);
  let at = 1;
  for (const run of runs) {
    codec.decompressInto(codec.compress(run), out, at, run.length);
    at += run.length;
  }
  assertEquals(out[0], 7);
  assertEquals(out[out.length - 1], 7);
  assertEquals(out.subarray(1, -1), Uint8Array.from(runs.flatMap((r) => [...r])));
});

Deno.test("a run of another size or a corrupt one throws, and the next run decompresses right", () => {
  const codec = runCodec();
  const run = records(200);
  const frame = codec.compress(run);
  assertThrows(
    () => codec.decompressInto(frame, new Uint8Array(run.length + 5), 0, run.length + 5),
    /held \d+ bytes, not/,
  );
  assertThrows(
    () => codec.decompressInto(frame, new Uint8Array(run.length - 5), 0, run.length - 5),
    /held \d+ bytes, not/,
  );
  const corrupt = Uint8Array.from(frame); // a Buffer's slice() is a view of it
  for (let i = 6; i < corrupt.length; i += 3) corrupt[i] ^= 0x5a;
  assertThrows(() => codec.decompressInto(corrupt, new Uint8Array(run.length), 0, run.length));
  const out = new Uint8Array(run.length);
  codec.decompressInto(frame, out, 0, run.length);
  assertEquals(out, run);
});

Deno.test("a run's first bytes alone are decompressed into their place; the next run is whole again", () => {
  const codec = runCodec();
  const run = records(128);
  const frame = codec.compress(run);
  for (const prefix of [1, 100, run.length >> 1, run.length - 1, run.length]) {
    const out = new Uint8Array(run.length + 2).fill(7);
    codec.decompressInto(frame, out, 1, run.length, prefix);
    assertEquals(out.subarray(1, 1 + prefix), run.subarray(0, prefix), `prefix ${prefix}`);
    assert(out.subarray(1 + prefix).every((b) => b === 7), `nothing written past a prefix of ${prefix}`);
    assertEquals(out[0], 7);
    const whole = new Uint8Array(run.length);
    codec.decompressInto(frame, whole, 0, run.length);
    assertEquals(whole, run, `the run after a prefix of ${prefix}`);
  }
  // A frame shorter than the prefix asked for is no prefix of it.
  const short = codec.compress(records(3));
  assertThrows(
    () => codec.decompressInto(short, new Uint8Array(run.length), 0, run.length, 200),
    /held \d+ bytes, not/,
  );
});
