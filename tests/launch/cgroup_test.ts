import { assertEquals } from "../support/assert.ts";
import {
  cgroupMemoryLimitWith,
  cgroupOomKillsWith,
  RETURNING_MALLOC_ENV,
  returningMalloc,
} from "../../src/launch/mod.ts";

/** A reader over a fake filesystem. */
function files(tree: Record<string, string>): (path: string) => string | null {
  return (path) => tree[path] ?? null;
}

Deno.test("cgroup v2: the limit and OOM kills of the process's own group, or of a namespace's root", () => {
  const host = files({
    "/proc/self/cgroup": "0::/system.slice/svc.service\n",
    "/sys/fs/cgroup/system.slice/svc.service/memory.max": "536870912\n",
    "/sys/fs/cgroup/system.slice/svc.service/memory.events": "low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\n",
  });
  assertEquals([cgroupMemoryLimitWith(host), cgroupOomKillsWith(host)], [536870912, 2]);
  const container = files({ "/proc/self/cgroup": "0::/\n", "/sys/fs/cgroup/memory.max": "268435456\n" });
  assertEquals(cgroupMemoryLimitWith(container), 268435456);
  const unlimited = files({ "/proc/self/cgroup": "0::/\n", "/sys/fs/cgroup/memory.max": "max\n" });
  assertEquals(cgroupMemoryLimitWith(unlimited), null);
});

Deno.test("cgroup v1: the memory controller's group; its 'no limit' (2^63 page-rounded) is none", () => {
  const v1 = files({
    "/proc/self/cgroup": "12:cpu,cpuacct:/a\n9:memory:/user.slice/job\n",
    "/sys/fs/cgroup/memory/user.slice/job/memory.limit_in_bytes": "1073741824\n",
    "/sys/fs/cgroup/memory/user.slice/job/memory.oom_control": "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n",
  });
  assertEquals([cgroupMemoryLimitWith(v1), cgroupOomKillsWith(v1)], [1073741824, 0]);
  const none = files({
    "/proc/self/cgroup": "9:memory:/\n",
    "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
  });
  assertEquals(cgroupMemoryLimitWith(none), null);
});

Deno.test("no cgroup file to read is no limit, never an error", () => {
  assertEquals([cgroupMemoryLimitWith(files({})), cgroupOomKillsWith(files({}))], [null, null]);
  const garbled = files({ "/proc/self/cgroup": "0::/\n", "/sys/fs/cgroup/memory.max": "lots\n" });
  assertEquals(cgroupMemoryLimitWith(garbled), null);
});

Deno.test("the allocator settings svc gives its processes leave the operator's own alone", () => {
  assertEquals(returningMalloc({}), { ...RETURNING_MALLOC_ENV });
  const mine = returningMalloc({ MALLOC_ARENA_MAX: "8" });
  assertEquals(mine.MALLOC_ARENA_MAX, undefined);
  assertEquals(Object.keys(mine).sort(), ["MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"]);
});

Deno.test("where /proc/self/cgroup may not be read, the mounted root is the group (a container's own)", () => {
  const v1 = files({ "/sys/fs/cgroup/memory/memory.limit_in_bytes": "536870912\n" });
  assertEquals(cgroupMemoryLimitWith(v1), 536870912);
  const v2 = files({ "/sys/fs/cgroup/memory.max": "268435456\n", "/sys/fs/cgroup/memory.events": "oom_kill 1\n" });
  assertEquals([cgroupMemoryLimitWith(v2), cgroupOomKillsWith(v2)], [268435456, 1]);
});
