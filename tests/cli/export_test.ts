import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { DENO_RUN, runCli } from "../support/cli_process.ts";
import { withNode } from "../support/node.ts";
import { tempDir } from "../support/store_fixture.ts";

/** The export as a fresh full download gives it, and its ETag. */
async function fresh(url: string, version: number): Promise<{ bytes: Uint8Array<ArrayBuffer>; etag: string }> {
  const res = await fetch(`${url}/projects/cities/export?version=${version}`);
  return { etag: res.headers.get("etag")!, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** A stand-in node that answers every export request with `answer`, recording the requests' headers. */
function fakeNode(answer: (req: Request) => Response | Promise<Response>) {
  const seen: Headers[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen.push(req.headers);
    return answer(req);
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

Deno.test("svc export: the newest version by default into ./SLUG-vN.jsonl.gz, -o FILE, -o - to stdout, --json", async () => {
  await withNode({}, async ({ url }) => {
    const dir = await tempDir();
    try {
      const base = ["--base-url", url, "--api-key", "k"];
      const run = await runCli(["export", "cities", ...base], {}, { cwd: dir.path });
      assertEquals(run.code, 0, run.stderr);
      assertMatch(run.stdout, /^cities v2: 600 records, \d+\.\d kB -> cities-v2\.jsonl\.gz\n$/);
      assertMatch(run.stderr, /^export cities v2: \d+\.\d kB in \d+\.\d s\n$/, "one summary line, no bar, in a log");
      assertEquals(await readdir(dir.path), ["cities-v2.jsonl.gz"], "no .part left behind");
      const v2 = await fresh(url, 2);
      assertEquals(new Uint8Array(await readFile(join(dir.path, "cities-v2.jsonl.gz"))), v2.bytes);

      const out = join(dir.path, "one.gz");
      const json = await runCli(["export", "cities@1", "-o", out, "--json", "--no-progress", ...base]);
      assertEquals(json.stderr, "", "--no-progress: nothing on stderr");
      const result = JSON.parse(json.stdout);
      assertEquals(
        [result.project, result.version, result.file, result.records, result.resumedFrom],
        ["cities", 1, out, 250, 0],
      );
      const lines = new TextDecoder().decode(gunzipSync(await readFile(out))).trimEnd().split("\n");
      assertEquals(lines.length, 250);

      const piped = await new Deno.Command(Deno.execPath(), {
        args: [...DENO_RUN, "-A", "cli.ts", "export", "cities", "--version", "2", "-o", "-", "--no-progress", ...base],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(piped.code, 0, new TextDecoder().decode(piped.stderr));
      assertEquals(piped.stdout, v2.bytes, "-o - writes the export to stdout");
      assertEquals((await runCli(["export", "cities", "-o", "-", "--json", ...base])).code, 2);
    } finally {
      await dir.cleanup();
    }
  });
});

Deno.test("svc export: clear 404s, usage errors for hostile slugs and versions; a key only where the node has a token", async () => {
  await withNode({}, async ({ url }) => {
    const dir = await tempDir();
    try {
      const base = ["--base-url", url, "--api-key", "k"];
      const missing = await runCli(["export", "nowhere", ...base], {}, { cwd: dir.path });
      assertEquals([missing.code, missing.stderr], [
        1,
        `error: project "nowhere" not found on this node (HTTP 404) — asked ${url}\n`,
      ]);
      const gone = await runCli(["export", "cities@9", ...base], {}, { cwd: dir.path });
      assertEquals([gone.code, gone.stderr], [
        1,
        `error: version 9 is not on this node (newest 2, 2 versions held) (HTTP 404) — asked ${url}\n`,
      ]);
      for (
        const args of [["../x"], ["cities/../../etc"], ["cities@-1"], ["cities", "--version", "0"], ["a", "b"], []]
      ) {
        const run = await runCli(["export", ...args, ...base], {}, { cwd: dir.path });
        assertEquals(run.code, 2, args.join(" "));
        assertMatch(run.stderr, /^error: /);
      }
      assertEquals(await readdir(dir.path), [], "nothing written by a failed export");
      const keyless = await runCli(["export", "cities@1", "--base-url", url], {}, { cwd: dir.path });
      assertEquals(keyless.code, 0, "a node without a token needs no key for an export");
    } finally {
      await dir.cleanup();
    }
  });
  await withNode({ token: "node-token-0123456789" }, async ({ url }) => {
    const dir = await tempDir();
    try {
      const refused = await runCli(["export", "cities@1", "--base-url", url], {}, { cwd: dir.path });
      assertEquals(refused.code, 1);
      assertEquals(
        refused.stderr,
        "error: this node needs its token: Authorization: Bearer <token> (HTTP 401): " +
          "pass the node's token as the key, with --api-key TOKEN or SVC_API_KEY\n",
      );
      const taken = await runCli(["export", "cities", "--base-url", url, "--api-key", "node-token-0123456789"], {}, {
        cwd: dir.path,
      });
      assertEquals(taken.code, 0, taken.stderr);
      assertEquals(await readdir(dir.path), ["cities-v2.jsonl.gz"]);
    } finally {
      await dir.cleanup();
    }
  });
});

Deno.test("svc export resumes a cut download from FILE.part; the file equals a fresh full download", async () => {
  await withNode({}, async ({ url }) => {
    const dir = await tempDir();
    try {
      const base = ["--base-url", url, "--api-key", "k"];
      const v2 = await fresh(url, 2);
      const out = join(dir.path, "c.jsonl.gz");
      const cut = async (bytes: Uint8Array, etag: string | null) => {
        await writeFile(`${out}.part`, bytes);
        if (etag !== null) await writeFile(`${out}.part.etag`, etag + "\n");
      };
      const whole = async () => assertEquals(new Uint8Array(await readFile(out)), v2.bytes);

      const half = Math.floor(v2.bytes.length / 2);
      await cut(v2.bytes.subarray(0, half), v2.etag);
      const resumed = await runCli(["export", "cities@2", "-o", out, ...base]);
      assertEquals(resumed.code, 0, resumed.stderr);
      assertMatch(resumed.stdout, /600 records, .* \(resumed at \d+\.\d kB\)\n$/);
      await whole();
      assertEquals((await readdir(dir.path)).sort(), ["c.jsonl.gz"]);

      await cut(v2.bytes, v2.etag);
      const complete = await runCli(["export", "cities@2", "-o", out, "--json", ...base]);
      assertEquals(JSON.parse(complete.stdout).resumedFrom, v2.bytes.length, "a whole .part (416) is only checked");
      await whole();

      await cut(v2.bytes.subarray(0, half), null);
      const untagged = await runCli(["export", "cities@2", "-o", out, "--json", ...base]);
      assertEquals(JSON.parse(untagged.stdout).resumedFrom, 0, "a .part without its tag starts over");
      await whole();

      const v1 = await fresh(url, 1);
      await cut(v1.bytes.subarray(0, 100), v1.etag);
      const stale = await runCli(["export", "cities@2", "-o", out, "--json", ...base]);
      assertEquals(JSON.parse(stale.stdout).resumedFrom, 0, "the .part of another export starts over (If-Range)");
      await whole();

      await cut(new TextEncoder().encode("junk that is not the export's first bytes"), v2.etag);
      const junk = await runCli(["export", "cities@2", "-o", out, ...base]);
      assertEquals(junk.code, 1);
      assertMatch(junk.stderr, /^error: the export of cities v2 is not whole gzip \(.*\); the download was removed/);
      assert(!(await readdir(dir.path)).some((f) => f.includes(".part")), "the bad .part and its tag are gone");
      assertEquals((await runCli(["export", "cities@2", "-o", out, ...base])).code, 0);
      await whole();
    } finally {
      await dir.cleanup();
    }
  });
});

/** A stand-in node that sends the headers of the whole export and half its bytes, then drops the connection. */
function cuttingNode(bytes: Uint8Array, etag: string) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const conn of listener) {
      const head = `HTTP/1.1 200 OK\r\ncontent-type: application/gzip\r\netag: ${etag}\r\n` +
        `content-length: ${bytes.length}\r\nconnection: close\r\n\r\n`;
      await conn.read(new Uint8Array(8192));
      await conn.write(new TextEncoder().encode(head));
      await conn.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      conn.close();
    }
  })();
  return {
    url: `http://127.0.0.1:${listener.addr.port}`,
    close: async () => {
      listener.close();
      await serving.catch(() => {});
    },
  };
}

Deno.test("svc export: a node answering 200 to a Range request, and a connection cut mid-body", async () => {
  await withNode({}, async ({ url }) => {
    const dir = await tempDir();
    const v2 = await fresh(url, 2);
    const headers = { "content-type": "application/gzip", etag: v2.etag };
    const ignoring = fakeNode(() => new Response(v2.bytes, { headers }));
    const cutting = cuttingNode(v2.bytes, v2.etag);
    try {
      const out = join(dir.path, "c.gz");
      await writeFile(`${out}.part`, v2.bytes.subarray(0, 1000));
      await writeFile(`${out}.part.etag`, v2.etag);
      const over = await runCli([
        "export",
        "cities@2",
        "-o",
        out,
        "--json",
        "--base-url",
        ignoring.url,
        "--api-key",
        "k",
      ]);
      assertEquals(over.code, 0, over.stderr);
      assertEquals(ignoring.seen[0].get("range"), "bytes=1000-");
      assertEquals(ignoring.seen[0].get("if-range"), v2.etag);
      assertEquals(JSON.parse(over.stdout).resumedFrom, 0, "a 200 starts the file over");
      assertEquals(new Uint8Array(await readFile(out)), v2.bytes);

      const broken = await runCli(["export", "cities@2", "-o", out, "--base-url", cutting.url, "--api-key", "k"]);
      assertEquals(broken.code, 1);
      assertMatch(
        broken.stderr,
        /error: .*: the export of cities v2 broke off after \d+ bytes \(.*\); run it again to resume/,
      );
      const kept = (await readFile(`${out}.part`)).length;
      assert(kept > 0 && kept < v2.bytes.length, `a part was kept: ${kept}`);
      const finished = await runCli(["export", "cities@2", "-o", out, "--json", "--base-url", url, "--api-key", "k"]);
      assertEquals(JSON.parse(finished.stdout).resumedFrom, kept, "the real node serves the rest");
      assertEquals(new Uint8Array(await readFile(out)), v2.bytes);
    } finally {
      await ignoring.close();
      await cutting.close();
      await dir.cleanup();
    }
  });
});
