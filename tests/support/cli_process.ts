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
    args: ["run", "-A", `${ROOT}cli.ts`, ...args],
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
  // Deno's own launcher says so (coloured or not) when another deno process holds node_modules at the same moment.
  // deno-lint-ignore no-control-regex
  const waited = /^(?:\x1b\[[0-9;]*m)*Blocking(?:\x1b\[[0-9;]*m)* waiting for file lock on [^\n]*\n/gm;
  const stderr = dec.decode(out.stderr).replace(waited, "");
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
    args: ["run", "-A", `${ROOT}cli.ts`, ...args],
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
 * that runs svc (default: this checkout's `cli.ts` under Deno, or `root`'s).
 */
export async function startServe(
  args: string[],
  env: Record<string, string> = {},
  options: { nofile?: number; root?: string; svc?: string[] } = {},
): Promise<ServeProcess> {
  const cli = options.root ? `${options.root.replace(/\/$/, "")}/cli.ts` : `${ROOT}cli.ts`;
  const svc = options.svc ?? [Deno.execPath(), "run", "-A", cli];
  const line = [...svc, "serve", "--port", "0", ...args];
  const [command, ...rest] = options.nofile
    ? ["bash", "-c", `ulimit -n ${options.nofile} && exec "$@"`, "bash", ...line]
    : line;
  const child = new Deno.Command(command, {
    args: rest,
    env,
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
    return { url, child, stderr: () => text, status };
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
