/**
 * The origin's multipart uploads (origin-wire 2.1), for the test origin:
 * `POST /projects/{slug}/uploads` opens an upload and answers a presigned
 * object-store URL per part (`/_objects/{uploadId}/{n}?len=&exp=&sig=`),
 * each signed for that part's exact length; the object store refuses a part
 * of another size, an expired URL and any `Authorization` header (a second
 * credential, as S3 does), and answers an ETag (the part's MD5, quoted).
 * `POST .../uploads/{id}/complete` with the ETags makes a contribution that
 * is screened a little later through the real gates of a node (schema,
 * personal data, duplicates dropped) and merged as one version. A repeated
 * `complete` of the same upload answers the same contribution.
 *
 * Test controls: hold part answers after some were answered, hold `complete`,
 * expire every upload, and the events the store saw, to wait on.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash, createHmac, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { contribute, createWriteCache, type WriteTarget } from "../../src/writes/mod.ts";
import { openReadEngine, type ReadEngine } from "../../src/parquet/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { type ExactJson, parseExactJson } from "../../src/wire/json_parse.ts";
import type { SchemaDef } from "../../src/wire/types.ts";

/** Something the upload store saw. */
export interface UploadEvent {
  /**
   * `init`: an upload opened; `part`: a part stored; `held`: a part PUT, its body whole, held by
   * {@linkcode UploadStore.holdPartsAfter}; `refused`: a part PUT refused; `complete`: a complete arrived.
   */
  type: "init" | "part" | "held" | "refused" | "complete";
  /** The upload. */
  uploadId: string;
  /** The part, for part events. */
  n?: number;
  /** The status answered, for refusals. */
  status?: number;
  /** Why, for refusals. */
  reason?: string;
}

/** The upload side of the test origin. */
export interface UploadStore {
  /** `POST /projects/{slug}/uploads`. */
  init(req: Request, slug: string): Promise<Response>;
  /** `PUT /_objects/{uploadId}/{n}`: the object store. */
  putPart(req: Request): Promise<Response>;
  /** `POST /projects/{slug}/uploads/{id}/complete`. */
  complete(req: Request, slug: string, uploadId: string): Promise<Response>;
  /** The answer of a contribution made by an upload, if `id` is one. */
  contribution(id: string): Record<string, unknown> | undefined;
  /** Everything seen, in order. */
  events: UploadEvent[];
  /** Resolves with the first event (already seen or to come) for which `match` holds. */
  waitForEvent(match: (e: UploadEvent) => boolean, ms?: number): Promise<UploadEvent>;
  /** From now on, part PUTs beyond the first `answered` stored are held unanswered (and never stored). */
  holdPartsAfter(answered: number): void;
  /** Holds `complete` requests (after their event) until {@linkcode UploadStore.release}. */
  holdComplete(): void;
  /** Ends every hold: held parts are answered 503, held completes go on. */
  release(): void;
  /** Every open upload expires now: its part URLs are refused, and complete answers 410. */
  expire(): void;
  /** The bytes of an upload's stored parts, in part order. */
  contentOf(uploadId: string): Promise<Uint8Array>;
  /** Waits for screenings under way and releases what the store holds. */
  close(): Promise<void>;
}

/** What the upload store needs from the origin around it. */
export interface UploadStoreOptions {
  /** The store the origin's projects live in. */
  store: string;
  /** The origin's base URL (part URLs are under it). */
  origin: string;
  /** Milliseconds a contribution waits before it is screened. */
  screenMs: number;
  /** Milliseconds part URLs live (default an hour). */
  ttlMs?: number;
}

interface Upload {
  id: string;
  slug: string;
  bytes: number;
  parts: number;
  partSize: number;
  compression: "gzip" | "none";
  sourceDeclaration: string | null;
  agentKey: string;
  expiresAt: number;
  stored: Map<number, { etag: string; bytes: number }>;
  completed: { etags: string; answer: Record<string, unknown> } | null;
}

