import { spawn } from "node:child_process";
import { deathFailure, diedOfMemory, watchStderr } from "../../src/sql/_worker_death.ts";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";

async function dying(script: string): Promise<{ signal: string | null; stderr: string; said: string[] }> {
  const child = spawn("/bin/sh", ["-c", script], { stdio: ["ignore", "ignore", "pipe"] });
  const said: string[] = [];
  const tail = watchStderr(child, (m) => said.push(m));
  const signal = await new Promise<string | null>((resolve) => child.once("exit", (_c, s) => resolve(s)));
  await tail.ended;
  return { signal, stderr: tail.text(), said };
}

Deno.test("a worker that says it ran out of memory as it dies ran out of memory", async () => {
  const rust = await dying('echo "memory allocation of 1048576 bytes failed" >&2; kill -ABRT $$');
  assertEquals(rust.signal, "SIGABRT");
  assert(diedOfMemory(rust.signal, rust.stderr, false), rust.stderr);
  assertEquals(rust.said.length, 1);
  assertMatch(rust.said[0], /^SQL worker \d+: memory allocation of 1048576 bytes failed$/);
  for (
    const words of [
      "# Fatal process out of memory: Zone",
      "terminate called after throwing an instance of 'std::bad_alloc'",
      // A thread's stack counts in the worker's RLIMIT_DATA: at the ceiling, the runtime's next thread cannot start.
      "Deno could not start: unable to create worker threads.",
      "thread 'main' panicked at library/std/src/thread/mod.rs: failed to spawn thread: Os { code: 11 }",
    ]
  ) {
    const v8 = await dying(`echo "${words}" >&2; kill -TRAP $$`);
    assert(diedOfMemory(v8.signal, v8.stderr, false), words);
  }
});

Deno.test("a worker killed or crashed without a word about memory did not run out of it", async () => {
  const killed = await dying("echo 'working' >&2; kill -KILL $$");
  assertEquals(killed.signal, "SIGKILL");
  assert(!diedOfMemory(killed.signal, killed.stderr, false), "someone killed it");
  assert(diedOfMemory(killed.signal, killed.stderr, true), "the OOM killer counted a kill meanwhile");
  const crashed = await dying("echo 'Segmentation fault' >&2; kill -SEGV $$");
  assert(!diedOfMemory(crashed.signal, crashed.stderr, true), "a crash is not a kill");
  const quiet = await dying("exit 3");
  assertEquals(quiet.stderr, "");
  assertEquals(quiet.said, [], "blank and absent lines are not logged");
});

Deno.test("only the last few kilobytes of a worker's stderr are kept", async () => {
  const long = await dying(
    "i=0; while [ $i -lt 300 ]; do echo 'line of forty characters, give or take..' >&2; i=$((i+1)); done; echo 'out of memory' >&2",
  );
  assert(long.stderr.length <= 4096, String(long.stderr.length));
  assert(long.stderr.endsWith("out of memory\n"));
  assertEquals(long.said.length, 301);
});

Deno.test("a death of memory is the query's 400; any other death is the node's 500", () => {
  const memory = deathFailure(true, "1024 MiB");
  assertEquals(memory.status, 400);
  assertMatch(memory.error, /^Out of Memory: .*1024 MiB/);
  const other = deathFailure(false, "1024 MiB");
  assertEquals(other.status, 500);
  assertMatch(other.error, /stopped while running this query/);
});
