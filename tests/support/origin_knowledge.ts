/**
 * The test origin's knowledge units (origin-wire 3.1-3.7): submit, status,
 * a validation pipeline tests drive (submitted, validating, published or
 * rejected), revisions (one pending at a time), retire (the author only),
 * listing prices (one change a day by the area's clock), free, default and
 * seller-priced reads (402 without a key or a purchase), search, reviews,
 * comments, points and the leaderboard. Bodies are checked strictly: an
 * unknown field, a license not spelled as listed or a body that is not a
 * JSON object is a 400, so tests prove what the client sends.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import type { AreaContext, AreaFactory } from "./origin_areas.ts";
import { changePrice, effectiveMicro, parsePrice, priceText } from "./origin_prices.ts";
import {
  agentOf,
  award,
  type KnowledgeState,
  knowledgeState,
  latestOf,
  listingOf,
  lockedFor,
  revisionProblem,
  stageValidation,
  submissionProblem,
  type UnitVersion,
  versionsOf,
} from "./origin_knowledge_state.ts";
import { searchAnswer } from "./origin_knowledge_search.ts";
import { socialRoute } from "./origin_knowledge_social.ts";

/** A request the area answered. */
export interface KnowledgeRequest {
  method: string;
  path: string;
  /** The bearer sent, or null. */
  key: string | null;
  /** The body parsed as JSON (its text when it is not JSON), or null with none. */
  body: unknown;
}

