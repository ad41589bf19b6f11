import { assertEquals } from "../support/assert.ts";
import {
  defaultMemoryBudget,
  memoryBudget,
  MIN_MEMORY_BUDGET,
  nodeHeapFlags,
  oldGenerationFloorFlags,
  semiSpace,
  semiSpaceFlags,
} from "../../src/launch/mod.ts";

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

Deno.test("the default budget is three quarters of a cgroup's limit, else a quarter of the machine, at least 256 MiB", () => {
  assertEquals(defaultMemoryBudget(512 * MIB, 24 * GIB), { bytes: 384 * MIB, source: "cgroup" });
  assertEquals(defaultMemoryBudget(null, 24 * GIB), { bytes: 6 * GIB, source: "machine" });
  // A limit above the machine's memory is no limit at all.
  assertEquals(defaultMemoryBudget(64 * GIB, 24 * GIB), { bytes: 6 * GIB, source: "machine" });
  assertEquals(defaultMemoryBudget(200 * MIB, 24 * GIB).bytes, MIN_MEMORY_BUDGET);
  assertEquals(defaultMemoryBudget(null, 512 * MIB).bytes, MIN_MEMORY_BUDGET);
});

Deno.test("a budget is the flag's size when given, else the default; a bad or small size is none", () => {
  assertEquals(memoryBudget("512MiB", 128 * MIB, 24 * GIB), { bytes: 512 * MIB, source: "flag" });
  assertEquals(memoryBudget("2GiB", null, 24 * GIB), { bytes: 2 * GIB, source: "flag" });
  assertEquals(memoryBudget(null, GIB, 24 * GIB), { bytes: 768 * MIB, source: "cgroup" });
  assertEquals(memoryBudget(null, null, 24 * GIB), { bytes: 6 * GIB, source: "machine" });
  for (const bad of ["lots", "-1", "0", "100MiB", ""]) assertEquals(memoryBudget(bad, null, 24 * GIB), null, bad);
});

Deno.test("the young generation is a 32nd of a budget under 4 GiB, 1 to 16 MiB; V8's own from 4 GiB", () => {
  assertEquals(semiSpace(32 * MIB), MIB);
  assertEquals(semiSpace(256 * MIB), 8 * MIB);
  assertEquals(semiSpace(384 * MIB), 12 * MIB);
  assertEquals(semiSpace(512 * MIB), 16 * MIB);
  assertEquals(semiSpace(GIB), 16 * MIB);
  assertEquals(semiSpace(3 * GIB), 16 * MIB);
  assertEquals(semiSpace(4 * GIB), null);
  assertEquals(semiSpaceFlags(3 * MIB), ["--max-semi-space-size=3"]);
  assertEquals(semiSpaceFlags(null), []);
});

Deno.test("the node's heap: the budget's young generation, an old generation floored at four semi-spaces (V8's own heap from 4 GiB), and V8's memory reducer off", () => {
  assertEquals(nodeHeapFlags(semiSpace(512 * MIB)), [
    "--max-semi-space-size=16",
    "--initial-old-space-size=64",
    "--no-memory-reducer",
  ]);
  assertEquals(nodeHeapFlags(semiSpace(256 * MIB)), [
    "--max-semi-space-size=8",
    "--initial-old-space-size=32",
    "--no-memory-reducer",
  ]);
  assertEquals(oldGenerationFloorFlags(MIB / 2), ["--initial-old-space-size=2"]);
  assertEquals(oldGenerationFloorFlags(null), []);
  assertEquals(nodeHeapFlags(semiSpace(4 * GIB)), ["--no-memory-reducer"]);
});
