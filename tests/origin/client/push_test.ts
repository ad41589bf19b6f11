import { createHash } from "node:crypto";
import { appendFile, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { KeyRequiredError, NotFoundError, SvcError, ValueError, WaitTimeout } from "../../../mod.ts";
import { OriginClient as Client } from "../../../src/origin/mod.ts";
import type { Endpoint } from "../../../src/client/http.ts";
import { initUpload, pushFile, type PushProgress } from "../../../src/origin/client/push.ts";
import { MAX_PARTS, MIB, MIN_PART_BYTES, partRange, planParts } from "../../../src/origin/client/_upload_state.ts";
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../../support/assert.ts";
import { withNode } from "../../support/node.ts";
import { tempDir } from "../../support/store_fixture.ts";
import type { TestOrigin } from "../../support/origin.ts";
import {
  AGENT_KEY,
  createProject,
  heldParts,
  partNumber,
  partPuts,
  partsSettled,
  stateWithEtags,
  uploadState,
  withUploadOrigin,
  writeRecords,
} from "../../support/push_fixture.ts";

/** Records of about 730 bytes: this many make a little over 12 MiB, three 5 MiB parts when sent as they are. */
const THREE_PARTS_RAW = 17_500;

function endpoint(origin: TestOrigin, extra: Partial<Endpoint> = {}): Endpoint {
  return { baseUrl: origin.url, apiKey: AGENT_KEY, sleep: async () => {}, ...extra };
}

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

async function versionCount(origin: TestOrigin, slug: string): Promise<{ version: number; total: number }> {
  const res = await fetch(`${origin.url}/projects/${slug}/data?limit=1`, {
    headers: { authorization: `Bearer ${AGENT_KEY}` },
  });
  const page = await res.json();
  return { version: page.version, total: page.total };
}

Deno.test("part plan: at least 5 MiB a part, at most 1,000 parts (the part size raised), the last part shorter", () => {
  assertEquals(planParts(12 * MIB, 1), { partSize: MIN_PART_BYTES, parts: 3 });
  assertEquals(planParts(12 * MIB), { partSize: 8 * MIB, parts: 2 }, "8 MiB by default");
  assertEquals(planParts(100), { partSize: 8 * MIB, parts: 1 });
  assertEquals(planParts(8 * MIB), { partSize: 8 * MIB, parts: 1 });
  const five = 5 * 1024 * MIB;
  const big = planParts(five, 5 * MIB);
  assertEquals(big, { partSize: Math.ceil(five / MAX_PARTS), parts: MAX_PARTS });
  assertEquals(planParts(5e9, 100 * MIB).parts, 48, "a larger part size asked for is kept");
  assertEquals(partRange(3, { partSize: 5 * MIB, parts: 3 }, 12 * MIB), [10 * MIB, 12 * MIB]);
  assertEquals(partRange(1000, big, five)[1], five);
});

Deno.test("push: a multi-part gzip upload, parts in parallel without the key, ETags to complete, screened and merged", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "big");
    const file = join(scratch, "big.jsonl");
    await writeRecords(file, 29_000);
    const source = await readFile(file);
    // Hold every part until four are under way at once, then let them through (503, then sent again).
    origin.app!.uploads.holdPartsAfter(0);
    const phases: PushProgress[] = [];
    const pushing = pushFile(endpoint(origin), "big", file, {
      partSize: 1, // raised to the 5 MiB minimum
      wait: true,
      onProgress: (p) => phases.push(p),
    });
    const deadline = Date.now() + 30_000;
    while (origin.maxPutsInFlight() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    origin.app!.uploads.release();
    const result = await pushing;
    assert(origin.maxPutsInFlight() >= 3, `parts went in parallel (${origin.maxPutsInFlight()} at once)`);
    const gz = await origin.app!.uploads.contentOf(result.uploadId as string);
    assertEquals(result.bytes, gz.byteLength);
    assertEquals(gunzipSync(gz), source, "the gzip copy of the file is what was sent");
    assertEquals([gz[0], gz[1], gz[8]], [0x1f, 0x8b, 0], "gzip, at a level between 2 and 8 (XFL 0)");
    assertEquals([result.parts, result.uploadedParts], [3, 3]);
    assertEquals([result.status, result.acceptedCount, result.mergedVersion], ["merged", 29_000, 1]);
    assertEquals(result.id, result.contributionId);
    assertEquals(await versionCount(origin, "big"), { version: 1, total: 29_000 });

    const init = origin.seen.find((s) => s.method === "POST" && s.path === "/projects/big/uploads")!;
    assertEquals(init.headers.authorization, `Bearer ${AGENT_KEY}`);
    assertEquals(JSON.parse(init.body), {
      bytes: gz.byteLength,
      parts: 3,
      partSize: 5 * MIB,
      sourceDeclaration: null,
      compression: "gzip",
    });
    const puts = partPuts(origin);
    assert(puts.length >= 3);
    for (const put of puts) {
      assertEquals(put.headers.authorization, undefined, "no key to a part URL");
      assertEquals(put.headers["content-type"], undefined, "no content type");
      assert(!String(put.headers["user-agent"]).startsWith("svc-sdk"), "the bare client");
    }
    const stored = partPuts(origin).filter((p) => p.bytes > 0);
    assertEquals(new Set(stored.map((p) => partNumber(p.path))), new Set([1, 2, 3]));
    assertEquals(puts.find((p) => partNumber(p.path) === 3)!.bytes, gz.byteLength - 10 * MIB, "the last part is short");
    const complete = origin.seen.find((s) => s.path.endsWith("/complete"))!;
    assertEquals(complete.path, `/projects/big/uploads/${result.uploadId}/complete`);
    const md5 = (from: number, to: number) => createHash("md5").update(gz.subarray(from, to)).digest("hex");
    assertEquals(JSON.parse(complete.body), {
      etags: [
        { n: 1, etag: md5(0, 5 * MIB) },
        { n: 2, etag: md5(5 * MIB, 10 * MIB) },
        { n: 3, etag: md5(10 * MIB, gz.byteLength) },
      ],
    });
    assertEquals(await readdir(scratch), ["big.jsonl"], "state file and gzip copy removed");
    assertEquals(await readFile(file), source, "the file itself untouched");
    assertEquals(phases[0].phase, "gzip");
    assertEquals(phases.at(-1), {
      phase: "upload",
      done: gz.byteLength,
      total: gz.byteLength,
      partsDone: 3,
      parts: 3,
      uploadId: result.uploadId as string,
    });
  });
});

