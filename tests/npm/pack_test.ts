/**
 * The npm form of svc, for real: build it, `npm pack` it, install the
 * tarball into an empty folder (fetching `@duckdb/node-api` from the
 * registry), and run its `svc` bin under Node against a fixture store.
 *
 * @module
 */
import { gunzipSync } from "node:zlib";
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import { toolOperations } from "../../src/catalog/mod.ts";
import { APP_JS } from "../../src/node/ui/_app_js.ts";
import { PAYMENT_PACKAGES } from "../../src/origin/pay/packages.ts";
import { freePort } from "../support/cli_process.ts";
import { installPackedNpm } from "../support/npm_package.ts";
import { openSocket, rawRequest } from "../support/raw_http.ts";
import { fewestProbes, slowBodyAttack } from "../support/slow_body_attack.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cmd` to completion in `cwd`. */
async function run(cmd: string, args: string[], cwd: string, env?: Record<string, string>): Promise<Ran> {
  const out = await new Deno.Command(cmd, { args, cwd, env, clearEnv: env !== undefined, stdin: "null" }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

/** Collects a child's output stream as text; resolves when the stream ends. */
async function collect(stream: ReadableStream<Uint8Array>, sink: { text: string }): Promise<void> {
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) sink.text += chunk;
}

/** Resolves with `promise`, or rejects after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const body = await res.text();
  assert.equal(res.status, 200, `GET ${url}: ${body}`);
  return JSON.parse(body) as T;
}

Deno.test("npm package: packs, installs and serves a store under Node", async (t) => {
  const work = await tempDir("svc-npm-test-");
  let server: Deno.ChildProcess | null = null;
  const serverErr = { text: "" };
  const drains: Promise<void>[] = [];
  try {
    const { built, packed: info, svc, app } = await installPackedNpm(work.path);
    const pinned = (name: string) => (denoJson.imports as Record<string, string>)[name].replace(`npm:${name}@`, "");
    assert.deepEqual(built.dependencies, {
      "@duckdb/node-api": pinned("@duckdb/node-api"),
      "@duckdb/node-bindings": pinned("@duckdb/node-bindings"),
      "@modelcontextprotocol/sdk": pinned("@modelcontextprotocol/sdk"),
      "@x402/evm": PAYMENT_PACKAGES["@x402/evm"],
      "@x402/fetch": PAYMENT_PACKAGES["@x402/fetch"],
      viem: PAYMENT_PACKAGES.viem,
      zod: pinned("zod"),
    });
    assert(!("ethers" in built.dependencies), "ethers is the tests' alone");

    console.log(`packed ${info.filename}: ${info.size} bytes, ${info.entryCount} files`);

    await t.step("the tarball is @svc/cli: own README, license, engines, repository, no Deno entry files", async () => {
      assert.deepEqual(info.filename, `svc-cli-${denoJson.version}.tgz`);
      const pkg = JSON.parse(await readFile(join(built.outDir, "package.json"), "utf8"));
      assert.deepEqual(pkg.name, "@svc/cli");
      assert.deepEqual(pkg.license, "MIT");
      assert.deepEqual(pkg.engines, { node: ">=20" });
      assert.deepEqual(pkg.bin, { svc: "bin/svc.js" });
      assert(pkg.repository?.url?.startsWith("git+https://"));
      const paths = info.files.map((f) => f.path);
      for (const name of ["README.md", "LICENSE", "package.json", "bin/svc.js", "cli.js", "mod.d.ts"]) {
        assert(paths.includes(name), `${name} is packed`);
      }
      assert(!paths.some((p) => p.endsWith(".ts") && !p.endsWith(".d.ts")), "no TypeScript sources are packed");
      assert(!paths.some((p) => /^(tests|scripts|\.ci)\//.test(p)), "no tests or scripts are packed");
      const readme = await readFile(join(built.outDir, "README.md"), "utf8");
      assert.match(readme, /npx @svc\/cli serve/);
      assert.match(readme, /import \{ Client \} from "@svc\/cli"/);
      assert(!/cli\.ts|\bdeno (run|task)\b/.test(readme), "the npm README has no Deno commands");
    });

    await t.step("svc --version prints deno.json's version", async () => {
      const ran = await run(svc, ["--version"], app);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(ran.stdout, `svc (svc-sdk) ${denoJson.version}\n`);
    });

    await t.step("npx svc runs the installed bin", async () => {
      const ran = await run("npx", ["--no-install", "svc", "--version"], app);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(ran.stdout, `svc (svc-sdk) ${denoJson.version}\n`);
    });

    await t.step(
      "the one svc command offers the origin's commands too, its part loaded through the package's exports",
      async () => {
        const help = await run(svc, ["--help"], app);
        assert.equal(help.code, 0, help.stderr);
        assert.match(help.stdout, /\n {2}search +search the published knowledge units\n/);
        const search = await run(svc, ["help", "search"], app);
        assert.equal(search.code, 0, search.stderr);
        assert.match(search.stdout, /^Usage: svc search /);
      },
    );

    await t.step("the package's exports load under Node", async () => {
      const pkg = JSON.parse(await readFile(join(built.outDir, "package.json"), "utf8"));
      assert.deepEqual(Object.keys(pkg.exports).sort(), [
        ".",
        "./cli",
        "./client",
        "./command",
        "./errors",
        "./local",
        "./origin",
        "./origin/cli",
        "./origin/pay",
        "./pay",
        "./server",
        "./wire",
      ]);
      assert.deepEqual(pkg.exports["./pay"], {
        types: "./src/origin/pay/mod.d.ts",
        default: "./src/origin/pay/mod.js",
      });
      assert.deepEqual(pkg.exports["./origin"], { types: "./src/origin/mod.d.ts", default: "./src/origin/mod.js" });
      assert.deepEqual(pkg.exports["./local"], { types: "./src/local/mod.d.ts", default: "./src/local/mod.js" });
      const script = `const [m, l, s, c, p] = await Promise.all([
          import("@svc/cli"), import("@svc/cli/local"), import("@svc/cli/server"), import("@svc/cli/cli"),
          import("@svc/cli/pay"),
        ]);
        const wallet = await p.openWallet("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
        console.log(JSON.stringify([m.VERSION, typeof l.pull, typeof l.queryLocal, typeof s.serveNode, typeof c.main,
          "pull" in m.Client.prototype, typeof p.buy, wallet.address]));`;
      const ran = await run("node", ["--input-type=module", "-e", script], app);
      assert.equal(ran.code, 0, ran.stderr);
      assert.deepEqual(JSON.parse(ran.stdout), [
        denoJson.version,
        "function",
        "function",
        "function",
        "function",
        false,
        "function",
        "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23",
      ]);
    });

    const store = join(work.path, "store");
    const { v2 } = await citiesStore(store);

    await t.step("refuses a non-loopback host without a token", async () => {
      const env = Deno.env.toObject();
      delete env.SVC_NODE_TOKEN;
      const ran = await run(svc, ["serve", "--store", store, "--host", "0.0.0.0", "--port", `${freePort()}`], app, env);
      assert.equal(ran.code, 1, ran.stderr);
      assert.match(ran.stderr, /^error: refusing/);
    });

    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = new Deno.Command(svc, {
      args: ["serve", "--store", store, "--port", `${port}`],
      cwd: app,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    server = child;
    drains.push(collect(child.stdout, { text: "" }), collect(child.stderr, serverErr));
    const deadline = Date.now() + 20_000;
    while (true) {
      const up = await fetch(`${base}/healthz`).then((r) => r.body?.cancel().then(() => true) ?? true, () => false);
      if (up) break;
      const done = await Promise.race([child.status, new Promise<null>((r) => setTimeout(() => r(null), 100))]);
      if (done) throw new Error(`svc serve exited ${done.code}:\n${serverErr.text}`);
      if (Date.now() > deadline) throw new Error(`svc serve did not answer /healthz in 20 s:\n${serverErr.text}`);
    }

    await t.step("GET /projects lists the store's projects", async () => {
      const { projects } = await getJson<{ projects: { slug: string }[] }>(`${base}/projects`);
      assert.deepEqual(projects.map((p) => p.slug).sort(), ["bare", "cities"]);
    });

    await t.step("the browser interface is served under Node, the same script as under Deno", async () => {
      const shell = await fetch(`${base}/`);
      assert.equal(shell.status, 200);
      assert.equal(shell.headers.get("content-type"), "text/html; charset=utf-8");
      assert.match(shell.headers.get("content-security-policy") ?? "", /^default-src 'none'; script-src 'self';/);
      assert.match(await shell.text(), /<script src="\/ui\/app\.js" defer><\/script>/);
      const script = await fetch(`${base}/ui/app.js`);
      assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
      assert.equal(await script.text(), APP_JS);
    });

    await t.step("GET /projects/cities/data pages the latest version", async () => {
      const page = await getJson<{ version: number; count: number; records: { id: number }[] }>(
        `${base}/projects/cities/data?limit=2&offset=249`,
      );
      assert.equal(page.version, 2);
      assert.equal(page.count, 2);
      assert.deepEqual(page.records.map((r) => r.id), [249, 250]);
    });

    await t.step("manifest part URLs point at this node and serve the part's bytes", async () => {
      const manifest = await getJson<{ version: number; parts: { sha256: string; url: string }[] }>(
        `${base}/projects/cities/manifest`,
      );
      assert.equal(manifest.version, 2);
      const want = (v2.manifest.parts as { sha256: string }[]).map((p) => p.sha256);
      assert.deepEqual(manifest.parts.map((p) => p.sha256), want);
      for (const part of manifest.parts) assert.equal(part.url, `${base}/parts/cities/${part.sha256}.parquet`);
      const last = manifest.parts.length - 1;
      const res = await fetch(manifest.parts[last].url);
      assert.equal(res.status, 200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual(bytes, new Uint8Array(await readFile(v2.partPaths[last])));
    });

    await t.step("POST /query runs SQL on a worker process under Node", async () => {
      const res = await fetch(`${base}/projects/cities/query`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql: "SELECT count(*) AS n, max(id) AS top FROM records" }),
      });
      const body = await res.json();
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.deepEqual(body.rows, [[600, 599]]);
      const refused = await fetch(`${base}/projects/cities/query`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql: "SELECT * FROM read_text('/etc/passwd')" }),
      });
      assert.equal(refused.status, 400);
      await refused.body?.cancel();
    });

    await t.step("the README's client example runs under Node", async () => {
      const readme = await readFile(join(built.outDir, "README.md"), "utf8");
      const example = /```js\n([\s\S]*?)```/.exec(readme)![1].replace("http://127.0.0.1:8686", base);
      // As the README says, in the default (CommonJS) project `npm init -y` made.
      const name = /Save this as `([^`]+)`/.exec(readme)![1];
      assert.equal(JSON.parse(await readFile(join(app, "package.json"), "utf8")).type ?? "commonjs", "commonjs");
      await writeFile(join(app, name), example);
      const ran = await run("node", [name], app);
      assert.deepEqual(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /city-0/);
      assert.match(ran.stdout, /\[ 600 \]/);
    });

    await t.step("POST /mcp answers MCP under Node", async () => {
      const call = (id: number, method: string, params: unknown) =>
        fetch(`${base}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
        }).then((r) => r.json());
      const init = await call(1, "initialize", {
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "pack-test", version: "1" },
      });
      assert.equal(init.result.serverInfo.name, "svc-node");
      const listed = await call(2, "tools/list", {});
      assert.deepEqual(
        listed.result.tools.map((t: { name: string }) => t.name).sort(),
        toolOperations().map((o) => o.tool.name).sort(),
      );
      const read = await call(3, "tools/call", { name: "read_dataset", arguments: { slug: "cities", limit: 3 } });
      assert.deepEqual(read.result.structuredContent.records.map((r: { id: number }) => r.id), [0, 1, 2]);
      const odd = await call(4, "tools/call", {
        name: "dataset_info",
        arguments: { slug: "cities", constructor: null },
      });
      assert.equal(odd.error?.message, "dataset_info: unknown argument constructor (dataset_info takes slug)");
    });

    await t.step("under Node, a field or Idempotency-Key named like Object's members is a plain name", async () => {
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const fields = [{ name: "id", type: "integer" }, { name: "toString", type: "string", required: false }];
      const readme = "Fields named like the members of Object.";
      const made = await post("/projects", { slug: "members", title: "Members", readme, schemaDef: { fields } });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      for (const [i, key] of ["__proto__", "constructor"].entries()) {
        const body = { records: [{ id: i }] };
        const first = await post("/projects/members/contribute", body, { "idempotency-key": key });
        const again = await post("/projects/members/contribute", body, { "idempotency-key": key });
        assert.deepEqual([first.status, again.status, again.body.id], [201, 200, first.body.id], key);
      }
      const page = await (await fetch(`${base}/projects/members/data`)).json();
      assert.deepEqual(page.records, [{ id: 0 }, { id: 1 }]);
    });

    await t.step("GET /export streams gzip JSON lines under Node", async () => {
      const res = await fetch(`${base}/projects/cities/export?version=1`);
      assert.equal(res.status, 200);
      const text = new TextDecoder().decode(gunzipSync(new Uint8Array(await res.arrayBuffer())));
      assert.equal(text.trimEnd().split("\n").length, 250);
    });

    await t.step("a version's CSV and JSON lines download whole under Node", async () => {
      const csv = await fetch(`${base}/projects/cities/data?format=csv&version=1`);
      assert.equal(csv.status, 200);
      const rows = (await csv.text()).trimEnd().split("\n");
      assert.equal(rows.length, 251);
      assert.ok(rows[0].startsWith("id,"), rows[0]);
      const jsonl = await fetch(`${base}/projects/cities/data?format=jsonl&version=1&offset=240`);
      const lines = (await jsonl.text()).trimEnd().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(lines.map((r: { id: number }) => r.id), [240, 241, 242, 243, 244, 245, 246, 247, 248, 249]);
    });

    await t.step("under Node the Host guard checks the port and an absolute-form target's authority", async () => {
      const own = await rawRequest(
        port,
        `GET /projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(own.status, 200);
      const otherPort = await rawRequest(
        port,
        `GET /projects HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(otherPort.status, 403);
      const absolute = await rawRequest(
        port,
        `GET http://evil.example:4444/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(absolute.status, 403);
    });

    await t.step("under Node, sockets past the cap and past ulimit -n neither kill nor wedge the node", async () => {
      const exposedPort = freePort();
      const token = "npm-exposure-token-0123";
      const exposed = new Deno.Command("bash", {
        args: ["-c", `ulimit -n 256 && exec "$@"`, "bash", svc, "serve", "--store", store, "--port", `${exposedPort}`],
        cwd: app,
        env: { SVC_NODE_TOKEN: token, SVC_NODE_MAX_CONNECTIONS: "5000" },
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      const err = { text: "" };
      const drained = collect(exposed.stderr, err);
      const sockets: Awaited<ReturnType<typeof openSocket>>[] = [];
      try {
        const until = Date.now() + 20_000;
        while (!/serving/.test(err.text) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        for (let i = 0; i < 400; i++) sockets.push(await openSocket(exposedPort));
        await new Promise((r) => setTimeout(r, 1000));
        const exited = await Promise.race([exposed.status, new Promise<null>((r) => setTimeout(() => r(null), 50))]);
        assert.equal(exited, null, `the node died: ${err.text}`);
        for (const s of sockets.splice(0)) s.destroy();
        await new Promise((r) => setTimeout(r, 500));
        const health = await rawRequest(
          exposedPort,
          `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${exposedPort}\r\nConnection: close\r\n\r\n`,
        );
        assert.equal(health.status, 200, err.text);
      } finally {
        for (const s of sockets) s.destroy();
        exposed.kill("SIGTERM");
        assert.equal((await within(exposed.status, 10_000, "the exposed node after SIGTERM")).code, 0, err.text);
        await drained;
      }
    });

    await t.step(
      "under Node, 64 slow bodies without the token never keep a token holder waiting a second",
      async () => {
        const attackedPort = freePort();
        const token = "npm-slow-body-token-0123";
        const attacked = new Deno.Command(svc, {
          args: ["serve", "--store", store, "--port", `${attackedPort}`, "--quiet"],
          cwd: app,
          env: { SVC_NODE_TOKEN: token },
          stdin: "null",
          stdout: "null",
          stderr: "piped",
        }).spawn();
        const err = { text: "" };
        const drained = collect(attacked.stderr, err);
        try {
          const until = Date.now() + 20_000;
          while (Date.now() < until) {
            const up = await rawRequest(
              attackedPort,
              `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${attackedPort}\r\nConnection: close\r\n\r\n`,
            ).then((r) => r.status === 200, () => false);
            if (up) break;
            await new Promise((r) => setTimeout(r, 100));
          }
          const outcome = await slowBodyAttack(attackedPort, { token, slug: "cities", seconds: 6 });
          const slow = outcome.probes.filter((p) => p.status !== 200 || p.ms >= 1000);
          assert.deepEqual(slow, [], "every request of the token holder was answered 200 within a second");
          assert(outcome.probes.length >= fewestProbes(6), `${outcome.probes.length} requests were made`);
        } finally {
          attacked.kill("SIGTERM");
          assert.equal((await within(attacked.status, 10_000, "the attacked node after SIGTERM")).code, 0, err.text);
          await drained;
        }
      },
    );

    await t.step("SIGTERM stops the node with exit code 0", async () => {
      child.kill("SIGTERM");
      const status = await within(child.status, 5_000, "svc serve after SIGTERM");
      server = null;
      assert.equal(status.code, 0, serverErr.text);
      assert.match(serverErr.text, /stopping \(SIGTERM\)/);
    });
  } finally {
    if (server) {
      server.kill("SIGKILL");
      await server.status;
    }
    await Promise.all(drains);
    await work.cleanup();
  }
});
