/**
 * Every shell command of README.md and docs/quickstart.md, run verbatim and
 * in order on a fresh copy of the repository (its tracked and unignored
 * files, as a clone of this working tree would have), each document in its
 * own copy and shell. A command that starts a node runs in the background as
 * in a terminal of its own, and is stopped with Ctrl-C (SIGINT to its process
 * group) before the next one starts and at the end. The README's test
 * command is the one command not run here: CI runs it itself (.ci/run), and
 * here it would run this test again.
 *
 * The documents name port 8686, which this machine may already serve (the
 * README's own node, started before its test command): the commands run in
 * a network namespace of their own (`_isolation.ts`), reaching npm's
 * registry through a proxy, as a user's shell behind a company proxy
 * would. Where no namespace can be made here, port 8686 must be free.
 *
 * The user is new too: an empty home (npm's cache aside), `~/.local/bin`
 * and npm's global folder (in that home) on PATH, no Deno cache. The first
 * node's start is measured: Deno's cache and `node_modules` together hold
 * at most 180 MB once it serves.
 */
import { execFileSync } from "node:child_process";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { dirname, join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { tempDir } from "../support/store_fixture.ts";
import { docsScript, runsSuite, shellCommands, startsNode } from "./_commands.ts";
import { isolatedNetwork } from "./_isolation.ts";

/** The most a first start may leave in Deno's cache and node_modules together. */
export const FIRST_START_BYTES = 180e6;

/** A copy of the working tree's tracked and unignored files at `to`. */
async function freshCopy(to: string): Promise<void> {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  for (const file of listed.split("\0").filter((f) => f !== "")) {
    await mkdir(dirname(join(to, file)), { recursive: true });
    await copyFile(join(ROOT, file), join(to, file)).catch((e) => {
      if ((e as { code?: string }).code !== "ENOENT") throw e; // deleted in the tree, not yet in the index
    });
  }
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * The environment of a new user's shell on a machine without Deno's caches:
 * no svc or Deno settings carried over from this one, an empty home
 * (`home`) whose `~/.local/bin` and npm global folder are on PATH, an empty
 * `DENO_DIR`; npm's download cache is this machine's (it only saves
 * downloads).
 */
function userEnv(home: string, denoDir: string): Record<string, string> {
  const env = Deno.env.toObject();
  const npmCache = env.npm_config_cache ?? join(env.HOME ?? "/root", ".npm");
  for (const name of Object.keys(env)) {
    if (/^(SVC_|DENO_|NPM_CONFIG_|XDG_(CONFIG|DATA|CACHE|STATE)_HOME$)/i.test(name) || /_proxy$/i.test(name)) {
      delete env[name];
    }
  }
  const npmGlobal = join(home, ".npm-global");
  return {
    ...env,
    HOME: home,
    PATH: [join(npmGlobal, "bin"), join(home, ".local", "bin"), env.PATH ?? "/usr/bin:/bin"].join(":"),
    npm_config_prefix: npmGlobal,
    npm_config_cache: npmCache,
    DENO_DIR: denoDir,
    NO_COLOR: "1",
  };
}

/** Runs the commands of `names`, one document after another, in one fresh copy (as a reader would, in one folder). */
async function runDocuments(...names: string[]): Promise<void> {
  const run: string[] = [];
  for (const doc of names) {
    const commands = shellCommands(await readFile(join(ROOT, doc), "utf8")).filter((c) => !runsSuite(c));
    assert(commands.some(startsNode), `${doc} starts a node`);
    run.push(...commands);
  }
  const name = names.join(" then ");
  const dir = await tempDir("svc-docs-");
  const isolation = await isolatedNetwork(dir.path);
  if (!isolation) assert(!(await portInUse(8686)), "port 8686 is in use, and no network namespace can be made here");
  try {
    const clone = join(dir.path, "svc");
    const home = join(dir.path, "home");
    const sizeFile = join(dir.path, "first-start-kib");
    await freshCopy(clone);
    await mkdir(home);
    const script = join(dir.path, "commands.sh");
    await writeFile(script, docsScript(run, { sizeFile }));
    const [command, ...args] = isolation ? isolation.command(script) : ["bash", script];
    const out = await new Deno.Command(command, {
      args,
      cwd: clone,
      env: { ...userEnv(home, join(dir.path, "deno-dir")), ...isolation?.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const transcript = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    if (out.code !== 0 || Deno.env.get("SVC_DOCS_TRANSCRIPT")) console.error(`--- ${name}: transcript\n${transcript}`);
    // The transcript's end goes in the failure itself: a CI log may keep only a test's error.
    const end = transcript.trimEnd().split("\n").slice(-40).join("\n");
    assertEquals(out.code, 0, `a command of ${name} failed (whole transcript above); its end:\n${end}\n`);
    if (!isolation) assert(!(await portInUse(8686)), "every node the documents started has stopped");
    const kib = Number(await readFile(sizeFile, "utf8"));
    console.log(`${name}: the first start left ${(kib * 1024 / 1e6).toFixed(0)} MB in Deno's cache and node_modules`);
    assert(kib * 1024 <= FIRST_START_BYTES, `the first start left ${kib} KiB, more than ${FIRST_START_BYTES / 1e6} MB`);
  } finally {
    await isolation?.close();
    await dir.cleanup();
  }
}

Deno.test("the README's commands run verbatim on a fresh copy", async () => {
  const all = shellCommands(await readFile(join(ROOT, "README.md"), "utf8"));
  assertEquals(all.filter(runsSuite).length, 1, "the README names one test command, which CI runs itself");
  await runDocuments("README.md");
});

Deno.test("the README's commands, then the quickstart's in the same folder (as the README invites), run verbatim", async () => {
  await runDocuments("README.md", "docs/quickstart.md");
});