Deno.test("push: a part answered 500, then 503, and one cut off halfway are sent again; the upload completes", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "faults");
    const file = join(scratch, "faults.jsonl");
    await writeRecords(file, THREE_PARTS_RAW);
    origin.faultParts({ status: 500 }, { status: 503, headers: { "retry-after": "0" } }, { cut: true });
    const result = await pushFile(endpoint(origin, { retries: 3 }), "faults", file, {
      compress: false,
      partSize: 5 * MIB,
      workers: 1,
      wait: true,
    });
    assertEquals([result.parts, result.uploadedParts, result.status], [3, 3, "merged"]);
    const puts = partPuts(origin);
    assertEquals(puts.map((p) => partNumber(p.path)), [1, 1, 1, 1, 2, 3], "part 1 tried four times");
    assertEquals(puts.filter((p) => p.cut).length, 1);
    assertEquals(origin.app!.uploads.events.filter((e) => e.type === "part").length, 3);
    assertEquals(await versionCount(origin, "faults"), { version: 1, total: THREE_PARTS_RAW });
  });
});

Deno.test("push: a part failing past its retries stops the push; the next push sends only the parts not stored", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "again");
    const file = join(scratch, "again.jsonl");
    await writeRecords(file, THREE_PARTS_RAW);
    const options = { compress: false, partSize: 5 * MIB, workers: 1 };
    // Part 1 goes through; part 2 fails three times (the first try and two retries).
    origin.faultParts({ pass: true }, { status: 500 }, { status: 500 }, { status: 500 });
    const e = await assertRejects(() => pushFile(endpoint(origin), "again", file, options));
    assert(e instanceof SvcError && e.status === 500, e.message);
    assertEquals(e.message, "part upload failed: HTTP 500");
    const state = await uploadState(file);
    assertEquals(Object.keys(state.etags), ["1"], "part 1 is kept");
    const before = origin.seen.length;
    const result = await pushFile(endpoint(origin), "again", file, { ...options, wait: true });
    assertEquals(partPuts(origin, before).map((p) => partNumber(p.path)), [2, 3]);
    assertEquals([result.uploadedParts, result.uploadId, result.status], [2, state.uploadId, "merged"]);
    assertEquals(origin.app!.uploads.events.filter((e) => e.type === "init").length, 1, "one upload");
  });
});

