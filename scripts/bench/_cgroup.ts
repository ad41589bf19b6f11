/**
 * A memory cgroup made for a benchmark (as root; v1 or v2, whichever this
 * machine mounts), with a limit, for commands started in it; and what it saw
 * (OOM kills) when it is removed.
 *
 * @module
 */
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A memory cgroup with a limit. */
export interface MemoryCgroup {
  /** Its folder. */
  dir: string;
  /** `command` with `args`, started inside the cgroup. */
  spawn(command: string, args: string[], options?: { env?: Record<string, string> }): Deno.ChildProcess;
  /** Processes the kernel killed in it for memory so far. */
  oomKills(): Promise<number>;
  /** Removes it (once its processes are gone). */
  remove(): Promise<void>;
}

/**
 * A memory cgroup of `limitBytes` below this process's own.
 *
 * @example
 * ```ts ignore
 * const group = await memoryCgroup(512 * 1024 ** 2);
 * const child = group.spawn("deno", ["run", "-A", "cli.ts", "serve"]);
 * ```
 */
export async function memoryCgroup(limitBytes: number): Promise<MemoryCgroup> {
  const lines = (await readFile("/proc/self/cgroup", "utf8")).trim().split("\n");
  const v1 = lines.map((l) => l.split(":")).find(([, controllers]) => controllers.split(",").includes("memory"));
  const name = `svc-bench-${crypto.randomUUID().slice(0, 8)}`;
  let dir: string;
  let events: () => Promise<number>;
  if (v1) {
    dir = join("/sys/fs/cgroup/memory", v1[2], name);
    await mkdir(dir);
    await writeFile(join(dir, "memory.limit_in_bytes"), String(limitBytes));
    events = async () =>
      Number(/oom_kill (\d+)/.exec(await readFile(join(dir, "memory.oom_control"), "utf8"))?.[1] ?? 0);
  } else {
    const own = lines.find((l) => l.startsWith("0::"))!.slice(3);
    dir = join("/sys/fs/cgroup", own, name);
    await mkdir(dir);
    await writeFile(join(dir, "memory.max"), String(limitBytes));
    events = async () => Number(/oom_kill (\d+)/.exec(await readFile(join(dir, "memory.events"), "utf8"))?.[1] ?? 0);
  }
  return {
    dir,
    spawn: (command, args, options = {}) =>
      new Deno.Command("sh", {
        args: ["-c", `echo $$ > ${join(dir, "cgroup.procs")} && exec "$@"`, "sh", command, ...args],
        env: options.env,
        stdout: "null",
        stderr: "piped",
        stdin: "null",
      }).spawn(),
    oomKills: () => events(),
    remove: () => rmdir(dir).catch(() => {}),
  };
}
