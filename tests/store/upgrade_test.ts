/**
 * A store made by the release before the part stack (its code checked out
 * from this repository's history into a worktree, run as its own `svc
 * serve`) opens with this release: the start upgrades it in place and says
 * so, every version reads the same records, manifests (parts, sources) and
 * diffs as before, contributions keep their answers, and new contributions
 * merge. A node killed (SIGKILL) while it upgrades leaves a store the next
 * start finishes.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { cp, readFile, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, type ServeProcess, startServe } from "../support/cli_process.ts";
import { NOTES, post } from "../support/local_project.ts";
import { tempDir } from "../support/store_fixture.ts";

/** The last commit whose versions list their parts, each with the sources of every contribution folded into it. */
const LISTED_LAYOUT_COMMIT = "b19164bbda543c11661b102fc1d560bb3582ac87";
/** Contributions the earlier release makes: enough for parts to fold many times, and for the upgrade to take a while. */
const BATCHES = 90;

async function git(args: string[], cwd = ROOT): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (out.code !== 0) throw new Error(`git ${args.join(" ")}: ${text}`);
  return text;
}

/** The earlier release's checkout, its node_modules this checkout's (the same packages), removed by `close`. */
async function earlierRelease(dir: string): Promise<{ root: string; close(): Promise<void> }> {
  const root = join(dir, "earlier");
  await git(["cat-file", "-e", `${LISTED_LAYOUT_COMMIT}^{commit}`]).catch(() => {
    throw new Error(`this checkout's history lacks ${LISTED_LAYOUT_COMMIT}: clone it whole (not shallow)`);
  });
  await git(["worktree", "add", "--detach", root, LISTED_LAYOUT_COMMIT]);
  await symlink(join(ROOT, "node_modules"), join(root, "node_modules"));
  return { root, close: async () => void await git(["worktree", "remove", "--force", root]) };
}

function records(i: number): { id: number; text: string }[] {
  const size = 1 + (i * 7) % 10 + (i % 17 === 0 ? 40 : 0);
  return Array.from({ length: size }, (_, j) => ({ id: i * 100 + j, text: `note ${i}.${j} ✓` }));
}

