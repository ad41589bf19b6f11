/**
 * `deno task test`: the preparation (`test_prepare.ts`), then every test
 * run in turn, each run whatever the one before it did: the suite
 * (`test:suite`), the documentation's examples (`test:examples`) and the
 * fleet (`test:fleet`). Each prints its own summary line (`ok | N passed |
 * N failed`, which CI adds up); a last line says how each run ended, and the
 * exit code is 1 when any failed (130 when interrupted, and no run starts
 * after Ctrl-C). Programs the tests run that apt put outside PATH
 * (`/usr/sbin`) are put on the runs' PATH.
 *
 * ```sh
 * deno task test
 * ```
 *
 * @module
 */
import process from "node:process";
import { prepareTests, SUITE_MINUTES } from "./test_prepare.ts";

/** The runs of the task, in order: a name and the `deno task` that runs it. */
export const RUNS: readonly { name: string; task: string }[] = [
  { name: "suite", task: "test:suite" },
  { name: "examples", task: "test:examples" },
  { name: "fleet", task: "test:fleet" },
];

/** How one run ended. */
export interface RunResult {
  /** The run's name. */
  name: string;
  /** Its exit code (null when it was not run). */
  code: number | null;
  /** Milliseconds it took. */
  ms: number;
}

/**
 * The last line of the task: how each run ended.
 *
 * @example
 * ```ts
 * import { summaryLine } from "./test_all.ts";
 * summaryLine([{ name: "suite", code: 1, ms: 61_000 }, { name: "fleet", code: 0, ms: 2_000 }]);
 * // "test: suite FAILED (exit 1, 1m1s), fleet ok (2s)"
 * ```
 */
export function summaryLine(results: RunResult[]): string {
  const took = (ms: number) => {
    const s = Math.round(ms / 1000);
    return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
  };
  return "test: " +
    results.map((r) =>
      r.code === null
        ? `${r.name} not run`
        : r.code === 0
        ? `${r.name} ok (${took(r.ms)})`
        : `${r.name} FAILED (exit ${r.code}, ${took(r.ms)})`
    ).join(", ");
}

/**
 * Runs `runs` in turn (`deno task NAME` in `cwd`), each whatever the one
 * before it did; after `stopped()` turns true, the runs left are not run.
 *
 * @example
 * ```ts ignore
 * import { RUNS, runTasks } from "./test_all.ts";
 * const results = await runTasks(RUNS, { env: Deno.env.toObject() });
 * ```
 */
export async function runTasks(
  runs: readonly { name: string; task: string }[],
  options: { cwd?: string; env?: Record<string, string>; stopped?: () => boolean } = {},
): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (const run of runs) {
    if (options.stopped?.()) {
      results.push({ name: run.name, code: null, ms: 0 });
      continue;
    }
    const started = performance.now();
    const child = new Deno.Command(Deno.execPath(), { args: ["task", run.task], cwd: options.cwd, env: options.env });
    const status = await child.spawn().status;
    results.push({ name: run.name, code: status.code, ms: performance.now() - started });
  }
  return results;
}

/** The lock files' texts now, by name. */
async function lockTexts(): Promise<Map<string, string>> {
  const root = new URL("../", import.meta.url);
  const names = ["deno.lock", "deno.dev.lock"];
  return new Map(await Promise.all(names.map(async (n) => [n, await Deno.readTextFile(new URL(n, root))] as const)));
}

/**
 * The lock files whose text differs between `before` and `after`: a test
 * run must leave the tracked files as it found them.
 *
 * @example
 * ```ts
 * import { changedLocks } from "./test_all.ts";
 * changedLocks(new Map([["deno.lock", "a"]]), new Map([["deno.lock", "b"]])); // ["deno.lock"]
 * ```
 */
export function changedLocks(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before].filter(([name, text]) => after.get(name) !== text).map(([name]) => name);
}

async function main(): Promise<number> {
  process.stderr.write(
    `test: the whole task takes about ${SUITE_MINUTES} minutes on 2 cores (the suite's files in parallel, then the examples, then the fleet)\n`,
  );
  const { problems, pathAdditions } = await prepareTests();
  for (const problem of problems) process.stderr.write(`error: ${problem}\n`);
  if (problems.length > 0) return 1;
  const env = { ...process.env } as Record<string, string>;
  if (pathAdditions.length > 0) {
    process.stderr.write(`test: ${pathAdditions.join(", ")} (where apt put programs the tests run) added to PATH\n`);
    env.PATH = [env.PATH ?? "", ...pathAdditions].filter((p) => p !== "").join(":");
  }
  let interrupted = false;
  Deno.addSignalListener("SIGINT", () => interrupted = true);
  const locks = await lockTexts();
  const results = await runTasks(RUNS, { env, stopped: () => interrupted });
  process.stderr.write(`${summaryLine(results)}\n`);
  if (interrupted) return 130;
  const changed = changedLocks(locks, await lockTexts());
  for (const name of changed) {
    process.stderr.write(`error: the tests rewrote ${name} (a deno process ran under it with another configuration)\n`);
  }
  return results.every((r) => r.code === 0) && changed.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
