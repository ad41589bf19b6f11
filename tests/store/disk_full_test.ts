/**
 * A full disk, for real (a small tmpfs mounted for the test: the suite runs
 * as root), and a failure after the commit point: writes answer 507 and
 * leave nothing half written, reads go on, a committed contribution is
 * never answered as an error, and once space is back writes work with no
 * repair step.
 */
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { mkdir, open, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DISK_FULL_MESSAGE, readContribution } from "../../src/store/mod.ts";
import { withNode } from "../support/node.ts";
import { batch, NOTES, post } from "../support/local_project.ts";
import { tempDir } from "../support/store_fixture.ts";
import { serveNode } from "../../server.ts";
import { mcpClient, textOf } from "../mcp/_client.ts";

async function run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  if (out.code !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

/** Fills the filesystem of `dir` until a write fails; returns the filler's path. */
async function fill(dir: string): Promise<string> {
  const path = join(dir, "filler.bin");
  const file = await open(path, "w");
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (let step = chunk.length;;) {
      try {
        await file.write(chunk.subarray(0, step));
      } catch {
        if (step === 1) break;
        step = Math.max(1, Math.floor(step / 2));
      }
    }
  } finally {
    await file.close().catch(() => {});
  }
  return path;
}

async function temporaries(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).filter((p) => /\.tmp-|\.pruned-/.test(p));
}

Deno.test("a full disk: writes answer 507 and leave nothing behind, reads go on, writes work again once space is freed", async () => {
  const dir = await tempDir();
  const mount = join(dir.path, "small");
  await mkdir(mount);
  await run("mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", mount]);
  try {
    const store = join(mount, "store");
    const node = await serveNode({ store, host: "127.0.0.1", port: 0, token: null, log: null });
    try {
      const url = node.url;
      assertEquals((await post(url, "/projects", NOTES)).status, 201);
      assertEquals((await post(url, "/projects/notes/contribute", batch(0, 50))).body.mergedVersion, 1);
      const filler = await fill(mount);

      const refused = await post(url, "/projects/notes/contribute", batch(1, 50), { "idempotency-key": "full-1" });
      assertEquals([refused.status, refused.body], [507, { error: DISK_FULL_MESSAGE }]);
      const mcp = await mcpClient(url);
      try {
        const tool = await mcp.callTool({ name: "contribute_records", arguments: { slug: "notes", ...batch(1, 50) } });
        assertEquals([tool.isError, textOf(tool)], [true, `507: ${DISK_FULL_MESSAGE}`], "MCP says what HTTP says");
      } finally {
        await mcp.close();
      }
      const created = await post(url, "/projects", { ...NOTES, slug: "more-notes" });
      assertEquals(created.status, 507);

      const page: Json = await (await fetch(`${url}/projects/notes/data?limit=1000`)).json();
      assertEquals([page.version, page.count], [1, 50], "reads go on");
      const query = await post(url, "/projects/notes/query", { sql: "SELECT count(*) FROM records" });
      assertEquals(query.body.rows, [[50]]);
      const exported = await fetch(`${url}/projects/notes/export?version=1`);
      assertEquals(exported.status, 200);
      assert((await exported.arrayBuffer()).byteLength > 0, "an export streams although it cannot be kept");
      const listed: Json = await (await fetch(`${url}/projects`)).json();
      assertEquals(listed.projects.map((p: Json) => p.slug), ["notes"], "no half-created project");
      assertEquals(await temporaries(store), [], "no temporary file is left");

      await rm(filler);
      const started = Date.now();
      const again = await post(url, "/projects/notes/contribute", batch(1, 50), { "idempotency-key": "full-1" });
      assert(Date.now() - started < 3000, "no lock or leftover holds the next write back");
      assertEquals([again.status, again.body.status, again.body.mergedVersion], [201, "merged", 2]);
      assertEquals((await post(url, "/projects", { ...NOTES, slug: "more-notes" })).status, 201);
    } finally {
      await node.shutdown();
    }
  } finally {
    await unmount(mount);
    await dir.cleanup();
  }
});

/**
 * Unmounts `mount`, waiting out "target is busy": the SQL workers' private
 * views bind the store in mount namespaces of their own, which the kernel
 * tears down a moment after the workers exit.
 */
async function unmount(mount: string): Promise<void> {
  for (let tries = 0;; tries++) {
    try {
      return await run("umount", [mount]);
    } catch (e) {
      if (tries >= 100 || !/target is busy/.test(String(e))) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

Deno.test("a contribution is merged for good at its commit: a failure after it is never its answer, and is repaired", async () => {
  await withNode({}, async ({ url, store }) => {
    assertEquals((await post(url, "/projects", NOTES)).status, 201);
    assertEquals((await post(url, "/projects/notes/contribute", batch(0, 50))).status, 201);
    // The answers' folder becomes a file: every write of an answer now fails, after the commit.
    const answers = join(store, "notes", "contributions");
    await rm(answers, { recursive: true });
    await writeFile(answers, "in the way");
    const merged = await post(url, "/projects/notes/contribute", batch(1, 50), { "idempotency-key": "after-commit" });
    assertEquals([merged.status, merged.body.status, merged.body.mergedVersion], [201, "merged", 2]);
    const id = merged.body.id;
    const status = await fetch(`${url}/projects/notes/contributions/${id}`);
    assertEquals([status.status, (await status.json()).mergedVersion], [200, 2], "its answer is known already");

    await rm(answers);
    const next = await post(url, "/projects/notes/contribute", batch(2, 50));
    assertEquals(next.body.mergedVersion, 3);
    assertEquals((await readContribution(store, "notes", id))?.mergedVersion, 2, "the next write wrote the answer");
    const replay = await fetch(`${url}/projects/notes/contribute`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "after-commit" },
      body: JSON.stringify(batch(1, 50)),
    });
    assertEquals([replay.status, replay.headers.get("idempotent-replayed")], [200, "true"]);
    assertEquals((await replay.json()).id, id);
  });
});