Deno.test("push: stopped and run again sends only the missing parts; a changed file starts over", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "resume");
    const file = join(scratch, "resume.jsonl");
    await writeRecords(file, THREE_PARTS_RAW);
    const options = { compress: false, partSize: 5 * MIB, workers: 2 };
    const stopAfterOne = async () => {
      origin.app!.uploads.holdPartsAfter(1);
      const from = origin.app!.uploads.events.length;
      const stop = new AbortController();
      const pushing = pushFile(endpoint(origin), "resume", file, { ...options, signal: stop.signal });
      const state = await stateWithEtags(file, 1);
      await heldParts(origin, 2, from);
      stop.abort();
      await assertRejects(() => pushing);
      origin.app!.uploads.release();
      await partsSettled(origin);
      return state;
    };
    const first = await stopAfterOne();
    const kept = Object.keys((await uploadState(file)).etags);
    assertEquals(kept.length, 1);
    let before = origin.seen.length;
    const resumed = await pushFile(endpoint(origin), "resume", file, { ...options, wait: true });
    const sent = partPuts(origin, before).map((p) => partNumber(p.path)).sort();
    assertEquals(sent, [1, 2, 3].filter((n) => !kept.includes(String(n))), "only the missing parts");
    assertEquals([resumed.uploadId, resumed.uploadedParts, resumed.status], [first.uploadId, 2, "merged"]);

    await createProject(origin, "changed");
    const options2 = { ...options };
    origin.app!.uploads.holdPartsAfter(1);
    const from = origin.app!.uploads.events.length;
    const stop = new AbortController();
    const pushing = pushFile(endpoint(origin), "changed", file, { ...options2, signal: stop.signal });
    const old = await stateWithEtags(file, 1);
    await heldParts(origin, 2, from);
    stop.abort();
    await assertRejects(() => pushing);
    origin.app!.uploads.release();
    await partsSettled(origin);
    await appendFile(file, JSON.stringify({ id: 999_999, text: "added after the stop" }) + "\n");
    before = origin.seen.length;
    const fresh = await pushFile(endpoint(origin), "changed", file, { ...options2, wait: true });
    assert(fresh.uploadId !== old.uploadId, "a new upload");
    assertEquals(partPuts(origin, before).map((p) => partNumber(p.path)).sort(), [1, 2, 3], "every part sent");
    assertEquals([fresh.uploadedParts, fresh.status, fresh.acceptedCount], [3, "merged", THREE_PARTS_RAW + 1]);
  });
});

Deno.test("push: an expired upload fails at its part URLs and the next push starts a new one; so does one saved past its expiry", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "late");
    const file = join(scratch, "late.jsonl");
    await writeRecords(file, THREE_PARTS_RAW);
    const options = { compress: false, partSize: 5 * MIB, workers: 1 };
    const uploads = origin.app!.uploads;
    uploads.holdPartsAfter(1);
    const pushing = pushFile(endpoint(origin), "late", file, options);
    const first = await stateWithEtags(file, 1);
    uploads.expire();
    uploads.release(); // the held part is answered 503, tried again, and refused: expired
    const e = await assertRejects(() => pushing);
    assertMatch(e.message, /^part upload failed: HTTP 403 \(upload \S+: its part URLs are refused, expired or gone; /);
    const forgotten = await uploadState(file);
    assertEquals([forgotten.uploadId, forgotten.urls, forgotten.etags], ["", {}, {}], "the dead upload is forgotten");
    const refused = uploads.events.filter((e) => e.type === "refused");
    assertEquals(refused.map((e) => [e.status, e.reason]), [[403, "AccessDenied"]]);
    const result = await pushFile(endpoint(origin), "late", file, { ...options, wait: true });
    assert(result.uploadId !== first.uploadId);
    assertEquals([result.uploadedParts, result.status], [3, "merged"]);

    // A saved upload whose expiresAt has passed is not resumed at all: a new one is opened before any PUT.
    await createProject(origin, "later");
    uploads.holdPartsAfter(1);
    const from = uploads.events.length;
    const stop = new AbortController();
    const stopped = pushFile(endpoint(origin), "later", file, { ...options, signal: stop.signal });
    const saved = await stateWithEtags(file, 1);
    await heldParts(origin, 1, from);
    stop.abort();
    await assertRejects(() => stopped);
    uploads.release();
    await partsSettled(origin);
    await writeFile(`${file}.svc-upload.json`, JSON.stringify({ ...saved, expiresAt: new Date(Date.now() - 1000) }));
    const before = origin.seen.length;
    const later = await pushFile(endpoint(origin), "later", file, options);
    assert(later.uploadId !== saved.uploadId);
    assert(partPuts(origin, before).every((p) => p.path.includes(later.uploadId as string)), "no PUT to old URLs");
    assertEquals(later.uploadedParts, 3);
  });
});

