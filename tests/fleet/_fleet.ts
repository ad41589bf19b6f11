/**
 * What the fleet tests share: polling with a deadline, outside tools run to
 * completion or as daemons (Debian's `promtool`, `prometheus`, `haproxy`),
 * and `svc serve` nodes on a port chosen up front, so that a balancer's
 * configuration can name them before they start and a node restarted on a
 * fresh store comes back at the same address.
 *
 * @module
 */
import { ROOT, type ServeProcess, startServe } from "../support/cli_process.ts";

export { ROOT };

/** Polls `check` every `everyMs` until it holds, failing after `ms` with `what` and the last error seen. */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  ms = 60_000,
  everyMs = 200,
): Promise<void> {
  const deadline = Date.now() + ms;
  let last: unknown = null;
  while (true) {
    try {
      if (await check()) return;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${ms} ms waiting until ${what}${last ? ` (last error: ${last})` : ""}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What a finished tool printed and how it ended. */
export interface ToolRun {
  /** Exit code. */
  code: number;
  /** Everything on stdout. */
  stdout: string;
  /** Everything on stderr. */
  stderr: string;
}

/** Runs `command args...` to completion (killed after `timeoutMs`), with `input` on stdin when given. */
export async function runTool(
  command: string,
  args: string[],
  options: { input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<ToolRun> {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    stdin: options.input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  }).spawn();
  if (options.input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.input));
    await writer.close();
  }
  const out = await child.output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

/**
 * Fails at once, naming the Debian package to install, unless every tool
 * of `tools` (`command:package`) is on PATH (`.ci/run` installs them).
 */
export async function requireTools(...tools: string[]): Promise<void> {
  const missing: string[] = [];
  for (const tool of tools) {
    const [command, pkg] = tool.split(":");
    const found = await runTool("sh", ["-c", `command -v ${command}`]).catch(() => null);
    if (!found || found.code !== 0) missing.push(pkg ?? command);
  }
  if (missing.length > 0) {
    throw new Error(`the fleet tests need Debian's ${missing.join(", ")}: apt-get install ${missing.join(" ")}`);
  }
}

/** A long-running outside program, its output kept for when it misbehaves. */
export interface Daemon {
  /** The process. */
  child: Deno.ChildProcess;
  /** Its stdout and stderr so far. */
  output(): string;
  /** Stops it with `signal` (default SIGTERM), and after 10 s with SIGKILL; waits for it. */
  stop(signal?: Deno.Signal): Promise<void>;
}

/** Starts `command args...` in the background, collecting what it prints. */
export function startDaemon(command: string, args: string[], options: { cwd?: string } = {}): Daemon {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const dec = new TextDecoder();
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      text += dec.decode(chunk, { stream: true });
      if (text.length > 8_000_000) text = text.slice(-4_000_000);
    }
  };
  const collected = Promise.all([collect(child.stdout), collect(child.stderr)]).catch(() => {});
  return {
    child,
    output: () => text,
    async stop(signal: Deno.Signal = "SIGTERM") {
      await stopChild(child, signal);
      await collected;
    },
  };
}

/** Sends `signal` to `child` (when it still runs), then SIGKILL if it has not exited within 10 s; waits for it. */
export async function stopChild(
  child: Deno.ChildProcess,
  signal: Deno.Signal = "SIGTERM",
): Promise<Deno.CommandStatus> {
  try {
    child.kill(signal);
  } catch { /* gone already */ }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 10_000)));
  const status = await Promise.race([child.status, late]);
  clearTimeout(timer);
  if (status !== null) return status;
  try {
    child.kill("SIGKILL");
  } catch { /* gone already */ }
  return await child.status;
}

/** A `svc serve` node the fleet tests started, on a port chosen before it started. */
export interface FleetNode {
  /** Its name in the test's output (`mirror`, `r1`, ...). */
  name: string;
  /** The process and its log. */
  serve: ServeProcess;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The port. */
  port: number;
}

/** Starts `svc serve` on `port` (0 for any) with `args` and `env`; resolves once it prints its address. */
export async function startNode(
  name: string,
  port: number,
  args: string[],
  env: Record<string, string> = {},
): Promise<FleetNode> {
  const serve = await startServe(["--port", String(port), ...args], env);
  const url = serve.url.replace("localhost", "127.0.0.1");
  return { name, serve, url, port: Number(new URL(url).port) };
}

/** Stops a node with `signal` (SIGTERM: the node's graceful stop; SIGKILL: a crash) and waits for it. */
export async function stopNode(node: FleetNode, signal: Deno.Signal = "SIGTERM"): Promise<Deno.CommandStatus> {
  return await stopChild(node.serve.child, signal);
}

/** `Authorization` for `token`, or nothing. */
export function bearer(token: string | null): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}
