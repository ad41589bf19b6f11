/**
 * The `svc` command as a real child process, for tests of flags, exit codes,
 * signals and logs.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { within } from "../../src/sql/_deadline.ts";

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

/**
 * `deno run` as the tests start Deno children, with the tests' own lock file:
 * every process of a test run then installs the same npm snapshot (under
 * two, each process would set `node_modules` up again, holding its lock while
 * the others wait and say so on stderr), and a child that loads a package at
 * run time (the payment packages) never writes `deno.lock`.
 */
export const DENO_RUN: readonly string[] = ["run", `--lock=${ROOT}deno.dev.lock`];

/**
 * `text` without the line Deno prints while another process holds the
 * `node_modules` lock (colored or not): a child's stderr as its own program
 * wrote it.
 *
 * @example
 * ```ts
 * import { withoutDenoNotices } from "./cli_process.ts";
 * withoutDenoNotices("\x1b[1m\x1b[32mBlocking\x1b[0m waiting for file lock on node_modules directory\nerror: x\n");
 * // "error: x\n"
 * ```
 */
export function withoutDenoNotices(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/^(?:\x1b\[[0-9;]*m)*Blocking(?:\x1b\[[0-9;]*m)* waiting for file lock on [^\n]*\n?/gm, "");
}

/** What a finished `svc` run printed and how it ended. */
export interface CliRun {
  /** Exit code. */
  code: number;
  /** Everything on stdout. */
  stdout: string;
  /** Everything on stderr. */
  stderr: string;
}

/** Runs `svc args...` under Deno to completion; `options.input`, when given, is its stdin. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  options: { input?: string; cwd?: string } = {},
): Promise<CliRun> {
  const input = options.input;
  const child = new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "-A", `${ROOT}cli.ts`, ...args],
    env: { SVC_NODE_TOKEN: "", ...env },
    cwd: options.cwd,
    stdout: "piped",
    stderr: "piped",
    stdin: input === undefined ? "null" : "piped",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  const stderr = withoutDenoNotices(dec.decode(out.stderr));
  return { code: out.code, stdout: dec.decode(out.stdout), stderr };
}

/**
 * Starts `svc args...` under Deno, for tests that signal or kill it: its
 * output is discarded unless `piped` (then stdin, stdout and stderr are
 * pipes the test reads and writes).
 */
export function spawnCli(args: string[], options: { piped?: boolean } = {}): Deno.ChildProcess {
  const io = options.piped ? "piped" : "null";
  return new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "-A", `${ROOT}cli.ts`, ...args],
    env: { SVC_NODE_TOKEN: "" },
    stdin: options.piped ? "piped" : "inherit",
    stdout: io,
    stderr: io,
  }).spawn();
}

/** A running `svc serve`. */
export interface ServeProcess {
  /** The URL the node printed. */
  url: string;
  /** The child. */
  child: Deno.ChildProcess;
  /** Stderr so far (the request log). */
  stderr(): string;
  /** Waits for the exit code. */
  status: Promise<Deno.CommandStatus>;
}

/**
 * Starts `svc serve args...` and resolves once it has printed its URL;
 * `nofile` lowers its open-file limit (`ulimit -n`); `svc` is the command
 * that runs svc (default: this checkout's `cli.ts` under Deno, or `root`'s);
 * `cwd` is its working folder (a test process's own is shared by every test
 * module running beside it).
 */
export async function startServe(
  args: string[],
  env: Record<string, string> = {},
  options: { nofile?: number; root?: string; svc?: string[]; cwd?: string } = {},
): Promise<ServeProcess> {
  const cli = options.root ? `${options.root.replace(/\/$/, "")}/cli.ts` : `${ROOT}cli.ts`;
  // Another checkout runs under its own configuration and lock: this checkout's lock, read against another
  // configuration, would be rewritten (a test run must leave the tracked files as they were).
  const run = options.root ? ["run"] : DENO_RUN;
  const svc = options.svc ?? [Deno.execPath(), ...run, "-A", cli];
  const line = [...svc, "serve", "--port", "0", ...args];
  const [command, ...rest] = options.nofile
    ? ["bash", "-c", `ulimit -n ${options.nofile} && exec "$@"`, "bash", ...line]
    : line;
  const child = new Deno.Command(command, {
    args: rest,
    env,
    cwd: options.cwd,
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let text = "";
  const dec = new TextDecoder();
  let found: (url: string) => void = () => {};
  const urlSeen = new Promise<string>((resolve) => (found = resolve));
  const read = (async () => {
    for await (const chunk of child.stderr) {
      text += dec.decode(chunk, { stream: true });
      const m = / on (http:\/\/\S+) \(/.exec(text);
      if (m) found(m[1]);
    }
  })();
  const status = child.status;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const url = await Promise.race([
      urlSeen,
      // The exit can be seen before the last of what it wrote is read: the error says it all.
      status.then(async (s) => {
        await within(read.catch(() => {}), 2_000);
        throw new Error(`svc serve exited ${s.code} before serving:\n${text}`);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`svc serve did not start:\n${text}`)), 30_000);
      }),
    ]);
    return { url, child, stderr: () => withoutDenoNotices(text), status };
  } catch (e) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await status;
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** A port nothing listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}
