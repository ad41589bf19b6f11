/**
 * Landlock through Deno's FFI: the launcher confines the command it runs
 * (every thread of it) to the folders it names, with no TCP, and the command
 * learns the ABI it runs under; a command run without it is not confined.
 *
 * @module
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { confinedAbi, landlockAbi } from "../../src/runtime/mod.ts";

const LAUNCHER = new URL("../../src/runtime/landlock.ts", import.meta.url).pathname;

/** What the probe does: read, list, write, connect, each saying ok or the error's name. */
const PROBE = `
const out = {};
const t = async (name, f) => { try { await f(); out[name] = "ok"; } catch (e) { out[name] = e.name; } };
const [dir, port] = Deno.args;
await t("readAllowed", () => Deno.readTextFile(dir + "/allowed/a.txt"));
await t("listAllowed", () => Array.fromAsync(Deno.readDir(dir + "/allowed")));
await t("readOutside", () => Deno.readTextFile(dir + "/outside/b.txt"));
await t("readPasswd", () => Deno.readTextFile("/etc/passwd"));
await t("writeAllowed", () => Deno.writeTextFile(dir + "/spill/x", "y"));
await t("writeReadOnly", () => Deno.writeTextFile(dir + "/allowed/x", "y"));
await t("writeOutside", () => Deno.writeTextFile(dir + "/outside/x", "y"));
await t("connect", async () => (await Deno.connect({ hostname: "127.0.0.1", port: Number(port) })).close());
await t("ownMemory", () => { if (!(Deno.memoryUsage().rss > 0)) throw new Error("no rss"); });
const l = Deno.dlopen("libc.so.6", { getenv: { parameters: ["buffer"], result: "pointer" } });
const p = l.symbols.getenv(new TextEncoder().encode("SVC_LANDLOCK_ABI\\0"));
out.abi = p ? Deno.UnsafePointerView.getCString(p) : null;
console.log(JSON.stringify(out));
`;

/** Runs the probe in `dir`, through the launcher when `confined`. */
async function probe(dir: string, confined: boolean): Promise<Record<string, string | null>> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = listener.accept().then((c) => c.close(), () => {});
  try {
    const script = join(dir, "probe.js");
    const run = [Deno.execPath(), "run", "-A", "--no-config", script, dir, String(listener.addr.port)];
    const command = confined
      ? [
        "run",
        "--no-config",
        "--allow-ffi",
        "--allow-read",
        LAUNCHER,
        "--read",
        script,
        "--read",
        join(dir, "allowed"),
        "--write",
        join(dir, "spill"),
        "--",
        ...run,
      ]
      : run.slice(1);
    const out = await new Deno.Command(Deno.execPath(), { args: command, stdout: "piped", stderr: "piped" }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    return JSON.parse(new TextDecoder().decode(out.stdout));
  } finally {
    listener.close();
    await accepting;
  }
}

async function withFolders(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp("/tmp/svc-landlock-");
  try {
    for (const sub of ["allowed", "outside", "spill"]) await mkdir(join(dir, sub));
    await writeFile(join(dir, "allowed", "a.txt"), "a");
    await writeFile(join(dir, "outside", "b.txt"), "b");
    await writeFile(join(dir, "probe.js"), PROBE);
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

Deno.test("landlockAbi: this kernel has Landlock; this process was not started confined", () => {
  assert(landlockAbi() >= 1, "Linux 5.13+ with Landlock on");
  assertEquals(confinedAbi(), 0);
});

Deno.test("the launcher confines the command: named folders only, read or write as named, no TCP, its own memory readable", async () => {
  await withFolders(async (dir) => {
    const seen = await probe(dir, true);
    assertEquals(seen, {
      readAllowed: "ok",
      listAllowed: "ok",
      readOutside: "PermissionDenied",
      readPasswd: "PermissionDenied",
      writeAllowed: "ok",
      writeReadOnly: "PermissionDenied",
      writeOutside: "PermissionDenied",
      connect: "PermissionDenied",
      ownMemory: "ok",
      abi: String(landlockAbi()),
    });
    assertEquals(await readFile(join(dir, "spill", "x"), "utf8"), "y");
  });
});

Deno.test("without the launcher the same probe reads and writes everywhere and connects: the test can fail", async () => {
  await withFolders(async (dir) => {
    const seen = await probe(dir, false);
    assertEquals(
      [seen.readOutside, seen.readPasswd, seen.writeReadOnly, seen.writeOutside, seen.connect, seen.abi],
      ["ok", "ok", "ok", "ok", "ok", null],
    );
  });
});
