/**
 * The behaviour of the origin, for the test origin: a real node over a store
 * does the reading and merging, and this layer adds what the origin does
 * differently. Reads of content need an agent key (spec 5.2; project list and
 * details do not); project creation takes only the listed licenses; manifests
 * are signed with Ed25519 and the keys are published at
 * `/.well-known/svc-keys`, with rotation (the old key endorses the new and the
 * chain travels in every signature), retirement and revocation; contributions
 * are screened asynchronously (answered `pending`, merged a little later);
 * multipart uploads (push) go through `origin_uploads.ts`. A manifest honours
 * `have=` as the origin does (the listed parts, at most 100, come without
 * URLs), and every manifest answered is recorded with how many of its parts
 * carried a URL: the parts the origin counts as egress.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { createNode, type SvcNode } from "../../src/node/mod.ts";
import { listedLicense, ORIGIN_LICENSES } from "../../src/client/client.ts";
import type { ChainLink } from "../../src/trust/verify.ts";
import { type Area, AREAS } from "./origin_areas.ts";
import { type UploadStore, uploadStore } from "./origin_uploads.ts";
import { endorse, type SigningKey, signingKey, signManifest } from "./signing.ts";

/** What the origin layer is built from. */
export interface OriginAppOptions {
  /** The store the origin's projects live in. */
  store: string;
  /** The origin's base URL as clients name it (what signatures say). */
  origin: string;
  /** Agent keys the origin accepts (default `["agent-key"]`). */
  agentKeys?: string[];
  /** Seed of the first signing key (64 hex digits); no signing without one. */
  seed?: string;
  /** Milliseconds a contribution stays `pending` (default 150). */
  screenMs?: number;
  /** Milliseconds the part URLs of an upload live (default an hour). */
  uploadTtlMs?: number;
}

/** A key the origin has held. */
interface HeldKey {
  key: SigningKey;
  status: "current" | "retired" | "revoked";
}

/** A manifest the origin answered, and what it counts as egress for it. */
export interface IssuedManifest {
  /** Project slug. */
  slug: string;
  /** The version answered. */
  version: number;
  /** Parts the manifest lists. */
  parts: number;
  /** Parts listed with a URL: counted as egress (those named in `have` are not). */
  withUrl: number;
  /** How many digests `have` named. */
  have: number;
}

/** The origin layer: a handler plus the controls a test uses. */
export interface OriginApp {
  /** Answers one request. */
  handle(req: Request): Promise<Response>;
  /** A new signing key from `seed`, endorsed by the current one, which retires. */
  rotate(seed: string): Promise<SigningKey>;
  /** Marks `kid` revoked (it signs nothing after). */
  revoke(kid: string): void;
  /** The key that signs now. */
  current(): SigningKey | null;
  /** The multipart uploads and their object store, with their test controls. */
  uploads: UploadStore;
  /** The route areas beyond datasets (`origin_areas.ts`), by name, with their controls. */
  areas: Record<string, Area>;
  /** Every manifest answered, in order, with the parts it counted as egress. */
  manifests: IssuedManifest[];
  /** Releases the inner node. */
  close(): Promise<void>;
}

const INNER_TOKEN = "origin-inner-token";

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** Whether `path` reads content that needs an agent key on the origin. */
function needsKey(method: string, path: string): boolean {
  if (method === "POST") return true;
  return /^\/projects\/[^/]+\/(data|manifest|export|contributions\/[^/]+)$/.test(path);
}

