/**
 * The container's entrypoint run for real outside an image: the repository
 * as its app, a temporary folder as its volume. What the image adds (uid,
 * read-only root, health check) is tried under podman in tests/image/.
 *
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { freePort, ROOT } from "../support/cli_process.ts";
import { trustFileText } from "../support/signing.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { commandPermissions, nodePermissions } from "../../src/container/mod.ts";
import { findDuckdbBinding } from "../../src/container/layout.ts";

const TOKEN = "entrypoint-token-0123456789";
const ENTRY_FLAGS = ["--allow-read", "--allow-env", "--allow-sys=systemMemoryInfo", `--allow-run=${Deno.execPath()}`];

interface Entry {
  child: Deno.ChildProcess;
  stderr: () => string;
  stdout: () => string;
  status: Promise<Deno.CommandStatus>;
}

function entrypoint(args: string[], data: string, env: Record<string, string>): Entry {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...ENTRY_FLAGS, join(ROOT, "src/container/entrypoint.ts"), ...args],
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      SVC_CONTAINER_APP: ROOT,
      SVC_CONTAINER_DENO: Deno.execPath(),
      SVC_CONTAINER_DATA: data,
      ...env,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let err = "";
  const drained = Promise.all([
    (async () => {
      for await (const c of child.stdout.pipeThrough(new TextDecoderStream())) out += c;
    })(),
    (async () => {
      for await (const c of child.stderr.pipeThrough(new TextDecoderStream())) err += c;
    })(),
  ]);
  return { child, stderr: () => err, stdout: () => out, status: drained.then(() => child.status) };
}

async function finished(args: string[], data: string, env: Record<string, string>) {
  const e = entrypoint(args, data, env);
  const status = await e.status;
  return { code: status.code, stdout: e.stdout(), stderr: e.stderr() };
}

async function untilHealthy(port: number, e: Entry): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.body?.cancel().then(() => r.ok),
      () => false,
    );
    if (ok) return;
    const done = await Promise.race([e.status, new Promise<null>((r) => setTimeout(() => r(null), 100))]);
    if (done) throw new Error(`the entrypoint exited ${done.code}:\n${e.stderr()}`);
  }
  throw new Error(`no /healthz in 30 s:\n${e.stderr()}`);
}

function authed(init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...init.headers as Record<string, string>, authorization: `Bearer ${TOKEN}` } };
}

Deno.test("entrypoint: --version, and refusals before anything starts", async () => {
  const data = await tempDir("svc-entry-");
  try {
    const version = await finished(["--version"], data.path, {});
    assertEquals(version.code, 0, version.stderr);
    assertMatch(version.stdout, /^svc \(svc-sdk\) \d+\.\d+\.\d+\n$/);

    const noToken = await finished([], data.path, {});
    assertEquals(noToken.code, 1);
    assertMatch(noToken.stderr, /^error: set SVC_NODE_TOKEN \(or SVC_NODE_TOKEN_FILE\)/);

    const short = await finished([], data.path, { SVC_NODE_TOKEN: "short" });
    assertEquals(short.code, 1);
    assertMatch(short.stderr, /at least 16/);

    const missingFile = await finished([], data.path, { SVC_NODE_TOKEN_FILE: join(data.path, "nope") });
    assertEquals(missingFile.code, 1);
    assertMatch(missingFile.stderr, /SVC_NODE_TOKEN_FILE: cannot read/);

    const badPort = await finished([], data.path, { SVC_NODE_TOKEN: TOKEN, SVC_NODE_PORT: "http" });
    assertEquals(badPort.code, 2);
    assertMatch(badPort.stderr, /SVC_NODE_PORT must be a port/);
  } finally {
    await data.cleanup();
  }
});

Deno.test("entrypoint: serves the volume's store with a token from a file; SIGTERM stops it with 0", async () => {
  const data = await tempDir("svc-entry-");
  const port = freePort();
  await citiesStore(join(data.path, "svc-data"));
  await Deno.writeTextFile(join(data.path, "token"), TOKEN + "\n");
  const e = entrypoint(["--quiet"], data.path, {
    SVC_NODE_TOKEN_FILE: join(data.path, "token"),
    SVC_NODE_PORT: String(port),
  });
  try {
    await untilHealthy(port, e);
    assertMatch(e.stderr(), /svc container: node may read=.*svc-data.* net=0\.0\.0\.0:\d+/);
    const unauth = await fetch(`http://127.0.0.1:${port}/projects/cities/data`);
    assertEquals(unauth.status, 401);
    await unauth.body?.cancel();
    const page = await fetch(`http://127.0.0.1:${port}/projects/cities/data?limit=2`, authed());
    assertEquals((await page.json()).records.map((r: { id: number }) => r.id), [0, 1]);
    const sql = await fetch(
      `http://127.0.0.1:${port}/projects/cities/query`,
      authed({
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql: "SELECT count(*) AS n FROM records" }),
      }),
    );
    assertEquals((await sql.json()).rows, [[600]]);
    e.child.kill("SIGTERM");
    assertEquals((await e.status).code, 0, e.stderr());
    assertMatch(e.stderr(), /stopping \(SIGTERM\)/);
  } finally {
    try {
      e.child.kill("SIGKILL");
    } catch { /* gone */ }
    await e.status;
    await data.cleanup();
  }
});