/** What a node answers about the store: every version's records and manifest, diffs, contributions. */
async function answers(url: string, ids: string[]): Promise<Record<string, unknown>> {
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`);
    const body = await res.json();
    return res.status === 200 ? body : { status: res.status, body };
  };
  const out: Record<string, unknown> = {};
  const manifest = (m: Json) => ({
    ...m,
    urlExpiresAt: undefined,
    parts: m.parts.map((p: Json) => ({ ...p, url: 0 })),
  });
  for (let v = 1; v <= BATCHES; v++) {
    out[`data v${v}`] = (await get(`/projects/notes/data?version=${v}&limit=1000`)).records;
    out[`manifest v${v}`] = manifest(await get(`/projects/notes/manifest?version=${v}`));
  }
  for (const [from, to] of [[0, BATCHES], [BATCHES - 1, BATCHES], [10, 60], [33, 34], [0, 1], [45, 89]]) {
    out[`diff ${from}..${to}`] = await get(`/projects/notes/diff?from=${from}&to=${to}&limit=500`);
  }
  for (const id of ids) out[`contribution ${id}`] = await get(`/projects/notes/contributions/${id}`);
  const detail = await get("/projects/notes");
  out.detail = { localVersions: detail.localVersions, latestVersion: detail.latestVersion, title: detail.title };
  out["cities manifest"] = manifest(await get("/projects/cities/manifest"));
  out["cities data"] = (await get("/projects/cities/data?limit=5&offset=100")).records;
  return out;
}

/** A store written by the earlier release's own `svc serve` and `svc load`, and what that release answered over it. */
async function earlierStore(dir: string): Promise<{ store: string; seen: Record<string, unknown>; ids: string[] }> {
  const earlier = await earlierRelease(dir);
  try {
    const store = join(dir, "store");
    const load = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        join(earlier.root, "cli.ts"),
        "load",
        join(ROOT, "examples", "cities-v1.svc"),
        "--store",
        store,
      ],
      cwd: earlier.root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(load.code, 0, new TextDecoder().decode(load.stderr));
    const node = await startServe(["--store", store], {}, { root: earlier.root });
    try {
      assertEquals((await post(node.url, "/projects", NOTES)).status, 201);
      const ids: string[] = [];
      for (let i = 1; i <= BATCHES; i++) {
        const headers: Record<string, string> = i === BATCHES ? { "idempotency-key": "last-batch" } : {};
        const r = await post(node.url, "/projects/notes/contribute", { records: records(i) }, headers);
        assertEquals([r.status, r.body.mergedVersion], [201, i], r.text);
        ids.push(r.body.id);
      }
      const rejected = await post(node.url, "/projects/notes/contribute", { records: records(3) });
      assertEquals(rejected.body.status, "rejected");
      ids.push(rejected.body.id);
      return { store, seen: await answers(node.url, ids), ids };
    } finally {
      await stop(node);
    }
  } finally {
    await earlier.close();
  }
}

async function stop(node: ServeProcess): Promise<void> {
  node.child.kill("SIGTERM");
  await node.status;
}

function assertSameAnswers(now: Record<string, unknown>, before: Record<string, unknown>) {
  for (const key of Object.keys(before)) assertEquals(now[key], before[key], key);
}

/** Checks the upgraded store over a node of this release: the same answers, then a merge on top. */
async function checkUpgraded(store: string, seen: Record<string, unknown>, ids: string[]) {
  const node = await startServe(["--store", store]);
  try {
    assertSameAnswers(await answers(node.url, ids), seen);
    const replay = await post(node.url, "/projects/notes/contribute", { records: records(BATCHES) }, {
      "idempotency-key": "last-batch",
    });
    assertEquals([replay.status, replay.body.mergedVersion], [200, BATCHES], `the key replays: ${node.stderr()}`);
    const next = await post(node.url, "/projects/notes/contribute", { records: [{ id: 1e6, text: "after" }] });
    assertEquals([next.status, next.body.mergedVersion], [201, BATCHES + 1], `${next.text}\n${node.stderr()}`);
    const diff = await (await fetch(`${node.url}/projects/notes/diff?from=${BATCHES}&to=${BATCHES + 1}`)).json();
    assertEquals([diff.addedRecords, diff.fragments[0].contributionId, diff.records], [1, next.body.id, [{
      id: 1e6,
      text: "after",
    }]]);
    const manifest = await (await fetch(`${node.url}/projects/notes/manifest`)).json();
    const sources = manifest.parts.flatMap((p: Json) => p.sources);
    assertEquals(sources.length, BATCHES + 1, "every contribution named once in the newest manifest");
    assertEquals(sources.at(-1).contributionId, next.body.id);
    const file = JSON.parse(await readFile(join(store, "notes", `v${BATCHES + 1}`, "manifest.json"), "utf8"));
    assertEquals(file.parts, undefined, "a new version lists no parts: it names its top part");
  } finally {
    await stop(node);
  }
}

Deno.test({
  name: "a store made by the earlier release is upgraded at start: the same answers, and merges on top",
  sanitizeResources: false,
  fn: async () => {
    const dir = await tempDir();
    try {
      const { store, seen, ids } = await earlierStore(dir.path);
      // The earlier layout: the newest version lists every part, and its parts every contribution.
      const before = JSON.parse(await readFile(join(store, "notes", `v${BATCHES}`, "manifest.json"), "utf8"));
      assertEquals(before.parts.flatMap((p: Json) => p.sources).length, BATCHES);
      const killed = join(dir.path, "killed");
      await cp(store, killed, { recursive: true });

      const node = await startServe(["--store", store]);
      await stop(node);
      assertMatch(node.stderr(), new RegExp(`upgraded notes: ${BATCHES} version\\(s\\) moved to the part stack`));
      const after = JSON.parse(await readFile(join(store, "notes", `v${BATCHES}`, "manifest.json"), "utf8"));
      assert(JSON.stringify(after).length < JSON.stringify(before).length / 4, "the upgraded file holds its own facts");
      await checkUpgraded(store, seen, ids);

      // Killed while upgrading, at random points, until a start gets through: the last start finishes it.
      let finished = false;
      const interrupted: number[] = [];
      for (let round = 0; round < 12 && !finished; round++) {
        const started = await startUpgrading(killed, round);
        finished = started.finished;
        if (!finished && started.upgrading) interrupted.push(round);
      }
      assert(finished, "a start got through the upgrade");
      assert(interrupted.length > 0, "a start was killed in the middle of the upgrade");
      await checkUpgraded(killed, seen, ids);
    } finally {
      await rm(dir.path, { recursive: true, force: true });
      await dir.cleanup();
    }
  },
});

/** Starts a node over `store` and kills it soon after it says it is upgrading (later each round). */
async function startUpgrading(store: string, round: number): Promise<{ finished: boolean; upgrading: boolean }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}cli.ts`, "serve", "--store", store, "--port", "0"],
    env: { SVC_NODE_TOKEN: "" },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const dec = new TextDecoder();
  const reader = child.stderr.getReader();
  while (!/upgrading notes|upgraded notes| on http:/.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  await new Promise((r) => setTimeout(r, Math.random() * 80 * (round + 1)));
  child.kill("SIGKILL");
  reader.releaseLock();
  await child.stderr.cancel().catch(() => {});
  await child.status;
  return { finished: / on http:/.test(text), upgrading: /upgrading notes/.test(text) };
}
