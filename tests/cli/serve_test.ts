import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { VERSION } from "../../src/version.ts";
import { ROOT, runCli, startServe } from "../support/cli_process.ts";
import { citiesStore, citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";

Deno.test("svc --version prints `svc (svc-sdk) <release>` (origin-wire 7.1), the release deno.json's", async () => {
  const run = await runCli(["--version"]);
  assertEquals([run.code, run.stdout], [0, `svc (svc-sdk) ${VERSION}\n`]);
  assertEquals(JSON.parse(await readFile(`${ROOT}deno.json`, "utf8")).version, VERSION);
});

Deno.test("svc serve refuses a non-loopback host without a token: error and exit 1", async () => {
  const run = await runCli(["serve", "--host", "0.0.0.0", "--port", "0"]);
  assertEquals(run.code, 1);
  assertMatch(run.stderr, /^error: refusing to listen on 0\.0\.0\.0 without a token/);
});

Deno.test("svc serve: following without the origin, the key, or of a local project exits 1; bad flags exit 2", async () => {
  const follow = await runCli(["serve", "--follow", "cities", "--port", "0"], { SVC_BASE_URL: "", SVC_API_KEY: "" });
  assertEquals(follow.code, 1);
  assertMatch(follow.stderr, /^error: following needs the origin: --base-url or SVC_BASE_URL/);
  const keyless = await runCli(["serve", "--follow", "cities", "--base-url", "http://127.0.0.1:1"], {
    SVC_API_KEY: "",
  });
  assertMatch(keyless.stderr, /^error: following needs an agent key/);
  const dir = await tempDir();
  try {
    await mkdir(join(dir.path, "notes"), { recursive: true });
    await writeFile(join(dir.path, "notes", "project.json"), JSON.stringify({ slug: "notes", local: true }));
    const local = await runCli([
      "serve",
      "--store",
      dir.path,
      "--port",
      "0",
      "--follow",
      "notes",
      "--base-url",
      "http://127.0.0.1:1",
      "--api-key",
      "k",
    ]);
    assertEquals(local.code, 1);
    assertMatch(local.stderr, /^error: notes is a local project in .*; a local project cannot be followed/);
  } finally {
    await dir.cleanup();
  }
  for (const args of [["serve", "--port", "http"], ["serve", "--nope"], ["frobnicate"]]) {
    const run = await runCli(args);
    assertEquals(run.code, 2, args.join(" "));
    assertMatch(run.stderr, /^error: /);
  }
});

Deno.test("svc serve on a non-loopback host starts with SVC_NODE_TOKEN and asks for it", async () => {
  const dir = await tempDir();
  try {
    const node = await startServe(["--store", dir.path, "--host", "0.0.0.0"], {
      SVC_NODE_TOKEN: "tok-0123456789abcdef",
    });
    const port = new URL(node.url).port;
    const open = await fetch(`http://127.0.0.1:${port}/projects`);
    assertEquals(open.status, 401);
    await open.body?.cancel();
    const authed = await fetch(`http://127.0.0.1:${port}/projects`, {
      headers: { authorization: "Bearer tok-0123456789abcdef" },
    });
    assertEquals(await authed.json(), { projects: [] });
    node.child.kill("SIGTERM");
    assertEquals((await node.status).code, 0);
  } finally {
    await dir.cleanup();
  }
});

Deno.test("SIGTERM lets a request in flight finish, then exits 0; one log line per request", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    const part = await w.part("big", { sql: citySql(0, 400_000) });
    await w.version("big", 1, { parts: [{ sql: citySql(0, 400_000) }] });
    w.close();
    const node = await startServe(["--store", dir.path]);
    const res = await fetch(`${node.url}/parts/big/${part.sha256}.parquet`);
    const reader = res.body!.getReader();
    let received = (await reader.read()).value!.byteLength;
    assert(received < part.bytes, "the download is still in flight");
    node.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
    }
    assertEquals(received, part.bytes, "the in-flight download completed");
    const status = await node.status;
    assertEquals(status.code, 0);
    assertMatch(node.stderr(), /stopping \(SIGTERM\)/);
    assertEquals(node.stderr().split("\n").filter((l) => / GET \/parts\/big\//.test(l)).length, 1);
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("SIGINT exits 130; --quiet writes no request log", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const node = await startServe(["--store", dir.path, "--quiet"]);
    await (await fetch(`${node.url}/projects`)).body?.cancel();
    node.child.kill("SIGINT");
    assertEquals((await node.status).code, 130);
    assertEquals(/GET \/projects/.test(node.stderr()), false);
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc serve on a busy port names the port and how to take another, and exits 1", async () => {
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const dir = await tempDir();
  try {
    const port = (held.addr as Deno.NetAddr).port;
    const ran = await runCli(["serve", "--store", dir.path, "--port", String(port)]);
    assertEquals(ran.code, 1);
    assertMatch(
      ran.stderr,
      new RegExp(
        `error: port ${port} on 127\\.0\\.0\\.1 is already in use \\(another svc serve\\?\\): .*--port 0 takes a free one`,
      ),
    );
  } finally {
    held.close();
    await dir.cleanup();
  }
});

Deno.test("svc serve --json: once serving, one JSON line on stdout says where and how; the log stays on stderr", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}cli.ts`, "serve", "--store", dir.path, "--port", "0", "--read-only", "--json"],
      env: { SVC_NODE_TOKEN: "node-token-1234" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = new Response(child.stderr).text();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) break;
      out += value;
    }
    const said = JSON.parse(out.split("\n")[0]);
    const url = said.url as string;
    assertMatch(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assertEquals(
      { ...said, url: "URL", mcp: said.mcp === `${url}/mcp`, sandbox: Array.isArray(said.sandbox) },
      {
        url: "URL",
        mcp: true,
        store: dir.path,
        auth: "token",
        readOnly: true,
        follow: [],
        from: null,
        interval: null,
        sandbox: true,
      },
    );
    const health = await (await fetch(`${url}/healthz`, { headers: { authorization: "Bearer node-token-1234" } }))
      .json();
    assertEquals([health.node, health.readOnly], [true, true]);
    child.kill("SIGTERM");
    assertEquals((await child.status).code, 0);
    await lines.cancel();
    assertMatch(await stderr, /^svc node serving .* on http:\/\/127\.0\.0\.1:\d+ \(token required, read-only\)$/m);
  } finally {
    await dir.cleanup();
  }
});
