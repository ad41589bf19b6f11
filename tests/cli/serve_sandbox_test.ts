/**
 * `svc serve` under Deno narrows itself: started with `-A`, the process
 * replaces itself (`execve`) with the node under the permissions the
 * container gives it: the same pid, no broad leave left in any process.
 * Read from `/proc`, and seen in what the node can and cannot reach.
 *
 * @module
 */
import { readdir, readFile, readlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { alive, until } from "../support/waiting.ts";
import { DENO_RUN, ROOT, type ServeProcess, startServe } from "../support/cli_process.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { localNodePaths, nodePermissionFlags } from "../../src/runtime/mod.ts";

/** A process's command line. */
async function cmdline(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0").slice(0, -1);
}

/** The children of `pid` running `cli.ts` (the node; SQL workers run another module). */
async function nodeChildren(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "");
  const found: number[] = [];
  for (const child of text.trim().split(/\s+/).filter((x) => x).map(Number)) {
    if ((await cmdline(child).catch(() => [])).some((a) => a.endsWith("cli.ts"))) found.push(child);
  }
  return found;
}

/** The list a flag of `argv` grants (`--allow-read=a,b` gives [a, b]; a bare flag gives ["*"]); null when absent. */
function granted(argv: string[], kind: string): string[] | null {
  const flag = argv.find((a) => a === `--allow-${kind}` || a.startsWith(`--allow-${kind}=`));
  if (flag === undefined) return null;
  return flag.includes("=") ? flag.slice(flag.indexOf("=") + 1).split(",") : ["*"];
}

/** The socket inode listening on `port` (from /proc/net/tcp). */
async function listenerInode(port: number): Promise<string> {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const line of (await readFile("/proc/net/tcp", "utf8")).split("\n").slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols[1]?.endsWith(`:${hex}`) && cols[3] === "0A") return cols[9];
  }
  throw new Error(`nothing listens on ${port}`);
}

/** Whether process `pid` holds socket `inode`. */
async function holdsSocket(pid: number, inode: string): Promise<boolean> {
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")) === `socket:[${inode}]`) return true;
  }
  return false;
}

async function stopped(node: ServeProcess, signal: Deno.Signal = "SIGTERM"): Promise<number> {
  try {
    node.child.kill(signal);
  } catch { /* gone */ }
  return (await node.status).code;
}

Deno.test("serve -A: the process started becomes the node under narrowed permissions; nothing keeps -A", async () => {
  const dir = await tempDir();
  const store = join(dir.path, "store");
  const trust = join(dir.path, "trust.json");
  await citiesStore(store);
  const node = await startServe(["--store", store], { SVC_TRUST_FILE: trust });
  try {
    const child = node.child.pid;
    assertEquals(await nodeChildren(child), [], "no second node process");
    const argv = await cmdline(child);
    assert(!argv.includes("-A") && !argv.includes("--allow-all"), `the node has no -A: ${argv.join(" ")}`);
    // The temporary folder: TMPDIR, which the node may then read, else /tmp.
    const tmpdir = Deno.env.get("TMPDIR");
    const temp = tmpdir ? resolve(tmpdir) : "/tmp";
    assertEquals(granted(argv, "read"), [store, trust, temp, "/dev/null", join(ROOT, "deno.json")]);
    assertEquals(granted(argv, "write"), [store, temp]);
    const port = Number(new URL(node.url).port);
    assertEquals(granted(argv, "net"), ["127.0.0.1:0"]);
    const denoDir = Deno.env.get("DENO_DIR") ? ["DENO_DIR"] : [];
    assertEquals(granted(argv, "env"), [
      "SVC_*",
      "NODE_V8_COVERAGE",
      "MALLOC_*",
      ...(tmpdir ? ["TMPDIR"] : []),
      ...denoDir,
    ]);
    const ffi = granted(argv, "ffi")!;
    assertEquals(ffi.length, 1);
    assertMatch(ffi[0], /node-bindings-linux-[a-z0-9]+(-musl)?\S*\/duckdb\.node$/);
    assertEquals(granted(argv, "run")?.slice(0, 2), [Deno.execPath(), "/bin/sh"]);
    const module = `file://${ROOT}cli.ts`;
    assertEquals(argv.slice(argv.indexOf(module)), [module, "serve", "--port", "0", "--store", store]);
    assertEquals(argv[argv.indexOf(module) - 1], "--no-prompt");
    const status = await readFile(`/proc/${child}/status`, "utf8");
    assertMatch(status, /^PPid:\s+\d+$/m);
    assertEquals(Number(/^PPid:\s+(\d+)$/m.exec(status)![1]), Deno.pid, "its parent is still the test that started it");

    // The process started listens and loads DuckDB.
    const data = await fetch(`${node.url}/projects/cities/data?limit=2`);
    assertEquals(data.status, 200);
    assertEquals(((await data.json()) as Json).records.length, 2);
    const inode = await listenerInode(port);
    assert(await holdsSocket(child, inode), "the node holds the listening socket");
    assert((await readFile(`/proc/${child}/maps`, "utf8")).includes("duckdb.node"), "the node loaded DuckDB");
    // No route of the narrowed node reads outside its store.
    for (const path of ["/etc/passwd", "/projects/..%2f..%2f..%2fetc%2fpasswd/data", "/ui/..%2f..%2f..%2fetc/passwd"]) {
      const res = await fetch(`${node.url}${path}`);
      const body = await res.text();
      assert(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
      assert(!body.includes("root:"), `${path} gave /etc/passwd`);
    }

    assertMatch(
      node.stderr(),
      /^sandbox: deno, landlock, view, duckdb \(deno permissions narrowed to the store, the bind address\)$/m,
    );

    assertEquals(await stopped(node, "SIGINT"), 130);
    await until("the node has exited", () => !alive(child), 5_000);
  } finally {
    await stopped(node, "SIGKILL");
    await dir.cleanup();
  }
});

async function query(url: string, sql: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/projects/cities/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql }),
  });
  return { status: res.status, text: await res.text() };
}

