/**
 * Fixtures for push tests: a test origin over an empty store, projects on
 * it, JSON-lines files of records that gzip does not shrink much (so a few
 * tens of MiB make several 5 MiB parts), and the state file a push keeps.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { open, readFile } from "node:fs/promises";
import type { Json } from "./assert.ts";
import { post } from "./local_project.ts";
import { startOrigin, type TestOrigin } from "./origin.ts";
import { tempDir } from "./store_fixture.ts";

/** The agent key the test origin takes. */
export const AGENT_KEY = "agent-key";

/** The schema of the projects pushed to: an integer id and a text. */
export const PUSH_SCHEMA = { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }] };

/** Runs `fn` with a test origin over an empty store and a scratch folder, then removes both. */
export async function withUploadOrigin(
  fn: (origin: TestOrigin, scratch: string) => Promise<void>,
  options: { screenMs?: number; uploadTtlMs?: number } = {},
): Promise<void> {
  const store = await tempDir();
  const scratch = await tempDir();
  try {
    const origin = await startOrigin({ ...options, store: store.path, screenMs: options.screenMs ?? 50 });
    try {
      await fn(origin, scratch.path);
    } finally {
      await origin.close();
    }
  } finally {
    await store.cleanup();
    await scratch.cleanup();
  }
}

/** Creates project `slug` (id, text) on the origin. */
export async function createProject(origin: TestOrigin, slug: string): Promise<void> {
  const res = await post(origin.url, "/projects", {
    slug,
    title: `Pushed ${slug}`,
    readme: "Records pushed by the push tests.",
    schemaDef: PUSH_SCHEMA,
  }, { authorization: `Bearer ${AGENT_KEY}` });
  if (res.status !== 201) throw new Error(`cannot create ${slug}: ${res.text}`);
}

/**
 * Writes `count` records `{id, text}` (ids from `from`) as JSON lines to
 * `path`, each text 700 characters of pseudo-random base64 from `seed`, so
 * that gzip keeps about three quarters of the bytes; about 730 bytes a line.
 */
export async function writeRecords(path: string, count: number, from = 0, seed = 1): Promise<number> {
  let x = seed >>> 0 || 1;
  const random = new Uint8Array(525);
  const handle = await open(path, "w");
  let bytes = 0;
  try {
    let lines: string[] = [];
    for (let i = 0; i < count; i++) {
      for (let j = 0; j < random.length; j++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        random[j] = x & 0xff;
      }
      lines.push(JSON.stringify({ id: from + i, text: Buffer.from(random).toString("base64") }));
      if (lines.length === 1000 || i === count - 1) {
        const text = lines.join("\n") + "\n";
        bytes += Buffer.byteLength(text);
        await handle.write(text);
        lines = [];
      }
    }
  } finally {
    await handle.close();
  }
  return bytes;
}

/** The state file a push of `file` keeps, or null. */
export async function uploadState(file: string): Promise<Json | null> {
  try {
    return JSON.parse(await readFile(`${file}.svc-upload.json`, "utf8"));
  } catch {
    return null;
  }
}

/** Waits (polling, up to 20 s) until the state file of `file` names an open upload with `etags` ETags; returns it. */
export async function stateWithEtags(file: string, etags: number): Promise<Json> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const state = await uploadState(file);
    if (state?.uploadId && Object.keys(state.etags).length >= etags) return state;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the state file of ${file} never held ${etags} ETags: ${JSON.stringify(await uploadState(file))}`);
}

/**
 * Waits until `count` part PUTs (counted from event `from` on) have arrived
 * whole and are held. A test stops a push only then: a PUT it had begun
 * could otherwise still sit in the socket's buffers, reach the origin after
 * {@linkcode partsSettled}, and count as sent by the next push.
 */
export async function heldParts(origin: TestOrigin, count: number, from = 0): Promise<void> {
  const uploads = origin.app!.uploads;
  const heldSince = () => uploads.events.slice(from).filter((e) => e.type === "held").length;
  await uploads.waitForEvent(() => heldSince() >= count, 20_000);
}

/**
 * Waits (polling, up to 20 s) until no part PUT is under way at the origin:
 * a stopped push's last bodies may still be arriving, and would count as
 * sent by the next one.
 */
export async function partsSettled(origin: TestOrigin): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (origin.putsInFlight() > 0) {
    if (Date.now() > deadline) throw new Error(`${origin.putsInFlight()} part PUTs still under way`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The part PUTs the origin saw (object store paths), in order of arrival. */
export function partPuts(origin: TestOrigin, from = 0): TestOrigin["seen"] {
  return origin.seen.slice(from).filter((s) => s.method === "PUT" && s.path.startsWith("/_objects/"));
}

/** The part number of an object store path. */
export function partNumber(path: string): number {
  return Number(path.split("?")[0].split("/")[3]);
}
