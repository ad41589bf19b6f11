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
 * The documents name port 8686, so this test needs it free; it runs as
 * `deno task test:docs`, not inside the parallel suite.
 */
import { execFileSync } from "node:child_process";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { dirname, join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { tempDir } from "../support/store_fixture.ts";
import { docsScript, runsSuite, shellCommands, startsNode } from "./_commands.ts";

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
 * no svc or Deno settings carried over from this one, an empty `DENO_DIR`.
 */
function userEnv(denoDir: string): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of Object.keys(env)) if (name.startsWith("SVC_") || name.startsWith("DENO_")) delete env[name];
  return { ...env, DENO_DIR: denoDir, NO_COLOR: "1" };
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
  assert(!(await portInUse(8686)), "port 8686 is in use: the documents' commands need it free");
  const dir = await tempDir("svc-docs-");
  try {
    const clone = join(dir.path, "svc");
    await freshCopy(clone);
    await writeFile(join(dir.path, "commands.sh"), docsScript(run));
    const out = await new Deno.Command("bash", {
      args: [join(dir.path, "commands.sh")],
      cwd: clone,
      env: userEnv(join(dir.path, "deno-dir")),
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
    assert(!(await portInUse(8686)), "every node the documents started has stopped");
  } finally {
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