/** Starts the origin layer over `options.store`. */
export async function originApp(options: OriginAppOptions): Promise<OriginApp> {
  const inner: SvcNode = await createNode({ store: options.store, host: "127.0.0.1", token: INNER_TOKEN });
  const agentKeys = new Set(options.agentKeys ?? ["agent-key"]);
  const held: HeldKey[] = options.seed ? [{ key: await signingKey(options.seed), status: "current" }] : [];
  const endorsements: ChainLink[] = [];
  const manifests: IssuedManifest[] = [];
  const pending = new Map<string, Record<string, unknown>>();
  const replays = new Map<string, string>();
  const screenMs = options.screenMs ?? 150;
  const uploads = uploadStore({ store: options.store, origin: options.origin, screenMs, ttlMs: options.uploadTtlMs });
  const areaContext = {
    origin: options.origin,
    store: options.store,
    agentKeys,
    bearer: (req: Request) => req.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1] ?? null,
    json: answer,
  };
  const areas = Object.fromEntries(Object.entries(AREAS).map(([name, make]) => [name, make(areaContext)]));

  const forward = (req: Request, url: URL, body?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json", host: new URL(options.origin).host };
    // Parts answer to their presigned URL alone, as on the origin.
    if (!url.pathname.startsWith("/parts/")) headers.authorization = `Bearer ${INNER_TOKEN}`;
    return inner.handler(
      new Request(`${options.origin}${url.pathname}${url.search}`, { method: req.method, headers, body }),
    );
  };

  const current = () => held.find((k) => k.status === "current")?.key ?? null;

  /** Endorsements leading from the first key to `kid`. */
  const chainTo = (kid: string): ChainLink[] => {
    const chain: ChainLink[] = [];
    for (
      let link = endorsements.find((e) => e.kid === kid);
      link;
      link = endorsements.find((e) => e.kid === link!.by)
    ) {
      chain.unshift(link);
    }
    return chain;
  };

  const keysDocument = () => ({
    origin: options.origin,
    keys: held.map(({ key, status }) => ({ kid: key.kid, alg: "Ed25519", publicKey: key.publicKey, status })),
    endorsements: endorsements.map(({ kid, by, sig }) => ({ kid, by, sig })),
  });

  async function contribute(req: Request, url: URL, slug: string): Promise<Response> {
    const body = await req.text();
    const key = req.headers.get("idempotency-key");
    const replayOf = key ? replays.get(`${slug}\n${key}`) : undefined;
    if (replayOf) return answer(200, pending.get(replayOf), { "idempotent-replayed": "true" });
    let parsed: { records?: unknown[]; sourceDeclaration?: string };
    try {
      parsed = JSON.parse(body);
    } catch {
      return answer(400, { error: "body is not JSON" });
    }
    const id = randomUUID();
    const view: Record<string, unknown> = {
      id,
      status: "pending",
      recordCount: Array.isArray(parsed.records) ? parsed.records.length : 0,
      acceptedCount: null,
      verdict: null,
      mergedVersion: null,
      createdAt: new Date().toISOString(),
      sourceDeclaration: parsed.sourceDeclaration ?? null,
    };
    pending.set(id, view);
    if (key) replays.set(`${slug}\n${key}`, id);
    setTimeout(async () => {
      const res = await forward(new Request(url, { method: "POST" }), url, body);
      const merged = await res.json();
      pending.set(id, res.ok ? { ...merged, id } : { ...view, status: "rejected", verdict: { reason: merged.error } });
    }, screenMs);
    return answer(202, view);
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path === "/healthz") return answer(200, { ok: true });
    if (path === "/.well-known/svc-keys") return answer(200, keysDocument());
    // The object store: presigned URLs are the only credential it takes.
    if (path.startsWith("/_objects/")) return uploads.putPart(req);
    for (const area of Object.values(areas)) {
      const answered = await area.handle(req, url);
      if (answered) return answered;
    }
    if (needsKey(req.method, path)) {
      const key = req.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
      if (!key || !agentKeys.has(key)) return answer(401, { error: "an agent key is required" });
    }
    if (req.method === "POST" && path === "/projects") {
      const text = await req.text();
      const project = JSON.parse(text);
      if (project.license !== undefined && !listedLicense(String(project.license))) {
        return answer(400, { error: `license must be one of ${ORIGIN_LICENSES.join(", ")}` });
      }
      const res = await forward(req, url, text);
      const created = await res.json();
      return answer(res.status, res.ok ? { ...created, id: randomUUID(), local: undefined } : created);
    }
    const contributeMatch = path.match(/^\/projects\/([^/]+)\/contribute$/);
    if (req.method === "POST" && contributeMatch) return contribute(req, url, contributeMatch[1]);
    const uploadMatch = path.match(/^\/projects\/([^/]+)\/uploads(?:\/([^/]+)\/complete)?$/);
    if (req.method === "POST" && uploadMatch) {
      const [, slug, id] = uploadMatch;
      return id === undefined ? uploads.init(req, slug) : uploads.complete(req, slug, decodeURIComponent(id));
    }
    const statusMatch = path.match(/^\/projects\/[^/]+\/contributions\/([^/]+)$/);
    if (statusMatch && pending.has(statusMatch[1])) return answer(200, pending.get(statusMatch[1]));
    const uploaded = statusMatch ? uploads.contribution(statusMatch[1]) : undefined;
    if (uploaded) return answer(200, uploaded);
    const res = await forward(req, url, req.method === "POST" ? await req.text() : undefined);
    if (!res.ok) return res;
    if (/^\/projects\/[^/]+\/manifest$/.test(path)) {
      const manifest = await res.json();
      const parts: { url?: string }[] = manifest.parts ?? [];
      manifests.push({
        slug: manifest.project,
        version: manifest.version,
        parts: parts.length,
        withUrl: parts.filter((p) => typeof p.url === "string").length,
        have: (url.searchParams.get("have") ?? "").split(",").filter((sha) => sha !== "").length,
      });
      const key = current();
      return answer(200, key ? await signManifest(manifest, options.origin, key, chainTo(key.kid)) : manifest);
    }
    if (/^\/projects(\/[^/]+)?$/.test(path)) {
      // The origin's projects are its own, not "local" ones.
      const body = await res.json();
      for (const entry of body.projects ?? [body]) delete entry.local;
      return answer(200, body);
    }
    return res;
  }

  return {
    handle,
    current,
    uploads,
    areas,
    manifests,
    async rotate(seed) {
      const old = current();
      const next = await signingKey(seed);
      if (old) {
        endorsements.push(await endorse(options.origin, old, next));
        held.find((k) => k.key === old)!.status = "retired";
      }
      held.push({ key: next, status: "current" });
      return next;
    },
    revoke(kid) {
      const key = held.find((k) => k.key.kid === kid);
      if (key) key.status = "revoked";
    },
    async close() {
      await uploads.close();
      await inner.close();
    },
  };
}
