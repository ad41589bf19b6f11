/**
 * A node whose SQL workers lost their private view to a mount below a folder
 * they keep from `/tmp` (here the node's working folder) gets it back at the
 * next worker start once the mount is gone: the probe's no is not kept for
 * the node's life. Over a real node in a process of its own (its working
 * folder is the one in `/tmp`: changing this test process's own would move
 * every test module running beside it), on a socket; `/healthz` and the log
 * say which. Needs root (it mounts a tmpfs), as CI runs.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { assert, assertEquals } from "../support/assert.ts";
import { startServe } from "../support/cli_process.ts";
import { citiesStore } from "../support/store_fixture.ts";
import { sql } from "./_query.ts";

async function run(cmd: string, ...args: string[]): Promise<boolean> {
  return (await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output()).success;
}

async function sandboxOf(url: string): Promise<string[]> {
  return (await (await fetch(`${url}/healthz`)).json()).sandbox;
}

/** The SQL workers among the processes descended from `root`. */
async function sqlWorkers(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      commands.set(Number(name), (await readFile(`/proc/${name}/cmdline`, "utf8")).replaceAll("\0", " "));
    } catch { /* gone meanwhile */ }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  return [...commands].filter(([pid, cmd]) => descends(pid) && cmd.includes("worker_main")).map(([pid]) => pid);
}

Deno.test({
  name: "a worker started after a mount below the node's folder went away has its private view again",
  ignore: process.platform !== "linux" || Deno.uid() !== 0,
}, async () => {
  const folder = await mkdtemp("/tmp/svc-view-again-");
  const held = join(folder, "held");
  await mkdir(held);
  await mkdir(join(folder, "work"));
  await mkdir(join(folder, "store"));
  await citiesStore(join(folder, "store"));
  assert(await run("mount", "-t", "tmpfs", "svc-test", held), "mounting a tmpfs needs root");
  let mounted = true;
  // The node's working folder is kept in its workers' view, by the folder in /tmp that holds it: here one with a
  // mount below it.
  const node = await startServe(["--store", join(folder, "store")], {}, { cwd: join(folder, "work") });
  try {
    assertEquals((await sql(node.url, "SELECT 1")).status, 200);
    assert(!(await sandboxOf(node.url)).includes("view"), "the mount keeps the view from being made");
    assert(await run("umount", held));
    mounted = false;
    const [pid, ...others] = await sqlWorkers(node.child.pid);
    assert(pid !== undefined && others.length === 0, `one SQL worker: ${[pid, ...others]}`);
    process.kill(pid, "SIGKILL");
    // The next query waits for the replacement worker, which probes again.
    for (let i = 0; i < 20 && (await sqlWorkers(node.child.pid)).includes(pid); i++) await sql(node.url, "SELECT 2");
    assertEquals((await sql(node.url, "SELECT 3")).body.rows, [[3]]);
    assert((await sandboxOf(node.url)).includes("view"), "the new worker has its view");
    assert(node.stderr().includes("private view of the filesystem again"), node.stderr());
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
    if (mounted) await run("umount", held);
    await rm(folder, { recursive: true, force: true });
  }
});
