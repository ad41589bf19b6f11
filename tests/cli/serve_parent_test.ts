import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { assert, assertMatch } from "../support/assert.ts";
import { alive, until } from "../support/waiting.ts";
import { DENO_RUN, ROOT } from "../support/cli_process.ts";
import { tempDir } from "../support/store_fixture.ts";

// `npx deno run ... serve` dies on SIGTERM without passing it on: the node, re-parented, must stop by itself.
Deno.test("serve stops when the process that started it is killed", async () => {
  const dir = await tempDir();
  try {
    const log = join(dir.path, "serve.log");
    const pidFile = join(dir.path, "node.pid");
    const launcher = new Deno.Command("sh", {
      args: [
        "-c",
        `"$0" run -A "$1" serve --store "$2" --port 0 2>"$3" & echo $! > "$4"; wait`,
        Deno.execPath(),
        `${ROOT}cli.ts`,
        join(dir.path, "store"),
        log,
        pidFile,
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await until(
      "the node serves",
      async () => (await readFile(log, "utf8").catch(() => "")).includes("serving"),
      60_000,
    );
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    assert(alive(pid), "the node runs");
    launcher.kill("SIGKILL");
    await launcher.status;
    await until("the node has exited", () => !alive(pid), 60_000);
    assertMatch(await readFile(log, "utf8"), /svc node stopping \(the process that started it has gone\)/);
  } finally {
    await dir.cleanup();
  }
});

// `svc serve 2>&1 | head -2`: once the reader has gone, log lines fail with EPIPE; the node serves on and stops on SIGTERM.
Deno.test("serve outlives the reader of its log and still stops on SIGTERM", async () => {
  const dir = await tempDir();
  let child: Deno.ChildProcess | null = null;
  try {
    child = new Deno.Command(Deno.execPath(), {
      args: [...DENO_RUN, "-A", `${ROOT}cli.ts`, "serve", "--store", join(dir.path, "store"), "--port", "0"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const reader = child.stderr.getReader();
    let text = "";
    while (!/http:\/\/[^\s]+/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the node ended before serving: ${text}`);
      text += new TextDecoder().decode(value);
    }
    const url = /http:\/\/[^\s]+/.exec(text)![0];
    await reader.cancel();
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(20_000) });
      assertEqualsStatus(res.status, 200);
      await res.body?.cancel();
    }
    child.kill("SIGTERM");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 30_000)));
    const status = await Promise.race([child.status, late]);
    clearTimeout(timer);
    if (status === null) {
      child.kill("SIGKILL");
      await child.status;
    }
    assert(status !== null, "the node stopped within 30 s of SIGTERM");
    assert(status.code === 0, `exit ${status.code}`);
  } finally {
    try {
      child?.kill("SIGKILL");
      await child?.status;
    } catch {
      // it has exited
    }
    await dir.cleanup();
  }
});

function assertEqualsStatus(actual: number, expected: number): void {
  assert(actual === expected, `status ${actual}, expected ${expected}`);
}
