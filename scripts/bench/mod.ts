/**
 * The benchmark harness: `deno task bench` runs every benchmark listed here,
 * `deno task bench data_pages` only the ones named. Bench data lives under
 * `bench-data/` (git-ignored) and is reused between runs.
 *
 * Benchmarks print ratios against a reference measured in the same run and
 * PASS/MISS per target; they exit 0 either way (a crash exits 1, an unknown
 * name 2).
 *
 * @module
 */
import { type Benchmark, processTreeRss, repeatUntilStopped } from "./_util.ts";

/** Every benchmark, by name, loaded only when it runs. */
export const BENCHMARKS: Readonly<Record<string, () => Promise<Benchmark>>> = {
  data_pages: async () => (await import("./data_pages.ts")).benchmark,
  page_cache: async () => (await import("./page_cache.ts")).benchmark,
  budget: async () => (await import("./budget.ts")).benchmark,
  sql_queries: async () => (await import("./sql_queries.ts")).benchmark,
  export: async () => (await import("./export.ts")).benchmark,
  downloads: async () => (await import("./downloads.ts")).benchmark,
  contribute: async () => (await import("./contribute.ts")).benchmark,
  mcp: async () => (await import("./mcp.ts")).benchmark,
  pull: async () => (await import("./pull.ts")).benchmark,
  push: async () => (await import("./push.ts")).benchmark,
  promote: async () => (await import("./promote.ts")).benchmark,
  follow: async () => (await import("./follow.ts")).benchmark,
  disk_growth: async () => (await import("./disk_growth.ts")).benchmark,
  summary_scale: async () => (await import("./summary_scale.ts")).benchmark,
  healthz: async () => (await import("./healthz.ts")).benchmark,
  delta_sharing: async () => (await import("./delta_sharing.ts")).benchmark,
  spark_sharing: async () => (await import("./spark_sharing.ts")).benchmark,
  metrics: async () => (await import("./metrics.ts")).benchmark,
  explore: async () => (await import("./explore.ts")).benchmark,
  facets: async () => (await import("./facets.ts")).benchmark,
  startup: async () => (await import("./startup.ts")).benchmark,
  memory: async () => (await import("./memory.ts")).benchmark,
  longlife: async () => (await import("./longlife.ts")).benchmark,
  objectstore: async () => (await import("./objectstore.ts")).benchmark,
};

/**
 * Runs the benchmarks named in `args` (all when none) and returns the exit
 * code.
 *
 * @example
 * ```ts ignore
 * Deno.exit(await main(["data_pages"]));
 * ```
 */
export async function main(args: readonly string[]): Promise<number> {
  const names = args.filter((a) => !a.startsWith("-"));
  if (args.includes("-h") || args.includes("--help")) {
    console.log(`usage: deno task bench [name ...]\n\nbenchmarks: ${Object.keys(BENCHMARKS).join(", ")}`);
    return 0;
  }
  const unknown = names.filter((n) => !(n in BENCHMARKS));
  if (unknown.length > 0) {
    console.error(`unknown benchmark ${unknown.join(", ")}; known: ${Object.keys(BENCHMARKS).join(", ")}`);
    return 2;
  }
  const chosen = names.length > 0 ? names : Object.keys(BENCHMARKS);
  let failed = 0;
  for (const name of chosen) {
    const bench = await BENCHMARKS[name]();
    const t0 = performance.now();
    console.log(`\n=== ${bench.name}: ${bench.description}\n`);
    console.log(machineLoad());
    try {
      const sampler = sampleMemory();
      await bench.run();
      console.log(`\n${machineLoad()}`);
      console.log(await memoryLine(await sampler.stop()));
      console.log(`=== ${bench.name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } catch (e) {
      failed++;
      console.error(`\n=== ${bench.name} failed:`, e);
    }
  }
  return failed > 0 ? 1 : 0;
}

/**
 * The resident memory of this process (which runs the benchmark's in-process
 * nodes and references) and of its children (SQL workers, node processes,
 * tools): now, and at each one's peak.
 *
 * @example
 * ```ts ignore
 * console.log(await memoryLine(640 * 1024 ** 2));
 * ```
 */
export async function memoryLine(sampledPeak: number): Promise<string> {
  const mib = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MiB`;
  const [now, own] = [await processTreeRss(Deno.pid), await processTreeRss(Deno.pid, "VmHWM")];
  return `RSS of the benchmark process and its children: ${mib(now)} now; at most ${mib(sampledPeak)} together ` +
    `(sampled every 250 ms); the processes alive now at their own peaks: ${mib(own)}`;
}

/** Samples the RSS of this process and its children every 250 ms until stopped; resolves with the most seen. */
function sampleMemory(): { stop(): Promise<number> } {
  let most = 0;
  const loop = repeatUntilStopped(async () => (most = Math.max(most, await processTreeRss(Deno.pid))), 250);
  return { stop: () => loop.stop().then(() => most) };
}

/**
 * The machine's load: 1/5/15-minute load averages against its cores, with a
 * warning when other work is competing for them.
 *
 * @example
 * ```ts ignore
 * console.log(machineLoad()); // "load average 0.12 0.30 0.25 on 2 cores"
 * ```
 */
export function machineLoad(): string {
  const cores = navigator.hardwareConcurrency;
  const load = Deno.loadavg();
  const text = `load average ${load.map((x) => x.toFixed(2)).join(" ")} on ${cores} cores`;
  return load[0] > cores / 2 ? `${text} (busy machine: absolute figures are noisy, trust the ratios)` : text;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