Deno.test("push: complete refused for an expired upload (410) forgets it, and the next push starts over", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "gone");
    const file = join(scratch, "gone.jsonl");
    await writeFile(file, '{"id":1,"text":"one"}\n{"id":2,"text":"two"}\n');
    const uploads = origin.app!.uploads;
    uploads.holdComplete();
    const pushing = pushFile(endpoint(origin), "gone", file);
    await uploads.waitForEvent((e) => e.type === "complete");
    uploads.expire();
    uploads.release();
    const e = await assertRejects(() => pushing);
    assert(e instanceof SvcError && e.status === 410);
    assertMatch(e.message, /^upload \S+ expired \(the next push of this file starts a new upload\)$/);
    assertEquals((await uploadState(file)).uploadId, "", "the upload is forgotten, the gzip copy kept");
    const phases: string[] = [];
    const result = await pushFile(endpoint(origin), "gone", file, {
      wait: true,
      onProgress: (p) => phases.push(p.phase),
    });
    assertEquals([result.status, result.acceptedCount], ["merged", 2]);
    assert(!phases.includes("gzip"), "the copy was not made again");
    assertEquals(uploads.events.filter((e) => e.type === "init").length, 2, "a new upload");
  });
});

Deno.test("push --wait: merged, nothing new (dedup), rejected by schema and pii; a screening still running past the timeout fails", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "notes");
    const file = join(scratch, "notes.jsonl");
    await writeFile(file, '{"id":1,"text":"one"}\n{"id":2,"text":"two"}\n{"id":3,"text":"three"}\n');
    const merged = await pushFile(endpoint(origin), "notes", file, { wait: true, sourceDeclaration: "typed in" });
    assertEquals([merged.status, merged.acceptedCount, merged.mergedVersion], ["merged", 3, 1]);
    assertEquals(merged.sourceDeclaration, "typed in");
    const again = await pushFile(endpoint(origin), "notes", file, { wait: true });
    assertEquals([again.status, (again.verdict as Json).gate, again.mergedVersion], ["rejected", "dedup", null]);
    await appendFile(file, '{"id":4,"text":"four"}\n');
    const more = await pushFile(endpoint(origin), "notes", file, { wait: true });
    assertEquals([more.status, more.acceptedCount, more.mergedVersion], ["merged", 1, 2]);
    assertEquals((more.verdict as Json).droppedDuplicates, 3, "records already there are dropped");
    await writeFile(file, '{"id":"five","text":"5"}\n');
    const schema = await pushFile(endpoint(origin), "notes", file, { wait: true });
    assertEquals([schema.status, (schema.verdict as Json).gate], ["rejected", "schema"]);
    await writeFile(file, '{"id":6,"text":"resident number 900101-1234568"}\n');
    const pii = await pushFile(endpoint(origin), "notes", file, { wait: true });
    assertEquals([pii.status, (pii.verdict as Json).gate], ["rejected", "pii"]);
    const unwaited = await pushFile(endpoint(origin), "notes", file);
    assertEquals(unwaited.status, "submitted");
  });
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "slow");
    const file = join(scratch, "slow.jsonl");
    await writeFile(file, '{"id":1,"text":"one"}\n');
    const e = await assertRejects(() => pushFile(endpoint(origin), "slow", file, { wait: true, timeout: 300 }));
    assert(e instanceof WaitTimeout && e.code === "wait_timeout");
    assertMatch(e.message, /^contribution [0-9a-f-]{36} still submitted after 0\.3s$/);
  }, { screenMs: 5_000 });
});