Deno.test("serve -A: SQL runs under the narrowed node, and cannot read /etc/passwd", async () => {
  const dir = await tempDir();
  const store = join(dir.path, "store");
  await citiesStore(store);
  const node = await startServe(["--store", store], { SVC_TRUST_FILE: join(dir.path, "trust.json") });
  try {
    const count = await query(node.url, "SELECT count(*) AS n FROM records");
    assertEquals([count.status, JSON.parse(count.text).rows], [200, [[600]]], node.stderr());
    const passwd = await query(node.url, "SELECT * FROM read_text('/etc/passwd')");
    assertEquals(passwd.status, 400);
    assert(!passwd.text.includes("root:"), passwd.text);
  } finally {
    assertEquals(await stopped(node), 0);
    await dir.cleanup();
  }
});

Deno.test("serve -A: SQL errors show the home folder as ~ under the sandbox, as they do without it", async () => {
  const home = Deno.env.get("HOME") ?? "";
  assert(home.startsWith("/") && home.length > 1, `the test needs HOME, not ${JSON.stringify(home)}`);
  const dir = await tempDir();
  const store = join(dir.path, "store");
  await citiesStore(store);
  try {
    for (const args of [[], ["--no-sandbox"]]) {
      const node = await startServe(["--store", store, ...args], { SVC_TRUST_FILE: join(dir.path, "trust.json") });
      try {
        const asked = await query(node.url, `SELECT * FROM read_csv('${home}/svc-no-such-file.csv')`);
        assertEquals(asked.status, 400, asked.text);
        assert(asked.text.includes("~/svc-no-such-file.csv"), `${args.join(" ") || "sandbox"}: ${asked.text}`);
        assert(!asked.text.includes(`${home}/`), asked.text);
      } finally {
        assertEquals(await stopped(node), 0);
      }
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("serve -A: signals and exit codes are the node's own: SIGTERM exits 0, SIGINT 130", async () => {
  const dir = await tempDir();
  try {
    const first = await startServe(["--store", dir.path]);
    assertEquals(await stopped(first, "SIGTERM"), 0);
    assertMatch(first.stderr(), /svc node stopping \(SIGTERM\)/);
    assert(!alive(first.child.pid), "the node has exited");
    const second = await startServe(["--store", dir.path]);
    assertEquals(await stopped(second, "SIGINT"), 130);
    assertMatch(second.stderr(), /svc node stopping \(SIGINT\)/);
  } finally {
    await dir.cleanup();
  }
});

/** Starts `deno run <flags> cli.ts serve args...`; resolves once it serves. */
async function serveWith(flags: string[], args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, ...flags, `${ROOT}cli.ts`, "serve", "--port", "0", ...args],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += value;
    }
  })();
  const status = drained.then(() => child.status);
  await until("it serves", () => /^sandbox/m.test(text) || text.includes("error"), 30_000);
  const url = / on (http:\/\/\S+) \(/.exec(text)?.[1];
  if (!url) throw new Error(`it did not serve:\n${text}`);
  return { url, child, stderr: () => text, status };
}

Deno.test("--no-sandbox and SVC_SANDBOX=off keep -A in the one process, and say so", async () => {
  const dir = await tempDir();
  try {
    for (const [args, env] of [[["--no-sandbox"], {}], [[], { SVC_SANDBOX: "off" }]] as const) {
      const node = await serveWith(["-A"], ["--store", dir.path, ...args], env);
      try {
        assertEquals(await nodeChildren(node.child.pid), [], "no node child");
        assertEquals((await fetch(`${node.url}/healthz`).then((r) => r.json())).ok, true);
        assertMatch(
          node.stderr(),
          /^sandbox: landlock, view, duckdb \(off: the node keeps the permissions it was started with\)$/m,
        );
        assert((await cmdline(node.child.pid)).includes("-A"));
      } finally {
        assertEquals(await stopped(node), 0);
      }
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("a node started with narrow flags of its own is not launched again; its workers tell it of Landlock", async () => {
  const dir = await tempDir();
  try {
    const store = join(dir.path, "store");
    await citiesStore(store);
    const paths = localNodePaths();
    assert(typeof paths !== "string", String(paths));
    const flags = nodePermissionFlags(paths, {
      store,
      trustFile: join(dir.path, "trust.json"),
      trustWrite: false,
      bind: { host: "127.0.0.1", port: 0 },
      calls: [],
      readOnly: false,
    });
    const node = await serveWith(flags, ["--store", store], { SVC_TRUST_FILE: join(dir.path, "trust.json") });
    try {
      assertEquals(await nodeChildren(node.child.pid), []);
      // Such a node may not load libc to ask the kernel: Landlock is listed once a worker has started under it.
      assertMatch(node.stderr(), /^sandbox: deno, view, duckdb \(deno permissions as given on the command line\)$/m);
      const count = await query(node.url, "SELECT count(*) AS n FROM records");
      assertEquals([count.status, JSON.parse(count.text).rows], [200, [[600]]], node.stderr());
      const health: Json = await (await fetch(`${node.url}/healthz`)).json();
      assertEquals(health.sandbox, ["deno", "landlock", "view", "duckdb"]);
    } finally {
      assertEquals(await stopped(node, "SIGINT"), 130);
    }
  } finally {
    await dir.cleanup();
  }
});

async function followed(node: ServeProcess): Promise<{ version: number | null; error: string | null }> {
  return ((await (await fetch(`${node.url}/healthz`)).json()) as Json).follow.cities;
}

Deno.test("a narrowed node follows through the host it was given, and cannot reach one it was not", async () => {
  const dir = await tempDir();
  await citiesStore(join(dir.path, "mirror"));
  const mirror = await startServe(["--store", join(dir.path, "mirror"), "--no-sandbox"]);
  // A proxy in front of the mirror: the mirror's answers name its part URLs at its own address, not the proxy's.
  const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    return fetch(`${mirror.url}${url.pathname}${url.search}`, {
      method: req.method,
      headers: { authorization: req.headers.get("authorization") ?? "" },
    });
  });
  const via = `http://127.0.0.1:${proxy.addr.port}`;
  const follow = (store: string, upstream: string, more: string[] = []) =>
    startServe([
      "--store",
      join(dir.path, store),
      "--follow",
      "cities",
      "--upstream",
      upstream,
      "--base-url",
      "http://127.0.0.1:9",
      "--api-key",
      "agent-key",
      "--interval",
      "1",
      ...more,
    ]);
  const nodes: ServeProcess[] = [];
  const partGets = () => mirror.stderr().split("\n").filter((l) => / GET \/parts\/cities\//.test(l)).length;
  try {
    const walled = await follow("walled", via);
    nodes.push(walled);
    assertEquals(granted(await cmdline(walled.child.pid), "net"), [
      "127.0.0.1:0",
      `127.0.0.1:${proxy.addr.port}`,
      "127.0.0.1:9",
    ]);
    await until(
      "the sync fails at the first part",
      async () => /net access/.test((await followed(walled)).error ?? ""),
    );
    assertEquals((await followed(walled)).version, null);
    assertEquals(partGets(), 0, "the node never connected to the mirror");

    const open = await follow("open", via, ["--no-sandbox"]);
    nodes.push(open);
    await until("the unsandboxed node syncs, parts from the mirror", async () => (await followed(open)).version === 2);
    assert(partGets() > 0, "the parts came from the mirror's own address");

    const direct = await follow("direct", mirror.url);
    nodes.push(direct);
    await until(
      "the narrowed node syncs from the host it was given",
      async () => (await followed(direct)).version === 2,
    );
    assertEquals((await followed(direct)).error, null);
    const page: Json = await (await fetch(`${direct.url}/projects/cities/data?limit=1000`)).json();
    assertEquals([page.version, page.count], [2, 600]);
  } finally {
    for (const node of nodes) await stopped(node);
    await stopped(mirror);
    await proxy.shutdown();
    await dir.cleanup();
  }
});
