import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { runCli, spawnCli } from "../support/cli_process.ts";
import { NOTES, post } from "../support/local_project.ts";
import { withNode } from "../support/node.ts";
import { startOrigin } from "../support/origin.ts";
import { tempDir } from "../support/store_fixture.ts";

Deno.test("Ctrl-C during a long client command exits 130", async () => {
  const origin = await startOrigin();
  const dir = await tempDir();
  try {
    origin.fault("/projects/slow/manifest", { delayMs: 20_000 });
    const child = spawnCli(["pull", "slow", "--store", dir.path, "--base-url", origin.url, "--api-key", "k"]);
    await origin.waitFor("/projects/slow/manifest");
    child.kill("SIGINT");
    assertEquals((await child.status).code, 130);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});

Deno.test("Ctrl-C during svc contribute says what was sent and answered before it, then exits 130", async () => {
  await withNode({}, async ({ url }) => {
    assertEquals((await post(url, "/projects", NOTES)).status, 201);
    const child = spawnCli(["contribute", "notes", "--file", "-", "--base-url", url, "--api-key", "k"], {
      piped: true,
    });
    const stderr = new Response(child.stderr).text();
    const stdout = new Response(child.stdout).text();
    const writer = child.stdin.getWriter();
    const lines = Array.from({ length: 501 }, (_, i) => JSON.stringify({ id: i, text: `note ${i}` }) + "\n");
    await writer.write(new TextEncoder().encode(lines.join(""))); // the 501st line sends the first 500
    for (let i = 0; i < 200; i++) {
      const project = await (await fetch(`${url}/projects/notes`)).json();
      if (project.localVersions.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 1000)); // the answer reaches the command
    child.kill("SIGINT");
    assertEquals((await child.status).code, 130);
    await writer.close().catch(() => {});
    await stdout;
    assertEquals(
      await stderr,
      "interrupted: sent before the interrupt: notes: 500 records in 1 batch: 500 merged (version 1), 0 duplicates, " +
        "0 rejected\n(send the same file again: batches already answered replay instead of adding)\n",
    );
  });
});

Deno.test("Ctrl-C during svc export keeps FILE.part and says so; the next run resumes it", async () => {
  await withNode({}, async ({ url }) => {
    const dir = await tempDir();
    const res = await fetch(`${url}/projects/cities/export?version=2`);
    const etag = res.headers.get("etag")!;
    const bytes = new Uint8Array(await res.arrayBuffer());
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const conns: Deno.Conn[] = [];
    const serving = (async () => {
      for await (const conn of listener) {
        conns.push(conn);
        await conn.read(new Uint8Array(8192));
        const head = `HTTP/1.1 200 OK\r\ncontent-type: application/gzip\r\netag: ${etag}\r\n` +
          `content-length: ${bytes.length}\r\n\r\n`;
        await conn.write(new TextEncoder().encode(head));
        await conn.write(bytes.subarray(0, 4000)); // then nothing more: a stalled download
      }
    })();
    try {
      const out = join(dir.path, "c.gz");
      const base = (u: string) => ["--base-url", u, "--api-key", "k"];
      const child = spawnCli(["export", "cities@2", "-o", out, ...base(`http://127.0.0.1:${listener.addr.port}`)], {
        piped: true,
      });
      child.stdin.close();
      const stderr = new Response(child.stderr).text();
      const stdout = new Response(child.stdout).text();
      for (let i = 0; i < 200 && (await stat(`${out}.part`).catch(() => null))?.size !== 4000; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill("SIGINT");
      assertEquals((await child.status).code, 130);
      await stdout;
      assertEquals(await stderr, `interrupted: 4.0 kB kept in ${out}.part; run the same command to resume\n`);
      const resumed = await runCli(["export", "cities@2", "-o", out, "--json", ...base(url)]);
      assertEquals(JSON.parse(resumed.stdout).resumedFrom, 4000);
      assertEquals(new Uint8Array(await readFile(out)), bytes);
    } finally {
      listener.close();
      for (const c of conns) c.close();
      await serving.catch(() => {});
      await dir.cleanup();
    }
  });
});

Deno.test("Ctrl-C while a claim is out exits 130 and leaves no temporary key file", async () => {
  const origin = await startOrigin();
  const dir = await tempDir();
  try {
    origin.fault("/agents/claim", { delayMs: 20_000 });
    const keyFile = join(dir.path, "svc", "key");
    const child = spawnCli(["claim", "svcc_pending", "--key-file", keyFile, "--base-url", origin.url]);
    await origin.waitFor("/agents/claim");
    assertEquals((await readdir(join(dir.path, "svc"))).length, 1, "the temporary file waits beside the key file");
    child.kill("SIGINT");
    assertEquals((await child.status).code, 130);
    assertEquals(await readdir(join(dir.path, "svc")), [], "nothing is left");
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