Deno.test("push to a node: refused before the file is copied, saying push goes to the origin; the node's own 405 says the same", async () => {
  for (const token of [null, "node-token-0123456789"]) {
    await withNode({ token }, async ({ url }) => {
      const dir = await tempDir();
      const file = join(dir.path, "push.jsonl");
      await writeFile(file, '{"id":1,"text":"one"}\n');
      try {
        const e = await assertRejects(() => pushFile({ baseUrl: url, apiKey: token ?? "any" }, "cities", file));
        assert(e instanceof SvcError && e.status === 405, e.message);
        assertEquals(
          e.message,
          `${url} is a node, and push goes to the origin (a node answers 405 to uploads): set the base URL to the ` +
            "origin (SVC_BASE_URL, --base-url); a node's local projects take records with contribute",
        );
        assertEquals(await exists(`${file}.svc-upload.gz`), false, "nothing was copied");
        const request = {
          bytes: 10,
          parts: 1,
          partSize: 5 * MIB,
          sourceDeclaration: null,
          compression: "none" as const,
        };
        const init = await assertRejects(() => initUpload({ baseUrl: url, apiKey: token ?? "any" }, "cities", request));
        assertEquals([(init as SvcError).status, init.message], [405, e.message]);
      } finally {
        await dir.cleanup();
      }
    });
  }
});

Deno.test("push: refused before sending without a key, a file, or with bad options; the object store refuses a key", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "notes");
    const file = join(scratch, "notes.jsonl");
    await writeFile(file, '{"id":1,"text":"one"}\n');
    const before = origin.seen.length;
    const keyless = await assertRejects(() => pushFile({ baseUrl: origin.url, apiKey: null }, "notes", file));
    assert(keyless instanceof KeyRequiredError && keyless.call === "push");
    const missing = await assertRejects(() => pushFile(endpoint(origin), "notes", join(scratch, "nope.jsonl")));
    assertEquals(missing.message, `no such file: ${join(scratch, "nope.jsonl")}`);
    await writeFile(join(scratch, "empty.jsonl"), "");
    await assertRejects(() => pushFile(endpoint(origin), "notes", join(scratch, "empty.jsonl")), /is empty/);
    for (
      const bad of [{ sourceDeclaration: "abc" }, { workers: 0 }, { partSize: 0 }, { partSize: 6 * 1024 * MIB }]
    ) {
      assert(await assertRejects(() => pushFile(endpoint(origin), "notes", file, bad)) instanceof ValueError);
    }
    assert(await assertRejects(() => pushFile(endpoint(origin), "No Slug", file)) instanceof ValueError);
    assertEquals(origin.seen.length, before, "nothing was sent");
    const unknown = await assertRejects(() => pushFile(endpoint(origin), "nowhere", file));
    assert(unknown instanceof NotFoundError, unknown.message);

    // The object store takes the presigned URL as the only credential: a key alongside is refused.
    const { urls } = await initUpload(endpoint(origin), "notes", {
      bytes: 4,
      parts: 1,
      partSize: 5 * MIB,
      sourceDeclaration: null,
      compression: "none",
    });
    const keyed = await fetch(urls["1"], { method: "PUT", body: "abcd", headers: { authorization: "Bearer x" } });
    assertEquals([keyed.status, (await keyed.text()).includes("InvalidArgument")], [400, true]);
    const wrongSize = await fetch(urls["1"], { method: "PUT", body: "abcde" });
    assertEquals([wrongSize.status, (await wrongSize.text()).includes("SignatureDoesNotMatch")], [403, true]);
    const right = await fetch(urls["1"], { method: "PUT", body: "abcd" });
    await right.body?.cancel();
    assertEquals([right.status, right.headers.get("etag")], [
      200,
      `"${createHash("md5").update("abcd").digest("hex")}"`,
    ]);
    const tooSmall = await fetch(`${origin.url}/projects/notes/uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${AGENT_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        bytes: 12 * MIB,
        parts: 3,
        partSize: 4 * MIB,
        sourceDeclaration: null,
        compression: "gzip",
      }),
    });
    assertEquals([tooSmall.status, (await tooSmall.json()).error], [400, "partSize must be at least 5 MiB"]);
  });
});

Deno.test("Client.push is pushFile over the client's own transport: a small file, one part, merged", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "method");
    const file = join(scratch, "small.jsonl");
    await writeRecords(file, 50);
    const client = new Client({ baseUrl: origin.url, apiKey: AGENT_KEY });
    const result = await client.push("method", file, { wait: true });
    assertEquals([result.parts, result.status, result.acceptedCount], [1, "merged", 50]);
    assertEquals((await versionCount(origin, "method")).total, 50);
    const keyless = await assertRejects(() => new Client({ baseUrl: origin.url, apiKey: null }).push("method", file));
    assert(keyless instanceof KeyRequiredError, String(keyless));
  });
});