const MIB = 1024 * 1024;
/** The most one upload may hold. */
export const MAX_UPLOAD_BYTES = 5_000_000_000;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function s3Error(status: number, code: string, message: string): Response {
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  return new Response(xml, { status, headers: { "content-type": "application/xml" } });
}

function checkInit(body: Record<string, unknown>): string | null {
  const unknown = Object.keys(body).filter(
    (k) => !["bytes", "parts", "partSize", "sourceDeclaration", "compression"].includes(k),
  );
  if (unknown.length > 0) return `body must NOT have additional property '${unknown[0]}'`;
  const { bytes, parts, partSize, sourceDeclaration, compression } = body;
  if (!Number.isSafeInteger(bytes) || (bytes as number) < 1) return "bytes must be a positive integer";
  if (!Number.isSafeInteger(parts) || (parts as number) < 1 || (parts as number) > 1000) return "parts must be 1-1000";
  if (!Number.isSafeInteger(partSize) || (partSize as number) < 5 * MIB) return "partSize must be at least 5 MiB";
  if (Math.ceil((bytes as number) / (partSize as number)) !== parts) return "parts must be ceil(bytes / partSize)";
  if (compression !== "gzip" && compression !== "none") return "compression must be gzip or none";
  if (!("sourceDeclaration" in body)) return "body must have property 'sourceDeclaration'";
  if (sourceDeclaration !== null && typeof sourceDeclaration !== "string") {
    return "sourceDeclaration must be a string or null";
  }
  return null;
}

