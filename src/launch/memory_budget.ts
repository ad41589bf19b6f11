/**
 * The node's memory budget as far as its launchers need it before the node
 * starts (`svc serve` narrowing itself, the container's entrypoint): sizes
 * as written on the command line, the default budget, and the young
 * generation of V8's heap that a budget allows, which can only be set when
 * a process starts. `settings/memory.ts` carves the rest.
 *
 * @module
 */

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** The smallest budget a node runs in: its runtimes, two SQL workers and a working margin. */
export const MIN_MEMORY_BUDGET = 256 * MIB;

/** Where a budget came from: `flag` (`--memory`/`SVC_NODE_MEMORY`), `cgroup` (a share of the container's limit), `machine`. */
export type BudgetSource = "flag" | "cgroup" | "machine";

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1000,
  kb: 1000,
  kib: 1024,
  m: 1000 ** 2,
  mb: 1000 ** 2,
  mib: MIB,
  g: 1000 ** 3,
  gb: 1000 ** 3,
  gib: GIB,
  t: 1000 ** 4,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
};

/**
 * Bytes of a size written `2GiB`, `1500MB`, `512m`, `1.5 GB`; null when it is
 * not a size.
 *
 * @example
 * ```ts
 * import { parseBytes } from "./memory_budget.ts";
 * parseBytes("2GiB"); // 2147483648
 * parseBytes("lots"); // null
 * ```
 */