/** What tests drive and read of the knowledge area (`origin.app!.areas.knowledge.controls`). */
export interface KnowledgeControls {
  /** Agents, units, listings and points. */
  state: KnowledgeState;
  /** What the area answered, in order. */
  received: KnowledgeRequest[];
  /** The area's clock (milliseconds): timestamps and the one-price-change-a-day rule. */
  now: number;
  /** Submissions each key may make per hour before a 429. */
  submitsPerHour: number;
  /** When set, a status read of a unit still in validation settles it so. */
  autoVerdict: "published" | "rejected" | null;
  /** Moves the clock on. */
  tick(ms: number): void;
  /** Moves a unit on in its validation (a published revision supersedes the one before). */
  advance(id: string, to: "validating" | "published" | "rejected", detail?: string): void;
  /** Names the agent of `key`. */
  name(key: string, agentName: string): void;
  /** Marks the listing of `id` bought by the operator of `key`. */
  grant(id: string, key: string): void;
  /** A unit published at once by the agent of `key`; its id. */
  publish(key: string, unit: { title: string; body: string; category?: string; price?: string | number }): string;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The knowledge area, for `AREAS` (origin_areas.ts). */
export const knowledgeArea: AreaFactory = (context: AreaContext) => {
  const state = knowledgeState();
  const submits = new Map<string, number[]>();
  const controls: KnowledgeControls = {
    state,
    received: [],
    now: Date.parse("2026-10-08T12:00:00Z"),
    submitsPerHour: 20,
    autoVerdict: null,
    tick: (ms) => void (controls.now += ms),
    advance,
    name: (key, agentName) => void (agentOf(state, key).name = agentName),
    grant: (id, key) => void listingOf(state, state.units.get(id)!).buyers.add(key),
    publish(key, unit) {
      const made = createUnit(key, {
        title: unit.title,
        body: unit.body,
        category: unit.category ?? "notes",
        sourceDeclaration: "seeded by the test",
        ...(unit.price === undefined ? {} : { price: unit.price }),
      });
      advance(made.id, "published");
      return made.id;
    },
  };
  const at = () => new Date(controls.now).toISOString();

  function advance(id: string, to: "validating" | "published" | "rejected", detail?: string): void {
    const unit = state.units.get(id)!;
    if (unit.status === "submitted") {
      unit.validations.push(stageValidation("format", true, at()));
      unit.status = "validating";
    }
    if (to === "validating") return;
    unit.validations.push(stageValidation("quality", to === "published", at(), detail));
    unit.status = to;
    if (to !== "published") return;
    const listing = listingOf(state, unit);
    const before = versionsOf(state, listing).filter((u) => u.id !== unit.id && u.status === "published");
    for (const old of before) old.supersededBy = unit.id;
    if (unit.version === 1) award(state, unit.owner.key, 10, "unit published", at());
  }

  function createUnit(key: string, body: Record<string, unknown>): UnitVersion {
    const owner = agentOf(state, key);
    const groupId = randomUUID();
    const price = body.price === undefined ? null : parsePrice(body.price) as number;
    const unit: UnitVersion = {
      id: randomUUID(),
      groupId,
      version: 1,
      owner,
      title: body.title as string,
      body: body.body as string,
      category: body.category as string,
      license: (body.license as string) ?? "platform-standard",
      sourceDeclaration: body.sourceDeclaration as string,
      provenance: (body.provenance as Record<string, unknown>) ?? null,
      status: "submitted",
      createdAt: at(),
      validations: [],
      supersededBy: null,
    };
    state.units.set(unit.id, unit);
    state.listings.set(groupId, {
      groupId,
      owner,
      versions: [unit.id],
      priceMicro: price,
      trialSale: body.trialSale === true,
      priceChangedAt: null,
      retiredAt: null,
      readers: new Set(),
      buyers: new Set(),
      reviews: new Map(),
      comments: [],
    });
    return unit;
  }

  const kindOf = (unit: UnitVersion) => (unit.provenance?.kind as string | undefined) ?? "unspecified";

  function submit(key: string, body: Record<string, unknown>): Response {
    const problem = submissionProblem(body);
    if (problem) return json(400, { error: problem });
    const recent = (submits.get(key) ?? []).filter((t) => controls.now - t < 3600_000);
    if (recent.length >= controls.submitsPerHour) {
      const retryAfter = Math.ceil(((recent[0] ?? controls.now) + 3600_000 - controls.now) / 1000);
      return json(429, { error: "too many submissions: try again later", retryAfter });
    }
    submits.set(key, [...recent, controls.now]);
    const unit = createUnit(key, body);
    const listing = listingOf(state, unit);
    return json(201, {
      id: unit.id,
      title: unit.title,
      category: unit.category,
      status: unit.status,
      createdAt: unit.createdAt,
      price: priceText(effectiveMicro(listing)),
      priceMicro: effectiveMicro(listing),
      trialSale: listing.trialSale,
      provenanceKind: kindOf(unit),
    });
  }

  function status(unit: UnitVersion): Response {
    if (controls.autoVerdict && (unit.status === "submitted" || unit.status === "validating")) {
      advance(unit.id, controls.autoVerdict, controls.autoVerdict === "rejected" ? "too thin to be useful" : undefined);
    }
    const { id, title, category, license, status, createdAt, validations } = unit;
    return json(200, { id, title, category, license, status, createdAt, validations });
  }

  function read(unit: UnitVersion, key: string | null): Response {
    const listing = listingOf(state, unit);
    const mine = key === unit.owner.key;
    if (!mine && unit.status !== "published" && unit.status !== "retired") {
      return json(404, { error: "unit not found" });
    }
    if (listing.retiredAt && !mine && !(key && (listing.readers.has(key) || listing.buyers.has(key)))) {
      return json(410, { error: "this unit was retired" });
    }
    const micro = effectiveMicro(listing);
    const pay = `${context.origin}/paid/knowledge/${unit.id}`;
    if (micro > 0 && key === null) return json(402, { error: "payment required", price: priceText(micro), pay });
    if (lockedFor(listing, key)) {
      return json(402, { error: "priced by its seller: buy it before reading", price: priceText(micro), pay });
    }
    const royaltyAwarded = key !== null && !mine && !listing.readers.has(key);
    if (key !== null) listing.readers.add(key);
    const latest = latestOf(state, listing);
    const note = listing.retiredAt
      ? "retired by its author; readers who had it keep it"
      : unit.supersededBy
      ? `a newer version exists: ${latest.id}`
      : undefined;
    return json(200, {
      id: unit.id,
      ownerAgentId: unit.owner.id,
      title: unit.title,
      body: unit.body,
      category: unit.category,
      license: unit.license,
      sourceDeclaration: unit.sourceDeclaration,
      createdAt: unit.createdAt,
      agentName: unit.owner.name,
      royaltyAwarded,
      price: priceText(micro),
      priceMicro: micro,
      locked: listing.priceMicro !== null && micro > 0,
      status: unit.status,
      version: unit.version,
      groupId: unit.groupId,
      supersededBy: unit.supersededBy,
      latestId: latest.id,
      ...(note ? { note } : {}),
    });
  }

  function revise(unit: UnitVersion, key: string, body: Record<string, unknown>): Response {
    const listing = listingOf(state, unit);
    if (key !== unit.owner.key) return json(403, { error: "only the author can revise this unit" });
    if (listing.retiredAt) return json(409, { error: "this unit was retired" });
    const problem = revisionProblem(body);
    if (problem) return json(400, { error: problem });
    const versions = versionsOf(state, listing);
    if (versions.some((u) => u.status === "submitted" || u.status === "validating")) {
      return json(409, { error: "a revision of this unit is already pending validation" });
    }
    const last = versions[versions.length - 1];
    const next: UnitVersion = {
      ...last,
      id: randomUUID(),
      version: last.version + 1,
      body: body.body as string,
      title: (body.title as string) ?? last.title,
      category: (body.category as string) ?? last.category,
      license: (body.license as string) ?? last.license,
      sourceDeclaration: (body.sourceDeclaration as string) ?? last.sourceDeclaration,
      provenance: (body.provenance as Record<string, unknown>) ?? last.provenance,
      status: "submitted",
      createdAt: at(),
      validations: [],
      supersededBy: null,
    };
    state.units.set(next.id, next);
    listing.versions.push(next.id);
    return json(201, {
      id: next.id,
      version: next.version,
      status: next.status,
      provenanceKind: kindOf(next),
      validation: { stage: "queued", verdict: "pending" },
    });
  }

  function retire(unit: UnitVersion, key: string, raw: string): Response {
    const listing = listingOf(state, unit);
    if (raw !== "{}") return json(400, { error: "retire takes an empty JSON object {}" });
    if (key !== unit.owner.key) return json(403, { error: "only the author can retire this unit" });
    if (listing.retiredAt) return json(409, { error: "this unit is already retired" });
    const latest = latestOf(state, listing);
    listing.retiredAt = at();
    for (const version of versionsOf(state, listing)) version.status = "retired";
    return json(200, {
      id: unit.id,
      groupId: listing.groupId,
      latestId: latest.id,
      status: "retired",
      retiredAt: listing.retiredAt,
      versions: listing.versions.length,
    });
  }

  function price(unit: UnitVersion, key: string, body: Record<string, unknown>): Response {
    const listing = listingOf(state, unit);
    if (key !== unit.owner.key) return json(403, { error: "only the author can price this unit" });
    if (listing.retiredAt) return json(409, { error: "this unit was retired" });
    const extra = Object.keys(body).find((k) => k !== "price" && k !== "trialSale");
    if (extra) return json(400, { error: `unknown field ${extra}` });
    if (Object.keys(body).length === 0) return json(400, { error: "give price or trialSale" });
    const { status, body: answer } = changePrice(listing, body, controls.now);
    return json(status, status === 200 ? { id: unit.id, groupId: listing.groupId, ...answer } : answer);
  }

  async function handle(req: Request, url: URL): Promise<Response | null> {
    const path = url.pathname;
    if (path !== "/search" && path !== "/points" && path !== "/leaderboard" && !path.startsWith("/knowledge")) {
      return null;
    }
    const raw = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
    let body: unknown = null;
    try {
      body = raw === "" ? null : JSON.parse(raw);
    } catch {
      body = raw;
    }
    const sent = context.bearer(req);
    controls.received.push({ method: req.method, path: `${path}${url.search}`, key: sent, body });
    const key = sent !== null && context.agentKeys.has(sent) ? sent : null;
    const needKey = () => key === null ? json(401, { error: "an agent key is required" }) : null;
    if (raw !== "") {
      if (!/^application\/json\b/.test(req.headers.get("content-type") ?? "")) {
        return json(415, { error: "send JSON (content-type: application/json)" });
      }
      if (!body || typeof body !== "object" || Array.isArray(body)) {
        return json(400, { error: "body must be a JSON object" });
      }
    }
    const fields = (body ?? {}) as Record<string, unknown>;
    if (req.method === "GET" && path === "/search") {
      const { status, body: answer } = searchAnswer(state, url, key, context.origin);
      return json(status, answer);
    }
    if (req.method === "POST" && path === "/knowledge") return needKey() ?? submit(key!, fields);
    const social = socialRoute(state, req.method, path, key, fields, at());
    if (social) return json(social.status, social.body);
    const match = /^\/knowledge\/([^/]+)(?:\/(full|revise|retire|price))?$/.exec(path);
    if (!match) return null;
    const [, id, action] = match;
    const route = `${req.method} ${action ?? ""}`;
    const known = ["GET ", "GET full", "POST revise", "POST retire", "PUT price"];
    if (!known.includes(route)) return json(405, { error: `${req.method} is not allowed here` });
    if (action !== "full") {
      const refused = needKey();
      if (refused) return refused;
    }
    const unit = state.units.get(decodeURIComponent(id));
    if (!unit || (action === undefined && unit.owner.key !== key)) return json(404, { error: "unit not found" });
    if (action === undefined) return status(unit);
    if (action === "full") return read(unit, key);
    if (action === "revise") return revise(unit, key!, fields);
    if (action === "retire") return retire(unit, key!, raw);
    return price(unit, key!, fields);
  }

  return { handle, controls };
};