Deno.test("entrypoint: SVC_VERIFY with an unreachable origin exits 69 without keys and serves with held keys", async () => {
  const data = await tempDir("svc-entry-");
  const origin = `http://127.0.0.1:${freePort()}`;
  const env = {
    SVC_NODE_TOKEN: TOKEN,
    SVC_VERIFY: "1",
    SVC_FOLLOW: "cities",
    SVC_BASE_URL: origin,
    SVC_API_KEY: "agent-key",
  };
  try {
    const none = await finished([], data.path, { ...env, SVC_NODE_PORT: String(freePort()) });
    assertEquals(none.code, 69, none.stderr);
    assertMatch(none.stderr, /no key of http:\/\/127\.0\.0\.1:\d+ is pinned/);

    await Deno.writeTextFile(join(data.path, "trust.json"), await trustFileText(origin, "11".repeat(32)));
    const port = freePort();
    const e = entrypoint([], data.path, { ...env, SVC_NODE_PORT: String(port) });
    try {
      await untilHealthy(port, e);
      assertMatch(e.stderr(), /using the keys held/);
      assertMatch(e.stderr(), new RegExp(`net=0\\.0\\.0\\.0:${port},127\\.0\\.0\\.1:\\d+`));
      e.child.kill("SIGTERM");
      assertEquals((await e.status).code, 0, e.stderr());
    } finally {
      try {
        e.child.kill("SIGKILL");
      } catch { /* gone */ }
      await e.status;
    }
  } finally {
    await data.cleanup();
  }
});

Deno.test("entrypoint: a command runs in the volume", async () => {
  const data = await tempDir("svc-entry-");
  try {
    await citiesStore(join(data.path, "svc-data"));
    const ran = await finished(["query", "cities", "SELECT max(id) AS top FROM records", "--json"], data.path, {});
    assertEquals(ran.code, 0, ran.stderr);
    assertEquals(JSON.parse(ran.stdout).rows, [[599]]);
  } finally {
    await data.cleanup();
  }
});

Deno.test("the node's permissions deny other files, other hosts and other variables", async () => {
  const data = await tempDir("svc-entry-");
  const other = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("reached"));
  try {
    const store = join(data.path, "svc-data");
    await Deno.mkdir(store);
    const layout = { app: ROOT, deno: Deno.execPath(), duckdbBinding: findDuckdbBinding(ROOT)!, data: data.path };
    assert(layout.duckdbBinding, "a DuckDB binding is installed");
    const probe = async (flags: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          "--no-prompt",
          ...flags,
          join(ROOT, "tests/container/_probe.ts"),
          "--store",
          store,
          "--other",
          `http://127.0.0.1:${other.addr.port}/`,
        ],
        env: { SVC_NODE_PORT: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
      return JSON.parse(new TextDecoder().decode(out.stdout));
    };
    const node = await probe(nodePermissions(layout, {
      store,
      trustFile: join(data.path, "trust.json"),
      trustWrite: false,
      bind: { host: "127.0.0.1", port: freePort() },
      calls: ["https://origin.example"],
      readOnly: false,
    }));
    assertEquals(node, {
      readShadow: "NotCapable",
      readPasswd: "NotCapable",
      readStore: "ok",
      writeEtc: "NotCapable",
      fetchOther: "NotCapable",
      envHome: "NotCapable",
      envSvc: "ok",
      runShell: "NotCapable",
    });
    const command = await probe(commandPermissions(layout));
    assertEquals(command.readShadow, "NotCapable");
    assertEquals(command.writeEtc, "NotCapable");
    assertEquals(command.fetchOther, "ok");
  } finally {
    await other.shutdown();
    await data.cleanup();
  }
});
