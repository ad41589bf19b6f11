/**
 * A loopback of the documents' own, so that their commands run verbatim on
 * port 8686 whatever this machine already serves there (the README's own
 * node, another test's): the commands run in a new network namespace
 * (`unshare -n`, or `unshare -rn` for a user without root), whose loopback
 * is theirs alone. Their way out (npm's registry, for `npx` and for Deno's
 * npm packages) is an HTTP proxy given in `HTTPS_PROXY`: a bridge inside
 * the namespace (`_bridge.ts`) carries each connection through a Unix
 * socket, which the filesystem shares, to a CONNECT proxy here outside.
 *
 * @module
 */
import { join } from "node:path";
import { splice } from "./_bridge.ts";

/** Where the proxy listens inside the namespace (the namespace's own loopback: nothing else is there). */
const PROXY_PORT = 3128;

/** Folders where `ip` (iproute2) lives, PATH or not. */
const IP_FOLDERS = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"];

/** How the documents' commands run in their own network namespace. */
export interface Isolation {
  /** The command that runs `script` (a bash script) inside the namespace, after the bridge is up. */
  command(script: string): string[];
  /** What the commands' environment adds: the proxy, and loopback left out of it. */
  env: Record<string, string>;
  /** Hosts the proxy carried connections to. */
  reached: string[];
  /** Stops the proxy (the bridge then exits). */
  close(): Promise<void>;
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(command, { args, stdin: "null", stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

/** Reads a proxy request's head from `conn`: its text, and the bytes read beyond it. */
async function readHead(conn: Deno.Conn): Promise<{ head: string; rest: Uint8Array } | null> {
  let buffer = new Uint8Array(0);
  const chunk = new Uint8Array(8192);
  while (buffer.length < 65536) {
    const n = await conn.read(chunk);
    if (n === null) return null;
    const next = new Uint8Array(buffer.length + n);
    next.set(buffer);
    next.set(chunk.subarray(0, n), buffer.length);
    buffer = next;
    const end = new TextDecoder().decode(buffer).indexOf("\r\n\r\n");
    if (end >= 0) return { head: new TextDecoder().decode(buffer.subarray(0, end)), rest: buffer.subarray(end + 4) };
  }
  return null;
}

/** Answers one proxy request: `CONNECT host:port` is carried through; anything else is 405. */
async function proxy(conn: Deno.Conn, reached: string[]): Promise<void> {
  const encode = (text: string) => new TextEncoder().encode(text);
  try {
    const request = await readHead(conn);
    const target = request && /^CONNECT ([^\s:]+|\[[^\]]+\]):(\d+) HTTP\/1\.[01]/.exec(request.head);
    if (!request || !target) {
      await conn.write(encode("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"));
      conn.close();
      return;
    }
    const upstream = await Deno.connect({ hostname: target[1].replace(/^\[|\]$/g, ""), port: Number(target[2]) });
    reached.push(`${target[1]}:${target[2]}`);
    await conn.write(encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
    if (request.rest.length > 0) await upstream.write(request.rest);
    await splice(conn, upstream);
  } catch {
    try {
      await conn.write(encode("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"));
      conn.close();
    } catch { /* gone */ }
  }
}

/**
 * The documents' own network namespace, with its proxy, under `dir` (a
 * folder of the test's); null where this machine cannot make one (no
 * `unshare` or `ip`, no leave to make user namespaces).
 */
export async function isolatedNetwork(dir: string): Promise<Isolation | null> {
  const ip = IP_FOLDERS.map((f) => `${f}/ip`).find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });
  if (!ip) return null;
  const unshare = Deno.uid?.() === 0 ? ["unshare", "-n"] : ["unshare", "-rn"];
  if (!(await succeeds(unshare[0], [...unshare.slice(1), "--", ip, "link", "set", "lo", "up"]))) return null;
  const socket = join(dir, "proxy.sock");
  const listener = Deno.listen({ transport: "unix", path: socket });
  const reached: string[] = [];
  const serving = (async () => {
    for await (const conn of listener) proxy(conn, reached);
  })().catch(() => {});
  const bridge = new URL("./_bridge.ts", import.meta.url).pathname;
  const start = join(dir, "start.sh");
  const ready = join(dir, "bridge.ready");
  await Deno.writeTextFile(
    start,
    [
      "set -e",
      `${JSON.stringify(ip)} link set lo up`,
      `DENO_DIR=${JSON.stringify(join(dir, "bridge-deno-dir"))} ${JSON.stringify(Deno.execPath())} run --no-config ` +
      `--allow-net --allow-read --allow-write ${JSON.stringify(bridge)} ${JSON.stringify(socket)} ` +
      `${PROXY_PORT} ${JSON.stringify(ready)} </dev/null >/dev/null 2>&1 &`,
      "bridge=$!",
      `for _ in $(seq 1 300); do [ -e ${JSON.stringify(ready)} ] && break; sleep 0.1; done`,
      'set +e; bash "$1"; code=$?',
      'kill "$bridge" 2>/dev/null; wait "$bridge" 2>/dev/null',
      'exit "$code"',
    ].join("\n") + "\n",
  );
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  const local = "127.0.0.1,localhost,::1";
  return {
    command: (script) => [...unshare, "--", "bash", start, script],
    env: {
      HTTPS_PROXY: url,
      https_proxy: url,
      HTTP_PROXY: url,
      http_proxy: url,
      NO_PROXY: local,
      no_proxy: local,
    },
    reached,
    close: async () => {
      listener.close();
      await serving;
      await Deno.remove(socket).catch(() => {});
    },
  };
}
