/**
 * A node whose SQL workers lost their private view to a mount below a folder
 * they keep from `/tmp` (here the node's working folder) gets it back at the
 * next worker start once the mount is gone: the probe's no is not kept for
 * the node's life. Over a real node on a socket; `/healthz` and the log say
 * which. Needs root (it mounts a tmpfs), as CI runs.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { assert, assertEquals } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { sql } from "./_query.ts";

async function run(cmd: string, ...args: string[]): Promise<boolean> {
  return (await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output()).success;
}

async function sandboxOf(url: string): Promise<string[]> {
  return (await (await fetch(`${url}/healthz`)).json()).sandbox;
}

Deno.test({
  name: "a worker started after a mount below the node's folder went away has its private view again",
  ignore: process.platform !== "linux" || Deno.uid() !== 0,
}, async () => {
  const folder = await mkdtemp("/tmp/svc-view-again-");
  const held = join(folder, "held");
  await mkdir(held);
  await mkdir(join(folder, "work"));
  assert(await run("mount", "-t", "tmpfs", "svc-test", held), "mounting a tmpfs needs root");
  let mounted = true;
  const home = Deno.cwd();
  const warned: string[] = [];
  const stderr = console.error;
  console.error = (...args: unknown[]) => void warned.push(args.map(String).join(" "));
  // The node's working folder is kept in its workers' view, by the folder in /tmp that holds it: here one with a
  // mount below it.
  Deno.chdir(join(folder, "work"));
  try {
    await withNode({}, async ({ url, serving }) => {
      assertEquals((await sql(url, "SELECT 1")).status, 200);
      assert(!(await sandboxOf(url)).includes("view"), "the mount keeps the view from being made");
      assert(await run("umount", held));
      mounted = false;
      const [pid] = serving.node.sqlPids();
      process.kill(pid, "SIGKILL");
      // The next query waits for the replacement worker, which probes again.
      for (let i = 0; i < 20 && serving.node.sqlPids().includes(pid); i++) await sql(url, "SELECT 2");
      assertEquals((await sql(url, "SELECT 3")).body.rows, [[3]]);
      assert((await sandboxOf(url)).includes("view"), "the new worker has its view");
      assert(warned.some((l) => l.includes("private view of the filesystem again")), warned.join("\n"));
    });
  } finally {
    console.error = stderr;
    Deno.chdir(home);
    if (mounted) await run("umount", held);
    await rm(folder, { recursive: true, force: true });
  }
});
