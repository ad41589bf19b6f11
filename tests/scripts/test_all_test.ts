/**
 * The test task's runner: every run runs whatever the one before it did,
 * the last line says how each ended, and the task fails when any did.
 *
 * @module
 */
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { changedLocks, RUNS, runTasks, summaryLine } from "../../scripts/test_all.ts";
import { assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { tempDir } from "../support/store_fixture.ts";

Deno.test("a failed run does not stop the next: each runs and is reported, and the summary names the failure", async () => {
  const dir = await tempDir("svc-test-all-");
  try {
    const tasks = { first: "exit 3", second: "echo second ran > second.txt", third: "exit 0" };
    await writeFile(join(dir.path, "deno.json"), JSON.stringify({ tasks }));
    const runs = Object.keys(tasks).map((name) => ({ name, task: name }));
    const results = await runTasks(runs, { cwd: dir.path });
    assertEquals(results.map((r) => [r.name, r.code]), [["first", 3], ["second", 0], ["third", 0]]);
    assertEquals(await Deno.readTextFile(join(dir.path, "second.txt")), "second ran\n");
    assertEquals(
      /^test: first FAILED \(exit 3, \d+s\), second ok \(\d+s\), third ok \(\d+s\)$/.test(summaryLine(results)),
      true,
    );
    const stopped = await runTasks(runs, { cwd: dir.path, stopped: () => true });
    assertEquals(summaryLine(stopped), "test: first not run, second not run, third not run");
  } finally {
    await dir.cleanup();
  }
});

Deno.test("the task runs the suite, the examples and the fleet, each a task of deno.json with the tests' lock", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)) as { tasks: Record<string, string> };
  assertEquals(RUNS.map((r) => r.task), ["test:suite", "test:examples", "test:fleet"]);
  for (const run of RUNS) assertEquals(config.tasks[run.task].includes("--lock=deno.dev.lock"), true, run.task);
  assertEquals(config.tasks.test, "deno run -A --lock=deno.dev.lock scripts/test_all.ts");
});

Deno.test("a lock file the tests rewrote is named; untouched ones are not", () => {
  const before = new Map([["deno.lock", "{}"], ["deno.dev.lock", '{"a":1}']]);
  assertEquals(changedLocks(before, new Map(before)), []);
  assertEquals(changedLocks(before, new Map([["deno.lock", "{}"], ["deno.dev.lock", '{"a":2}']])), ["deno.dev.lock"]);
});