/** Starts the upload side of the test origin. */
export function uploadStore(options: UploadStoreOptions): UploadStore {
  const root = resolve(options.store);
  const secret = randomUUID();
  const uploads = new Map<string, Upload>();
  const views = new Map<string, Record<string, unknown>>();
  const events: UploadEvent[] = [];
  const listeners = new Set<() => void>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const screenings = new Set<Promise<void>>();
  let dir: Promise<string> | null = null;
  let engine: Promise<ReadEngine> | null = null;
  let holdAfter: number | null = null;
  let holdingComplete = false;
  let admittedParts = 0;
  let releases: (() => void)[] = [];

  const note = (event: UploadEvent) => {
    events.push(event);
    for (const listener of listeners) listener();
  };
  const held = () => new Promise<void>((r) => releases.push(r));
  const sign = (id: string, n: number, len: number, exp: number) =>
    createHmac("sha256", secret).update(`${id}/${n}/${len}/${exp}`).digest("hex");
  const partDir = async (id: string) => {
    dir ??= mkdtemp(join(tmpdir(), "svc-origin-uploads-"));
    const path = join(await dir, id);
    await mkdir(path, { recursive: true });
    return path;
  };

  async function init(req: Request, slug: string): Promise<Response> {
    let body: Record<string, unknown>;
    try {
      body = await req.json();
    } catch {
      return json(400, { error: "body is not JSON" });
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) return json(400, { error: "body must be an object" });
    const problem = checkInit(body);
    if (problem) return json(400, { error: problem });
    if ((body.bytes as number) > MAX_UPLOAD_BYTES) return json(413, { error: "an upload is at most 5 GB" });
    const meta = await openStore(root).meta(slug);
    if (!meta) return json(404, { error: `project ${slug} not found` });
    const upload: Upload = {
      id: randomUUID(),
      slug,
      bytes: body.bytes as number,
      parts: body.parts as number,
      partSize: body.partSize as number,
      compression: body.compression as "gzip" | "none",
      sourceDeclaration: body.sourceDeclaration as string | null,
      agentKey: req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "",
      expiresAt: Date.now() + (options.ttlMs ?? 3_600_000),
      stored: new Map(),
      completed: null,
    };
    uploads.set(upload.id, upload);
    const parts = Array.from({ length: upload.parts }, (_, i) => {
      const n = i + 1;
      const len = Math.min(upload.bytes, n * upload.partSize) - i * upload.partSize;
      const exp = upload.expiresAt;
      return {
        n,
        url: `${options.origin}/_objects/${upload.id}/${n}?len=${len}&exp=${exp}&sig=${sign(upload.id, n, len, exp)}`,
      };
    });
    note({ type: "init", uploadId: upload.id });
    return json(201, { uploadId: upload.id, expiresAt: new Date(upload.expiresAt).toISOString(), parts });
  }

  async function putPart(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const [, , id, nText] = url.pathname.split("/");
    const n = Number(nText);
    const len = Number(url.searchParams.get("len"));
    const exp = Number(url.searchParams.get("exp"));
    const refuse = (status: number, code: string, message: string) => {
      note({ type: "refused", uploadId: id, n, status, reason: code });
      return s3Error(status, code, message);
    };
    const bytes = new Uint8Array(await req.arrayBuffer());
    if (req.headers.has("authorization")) {
      return refuse(400, "InvalidArgument", "Only one auth mechanism allowed: the query signature or Authorization");
    }
    if (req.method !== "PUT") return refuse(405, "MethodNotAllowed", "only PUT");
    if (url.searchParams.get("sig") !== sign(id, n, len, exp)) {
      return refuse(403, "SignatureDoesNotMatch", "The request signature we calculated does not match");
    }
    const upload = uploads.get(id);
    if (!upload) return refuse(404, "NoSuchUpload", "The specified upload does not exist");
    if (Date.now() > Math.min(exp, upload.expiresAt)) return refuse(403, "AccessDenied", "Request has expired");
    if (bytes.byteLength !== len) {
      return refuse(403, "SignatureDoesNotMatch", `signed for ${len} bytes, ${bytes.byteLength} sent`);
    }
    // Admitted and counted in one step, so that parts arriving together cannot both slip under the hold.
    if (holdAfter !== null && admittedParts >= holdAfter) {
      note({ type: "held", uploadId: id, n });
      await held();
      return s3Error(503, "SlowDown", "held by the test and released");
    }
    admittedParts++;
    await writeFile(join(await partDir(id), String(n)), bytes);
    const etag = createHash("md5").update(bytes).digest("hex");
    upload.stored.set(n, { etag, bytes: bytes.byteLength });
    note({ type: "part", uploadId: id, n });
    return new Response(null, { status: 200, headers: { etag: `"${etag}"` } });
  }

  async function screen(upload: Upload, view: Record<string, unknown>): Promise<void> {
    const id = view.id as string;
    views.set(id, { ...view, status: "validating" });
    const reject = (verdict: Record<string, unknown>) => views.set(id, { ...view, status: "rejected", verdict });
    try {
      const chunks = [];
      for (let n = 1; n <= upload.parts; n++) chunks.push(await readFile(join(await partDir(upload.id), String(n))));
      let whole: Uint8Array = Buffer.concat(chunks);
      if (upload.compression === "gzip") whole = gunzipSync(whole);
      const records: ExactJson[] = [];
      for (const [i, line] of new TextDecoder().decode(whole).split("\n").entries()) {
        if (line.trim() === "") continue;
        let record: ExactJson;
        try {
          record = parseExactJson(line);
        } catch {
          return void reject({ gate: "schema", reason: `line ${i + 1}: not JSON` });
        }
        if (!record || typeof record !== "object" || Array.isArray(record)) {
          return void reject({ gate: "schema", reason: `line ${i + 1}: a record must be a JSON object` });
        }
        records.push(record);
      }
      if (records.length === 0) return void reject({ gate: "schema", reason: "the upload holds no records" });
      const store = openStore(root);
      const meta = await store.meta(upload.slug);
      engine ??= openReadEngine(root);
      const ctx: WriteTarget = {
        store,
        writer: await engine,
        now: Date.now,
        keepVersions: null,
        follow: null,
        log: { warn: (message) => console.error(`warning: ${message}`) },
        writes: createWriteCache(),
      };
      const agentId = `key-${createHash("sha256").update(upload.agentKey).digest("hex").slice(0, 16)}`;
      const { view: outcome } = await contribute(ctx, upload.slug, meta!.schemaDef as SchemaDef, {
        records,
        sourceDeclaration: upload.sourceDeclaration,
        idempotencyKey: null,
        agentId,
      });
      views.set(id, { ...view, ...outcome, id, recordCount: records.length });
    } catch (e) {
      reject({ gate: "upload", reason: (e as Error).message });
    }
  }

  async function complete(req: Request, slug: string, uploadId: string): Promise<Response> {
    const upload = uploads.get(uploadId);
    if (!upload || upload.slug !== slug) return json(404, { error: `upload ${uploadId} not found` });
    let body: { etags?: { n?: unknown; etag?: unknown }[] };
    try {
      body = await req.json();
    } catch {
      return json(400, { error: "body is not JSON" });
    }
    note({ type: "complete", uploadId });
    if (holdingComplete) await held();
    const etags = JSON.stringify(body?.etags ?? null);
    if (upload.completed) {
      if (upload.completed.etags === etags) return json(200, upload.completed.answer);
      return json(409, { error: `upload ${uploadId} was completed with other ETags` });
    }
    if (Date.now() > upload.expiresAt) return json(410, { error: `upload ${uploadId} expired` });
    const given = new Map((Array.isArray(body?.etags) ? body.etags : []).map((e) => [e.n, String(e.etag)]));
    for (let n = 1; n <= upload.parts; n++) {
      const part = upload.stored.get(n);
      if (!part) return json(400, { error: `part ${n} was not uploaded` });
      if (given.get(n)?.replace(/^"|"$/g, "") !== part.etag) {
        return json(400, { error: `part ${n}: ETag does not match` });
      }
    }
    const total = [...upload.stored.values()].reduce((sum, p) => sum + p.bytes, 0);
    if (total !== upload.bytes) return json(400, { error: `the parts hold ${total} bytes, not ${upload.bytes}` });
    const view: Record<string, unknown> = {
      id: randomUUID(),
      status: "submitted",
      recordCount: null,
      acceptedCount: null,
      verdict: null,
      mergedVersion: null,
      createdAt: new Date().toISOString(),
      sourceDeclaration: upload.sourceDeclaration,
    };
    views.set(view.id as string, view);
    const answer = { uploadId, contributionId: view.id, status: "submitted" };
    upload.completed = { etags, answer };
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = screen(upload, view).finally(() => screenings.delete(run));
      screenings.add(run);
    }, options.screenMs);
    timers.add(timer);
    return json(201, answer);
  }

  return {
    init,
    putPart,
    complete,
    contribution: (id) => views.get(id),
    events,
    waitForEvent(match, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no such upload event within ${ms} ms; saw ${JSON.stringify(events.slice(-5))}`));
        }, ms);
        if (!check()) listeners.add(check);
      });
    },
    holdPartsAfter(answered) {
      holdAfter = answered;
      admittedParts = 0;
    },
    holdComplete() {
      holdingComplete = true;
    },
    release() {
      holdAfter = null;
      holdingComplete = false;
      const waiting = releases;
      releases = [];
      for (const r of waiting) r();
    },
    expire() {
      for (const upload of uploads.values()) upload.expiresAt = Date.now() - 1;
    },
    async contentOf(id) {
      const parts = [...(uploads.get(id)?.stored.keys() ?? [])].sort((a, b) => a - b);
      return Buffer.concat(await Promise.all(parts.map(async (n) => readFile(join(await partDir(id), String(n))))));
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      this.release();
      await Promise.all([...screenings]);
      if (engine) await (await engine).close();
      if (dir) await rm(await dir, { recursive: true, force: true });
    },
  };
}
