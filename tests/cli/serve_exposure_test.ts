import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { openSocket, rawRequest } from "../support/raw_http.ts";
import { runCli, type ServeProcess, startServe } from "../support/cli_process.ts";
import { fewestProbes, slowBodyAttack } from "../support/slow_body_attack.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

const TOKEN = "exposure-token-0123456789";

async function alive(node: ServeProcess): Promise<boolean> {
  const exited = await Promise.race([node.status.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))]);
  return !exited;
}

async function healthz(port: number): Promise<number> {
  return (await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`))
    .status;
}

type Sockets = Awaited<ReturnType<typeof openSocket>>[];

/** Runs `fn` against `svc serve args` at `ulimit -n 256` over a fresh store, then checks SIGTERM exits 0. */
async function withLimitedNode(
  args: string[],
  fn: (node: ServeProcess, port: number, sockets: Sockets) => Promise<void>,
): Promise<void> {
  const dir = await tempDir();
  const sockets: Sockets = [];
  try {
    await citiesStore(dir.path);
    const node = await startServe(["--store", dir.path, "--token", TOKEN, "--quiet", ...args], {}, { nofile: 256 });
    try {
      await fn(node, Number(new URL(node.url).port), sockets);
    } finally {
      node.child.kill("SIGTERM");
      assertEquals((await node.status).code, 0);
    }
  } finally {
    for (const s of sockets) s.destroy();
    await dir.cleanup();
  }
}

Deno.test("svc serve survives running out of descriptors: idle sockets past ulimit -n neither kill nor wedge it", async () => {
  await withLimitedNode(["--max-connections", "5000"], async (node, port, sockets) => {
    for (let i = 0; i < 400; i++) sockets.push(await openSocket(port));
    await new Promise((r) => setTimeout(r, 1000));
    assert(await alive(node), "the node is still running with 400 idle sockets at ulimit -n 256");
    const shed = sockets.filter((s) => s.isClosed()).length;
    assert(shed > 0, "connections beyond the descriptors were closed, not left waiting");
    for (const s of sockets.splice(0)) s.destroy();
    await new Promise((r) => setTimeout(r, 500));
    assertEquals(await healthz(port), 200, "once descriptors are free it serves again");
    const warnings = node.stderr().split("\n").filter((l) => /accepting a connection failed/.test(l));
    assertEquals(warnings.length, 1, "one warning for the episode:\n" + node.stderr());
    assertMatch(warnings[0], /Too many open files|os error 24/);
  });
});

Deno.test("svc serve caps connections at --max-connections: young ones are kept (503), silent ones give way", async () => {
  await withLimitedNode(["--max-connections", "4"], async (node, port, sockets) => {
    for (let i = 0; i < 4; i++) sockets.push(await openSocket(port));
    const refused = await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    assertEquals([refused.status, refused.headers["retry-after"]], [503, "1"]);
    await new Promise((r) => setTimeout(r, 1200));
    assertEquals(await healthz(port), 200, "a connection silent for a second gave its slot");
    assertEquals(sockets.filter((s) => s.isClosed()).length, 1);
    for (let i = 0; i < 300; i++) sockets.push(await openSocket(port));
    assert(await alive(node));
    for (const s of sockets.splice(0)) s.destroy();
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(await healthz(port), 200);
  });
});

Deno.test("svc serve: 64 slow bodies without the token never keep a token holder waiting a second", async () => {
  await withLimitedNode(["--max-connections", "64"], async (node, port) => {
    const outcome = await slowBodyAttack(port, { token: TOKEN, slug: "cities", seconds: 8 });
    const slow = outcome.probes.filter((p) => p.status !== 200 || p.ms >= 1000);
    assertEquals(slow, [], `every request of the token holder was answered 200 within a second`);
    assert(outcome.probes.length >= fewestProbes(8), `${outcome.probes.length} requests were made`);
    assert(outcome.reopened >= 32, `the node let attack connections go (${outcome.reopened})`);
    assert(await alive(node));
  });
});

Deno.test("svc serve closes a silent connection after 10 s and an idle kept-alive one after 5 s", async () => {
  const dir = await tempDir();
  try {
    const node = await startServe(["--store", dir.path, "--quiet"]);
    const port = Number(new URL(node.url).port);
    try {
      const silent = await openSocket(port);
      const kept = await openSocket(port);
      kept.send(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await kept.waitFor('"ok":true');
      const idleMs = await kept.closed;
      const silentMs = await silent.closed;
      assert(idleMs >= 4500 && idleMs < 7000, `idle keep-alive closed after ${idleMs} ms`);
      assert(silentMs >= 9500 && silentMs < 12_000, `silent connection closed after ${silentMs} ms`);
      assertEquals(silent.received(), "", "closed without an answer: it asked nothing");
    } finally {
      node.child.kill("SIGTERM");
      await node.status;
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("SIGTERM gives a request in flight 5 s, then exits 0", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const node = await startServe(["--store", dir.path, "--quiet"]);
    const port = Number(new URL(node.url).port);
    const sql = JSON.stringify({ sql: "SELECT count(*) FROM range(100000000000) a" });
    const s = await openSocket(port);
    s.send(
      `POST /projects/cities/query HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${sql.length}\r\n\r\n${sql}`,
    );
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    node.child.kill("SIGTERM");
    const status = await node.status;
    const took = Date.now() - started;
    assertEquals(status.code, 0);
    assert(took >= 4500 && took < 9000, `exited ${took} ms after SIGTERM`);
    await s.closed;
  } finally {
    await dir.cleanup();
  }
});

Deno.test("a malformed or cut request body is logged as the client's 4xx, with no error or stack trace", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const node = await startServe(["--store", dir.path, "--token", TOKEN]);
    const port = Number(new URL(node.url).port);
    try {
      const head = `POST /projects/cities/query HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n`;
      const bad = await rawRequest(port, `${head}Transfer-Encoding: chunked\r\n\r\n5 \r\n{"sql\r\n0\r\n\r\n`);
      assertEquals(bad.status, 400);
      assertMatch(JSON.parse(bad.body).error, /bad chunk size/);
      const cut = await openSocket(port);
      cut.send(`${head}Content-Length: 100\r\n\r\n{"sql": "sel`);
      await new Promise((r) => setTimeout(r, 300));
      cut.destroy();
      const logged = async (pattern: RegExp) => {
        for (let i = 0; i < 100 && !pattern.test(node.stderr()); i++) await new Promise((r) => setTimeout(r, 20));
        return node.stderr();
      };
      const log = await logged(/query 400 [^]*query 400 /);
      assertEquals(log.match(/ POST \/projects\/cities\/query \d+ /g), [
        " POST /projects/cities/query 400 ",
        " POST /projects/cities/query 400 ",
      ]);
      assert(!/error:|\n {4}at /.test(log), `no error lines:\n${log}`);
    } finally {
      node.child.kill("SIGTERM");
      await node.status;
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("the temp folders of a node killed with SIGKILL (SQL workers, DuckDB engines, Parquet writers) are removed when a node starts", async () => {
  const dir = await tempDir();
  const temp = await tempDir("svc-tmpdir-");
  try {
    await citiesStore(dir.path);
    const env = { TMPDIR: temp.path };
    const killed = await startServe(["--store", dir.path, "--quiet"], env);
    const port = Number(new URL(killed.url).port);
    const query = JSON.stringify({ sql: "SELECT count(*) AS n FROM records" });
    const answer = await rawRequest(
      port,
      `POST /projects/cities/query HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${query.length}\r\nConnection: close\r\n\r\n${query}`,
    );
    assertEquals(answer.status, 200, answer.body);
    const parquet = await fetch(`${killed.url}/projects/cities/data?format=parquet&id__lt=10`);
    assertEquals(parquet.status, 200);
    await parquet.arrayBuffer();
    killed.child.kill("SIGKILL");
    await killed.status;
    const left = () =>
      [...Deno.readDirSync(temp.path)].map((e) => e.name).filter((n) => /^svc-(sql|read|parquet-writer)-/.test(n));
    const behind = left();
    assert(behind.some((n) => n.startsWith("svc-sql-")), "the killed node left its workers' folders behind");
    assert(behind.some((n) => n.startsWith("svc-parquet-writer-")), "and the folder of the writer it kept");
    assert(behind.some((n) => n.startsWith("svc-read-")), "and its DuckDB engines' folders");
    const next = await startServe(["--store", dir.path], env);
    try {
      assertEquals(left().filter((n) => behind.includes(n)), []);
      assertMatch(next.stderr(), /removed \d+ temp folder\(s\) of SQL workers, DuckDB engines and Parquet writers/);
    } finally {
      next.child.kill("SIGTERM");
      await next.status;
    }
    // A command line in error prints its error alone, though the start sweeps a dead node's folder first.
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    await Deno.mkdir(`${temp.path}/svc-sql-${dead.pid}-stale`);
    const refused = await runCli(["serve", "--store", dir.path, "--port", "0", "--keep-versions", "0"], env);
    assertEquals([refused.code, refused.stderr], [
      2,
      'error: --keep-versions must be an integer from 1 to 1000000000, not "0"\n',
    ]);
  } finally {
    await dir.cleanup();
    await temp.cleanup();
  }
});