export function parseBytes(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return null;
  const unit = UNITS[m[2].toLowerCase()];
  if (unit === undefined) return null;
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/**
 * The default budget: three quarters of the cgroup's limit when there is
 * one (the rest is the kernel's and the container's other processes'), else a
 * quarter of the machine's memory; never below {@linkcode MIN_MEMORY_BUDGET}.
 *
 * @example
 * ```ts
 * import { defaultMemoryBudget } from "./memory_budget.ts";
 * defaultMemoryBudget(512 * 1024 ** 2, 24 * 1024 ** 3); // { bytes: 402653184, source: "cgroup" }
 * ```
 */
export function defaultMemoryBudget(
  cgroupLimit: number | null,
  machine: number,
): { bytes: number; source: BudgetSource } {
  if (cgroupLimit !== null && cgroupLimit < machine) {
    return { bytes: Math.max(MIN_MEMORY_BUDGET, Math.floor(cgroupLimit * 0.75)), source: "cgroup" };
  }
  return { bytes: Math.max(MIN_MEMORY_BUDGET, Math.floor(machine / 4)), source: "machine" };
}

/**
 * The budget `raw` (`--memory` or `SVC_NODE_MEMORY`, null when neither is
 * given) names, else the default; null when `raw` is not a size of at least
 * {@linkcode MIN_MEMORY_BUDGET} (the node says so when it starts).
 *
 * @example
 * ```ts
 * import { memoryBudget } from "./memory_budget.ts";
 * memoryBudget("512MiB", null, 24 * 1024 ** 3); // { bytes: 536870912, source: "flag" }
 * memoryBudget(null, 512 * 1024 ** 2, 24 * 1024 ** 3); // { bytes: 402653184, source: "cgroup" }
 * memoryBudget("lots", null, 24 * 1024 ** 3); // null
 * ```
 */
export function memoryBudget(
  raw: string | null,
  cgroupLimit: number | null,
  machine: number,
): { bytes: number; source: BudgetSource } | null {
  if (raw === null) return defaultMemoryBudget(cgroupLimit, machine);
  const bytes = parseBytes(raw);
  return bytes === null || bytes < MIN_MEMORY_BUDGET ? null : { bytes, source: "flag" };
}

/** Budgets from this size up leave V8's young generation at its own size. */
const OWN_YOUNG_GENERATION_FROM = 4 * GIB;

/**
 * The size of each of the two semi-spaces of V8's young generation for the
 * node and its SQL workers under `budget`, or null for V8's own (budgets of
 * 4 GiB and more). V8 sizes its young generation from the machine, not from
 * a budget: 32 MiB semi-spaces here, whose garbage between scavenges was a
 * fifth of a 512 MiB node's peak. A 32nd of the budget, 1 to 16 MiB: at a
 * 128th (4 MiB for 512 MiB) a fast machine's node scavenged 2,200 times in
 * 30 s of mixed load, 14% of its thread, and served a fifth less while
 * peaking higher (docs/benchmarks.md, "memory").
 *
 * @example
 * ```ts
 * import { semiSpace } from "./memory_budget.ts";
 * semiSpace(512 * 1024 ** 2); // 16777216
 * semiSpace(8 * 1024 ** 3); // null
 * ```
 */
export function semiSpace(budget: number): number | null {
  if (budget >= OWN_YOUNG_GENERATION_FROM) return null;
  return Math.min(16, Math.max(1, Math.floor(budget / 32 / MIB))) * MIB;
}

/**
 * V8's flag for a semi-space of `bytes` (whole MiB), or none for V8's own
 * size: Deno takes it in `--v8-flags=`, Node as it is.
 *
 * @example
 * ```ts
 * import { semiSpaceFlags } from "./memory_budget.ts";
 * semiSpaceFlags(16 * 1024 ** 2); // ["--max-semi-space-size=16"]
 * semiSpaceFlags(null); // []
 * ```
 */
export function semiSpaceFlags(bytes: number | null): string[] {
  return bytes === null ? [] : [sizeFlag("--max-semi-space-size", bytes)];
}

/** A V8 size flag, which V8 takes in whole MiB (at least 1). */
function sizeFlag(name: string, bytes: number): string {
  return `${name}=${Math.max(1, Math.round(bytes / MIB))}`;
}

/** The old generation's floor, in semi-spaces of the young generation. */
const OLD_GENERATION_FLOOR_SEMI_SPACES = 4;

/**
 * The floor of the node's old generation for a young generation of `young`
 * bytes a semi-space: four semi-spaces (64 MiB for a 512 MiB budget, an
 * eighth), or none for V8's own heap. V8 skips full collections while its
 * old generation is below it (`--initial-old-space-size`); it commits no
 * memory. Without it, the idle trim's collection left V8's limits at the
 * few MiB that outlive requests: under load after an idle spell a 512 MiB
 * node ran 2.4 full collections a second against 0.9 before it, and whole
 * rounds fell to 0.77-0.92x of a twin that had not idled; with it, 1.1
 * against 0.75 (docs/benchmarks.md, "budget").
 *
 * @example
 * ```ts
 * import { oldGenerationFloorFlags } from "./memory_budget.ts";
 * oldGenerationFloorFlags(16 * 1024 ** 2); // ["--initial-old-space-size=64"]
 * oldGenerationFloorFlags(null); // []
 * ```
 */
export function oldGenerationFloorFlags(young: number | null): string[] {
  return young === null ? [] : [sizeFlag("--initial-old-space-size", OLD_GENERATION_FLOOR_SEMI_SPACES * young)];
}

/**
 * V8's flags for the node's own heap: the young generation
 * {@linkcode semiSpace} gave its budget, the old generation's floor
 * ({@linkcode oldGenerationFloorFlags}), and V8's memory reducer off. The
 * reducer collects a node idle for about ten seconds and lowers its heap's
 * limits, and the first seconds of load after every idle spell then cost a
 * fifth to a third more CPU a page while V8 collects its way back up
 * (docs/benchmarks.md, "budget"). The idle trim does its work instead: it
 * collects a node holding more than an eighth of its budget and hands the
 * allocators' free memory back, and below that share what the reducer would
 * hand back does not matter to the budget. The SQL workers keep it
 * ({@linkcode semiSpaceFlags}): they run no such trim.
 *
 * @example
 * ```ts
 * import { nodeHeapFlags } from "./memory_budget.ts";
 * nodeHeapFlags(16 * 1024 ** 2); // ["--max-semi-space-size=16", "--initial-old-space-size=64", "--no-memory-reducer"]
 * nodeHeapFlags(null); // ["--no-memory-reducer"]
 * ```
 */
export function nodeHeapFlags(young: number | null): string[] {
  return [...semiSpaceFlags(young), ...oldGenerationFloorFlags(young), "--no-memory-reducer"];
}
