/**
 * The knowledge units the test origin holds, and the origin's checks of what
 * it is sent (origin-wire 3.1, 3.3): agents by key, units and their
 * listings (every version of a unit, its price, readers, reviews,
 * comments), points, and the strict body checks a real origin makes.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { ORIGIN_LICENSES } from "../../src/wire/licenses.ts";
import type { UnitValidation } from "../../src/origin/wire/knowledge.ts";
import { effectiveMicro, type ListingPrice, parsePrice } from "./origin_prices.ts";

/** An agent, known by its key. */
export interface Agent {
  /** Its id. */
  id: string;
  /** Its name. */
  name: string;
  /** Its key. */
  key: string;
}

/** One version of a unit. */
export interface UnitVersion {
  id: string;
  groupId: string;
  version: number;
  owner: Agent;
  title: string;
  body: string;
  category: string;
  license: string;
  sourceDeclaration: string | null;
  provenance: Record<string, unknown> | null;
  status: "submitted" | "validating" | "published" | "rejected" | "retired";
  createdAt: string;
  validations: UnitValidation[];
  supersededBy: string | null;
}

/** A listing: every version of one unit, sold as one. */
export interface Listing extends ListingPrice {
  groupId: string;
  owner: Agent;
  /** Version ids, oldest first. */
  versions: string[];
  retiredAt: string | null;
  /** Keys that read it in full. */
  readers: Set<string>;
  /** Keys whose operator bought it. */
  buyers: Set<string>;
  /** Reviews by agent key. */
  reviews: Map<string, { rating: number; comment: string | null; agentName: string; createdAt: string }>;
  comments: { id: string; parentId: string | null; body: string; createdAt: string; agent: string; operator: string }[];
}

/** A points entry. */
export interface PointsEntry {
  points: number;
  reason: string;
  createdAt: string;
}

/** Everything the knowledge area holds. */
export interface KnowledgeState {
  agents: Map<string, Agent>;
  units: Map<string, UnitVersion>;
  listings: Map<string, Listing>;
  points: Map<string, PointsEntry[]>;
}

/** An empty state. */
export function knowledgeState(): KnowledgeState {
  return { agents: new Map(), units: new Map(), listings: new Map(), points: new Map() };
}

/** The agent of `key` (named after the key until a test names it). */
export function agentOf(state: KnowledgeState, key: string): Agent {
  let agent = state.agents.get(key);
  if (!agent) state.agents.set(key, agent = { id: randomUUID(), name: key, key });
  return agent;
}

/** The listing `unit` belongs to. */
export function listingOf(state: KnowledgeState, unit: UnitVersion): Listing {
  return state.listings.get(unit.groupId)!;
}

/** The listing's versions, oldest first. */
export function versionsOf(state: KnowledgeState, listing: Listing): UnitVersion[] {
  return listing.versions.map((id) => state.units.get(id)!);
}

/** The newest published version of a listing, else its newest version. */
export function latestOf(state: KnowledgeState, listing: Listing): UnitVersion {
  const all = versionsOf(state, listing);
  return all.findLast((u) => u.status === "published") ?? all[all.length - 1];
}

/** Whether the caller of `key` must buy the listing before reading it (a seller-priced unit). */
export function lockedFor(listing: Listing, key: string | null): boolean {
  if (listing.priceMicro === null || effectiveMicro(listing) === 0) return false;
  return !(key !== null && (key === listing.owner.key || listing.buyers.has(key)));
}

/** Awards points to the agent of `key`. */
export function award(state: KnowledgeState, key: string, points: number, reason: string, at: string): void {
  const entries = state.points.get(key) ?? [];
  entries.push({ points, reason, createdAt: at });
  state.points.set(key, entries);
}

type Check = string | null;

function only(body: Record<string, unknown>, allowed: string[]): Check {
  const extra = Object.keys(body).find((k) => !allowed.includes(k));
  return extra === undefined ? null : `unknown field ${extra}`;
}

function text(body: Record<string, unknown>, key: string, min: number, max: number, required: boolean): Check {
  const value = body[key];
  if (value === undefined) return required ? `${key} is required` : null;
  if (typeof value !== "string" || [...value.trim()].length < min || [...value].length > max) {
    return `${key} must be ${min}-${max} characters`;
  }
  return null;
}

function category(body: Record<string, unknown>, required: boolean): Check {
  const value = body.category;
  if (value === undefined) return required ? "category is required" : null;
  return typeof value === "string" && value.length <= 50 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)
    ? null
    : "category must be kebab-case, at most 50 characters";
}

function license(body: Record<string, unknown>): Check {
  if (body.license === undefined) return null;
  return ORIGIN_LICENSES.includes(body.license as string)
    ? null
    : `license must be one of ${ORIGIN_LICENSES.join(", ")}`;
}

/** Why a provenance is refused (origin-wire 3.1), or null. */
export function provenanceProblem(value: unknown): Check {
  if (value === undefined) return null;
  if (!value || typeof value !== "object" || Array.isArray(value)) return "provenance must be an object";
  const p = value as Record<string, unknown>;
  const extra = only(p, ["kind", "sources", "termsChecked"]);
  if (extra) return `provenance: ${extra}`;
  if (!["own_measurement", "derived_public", "derived_private"].includes(p.kind as string)) {
    return "provenance.kind must be own_measurement, derived_public or derived_private";
  }
  const sources = p.sources ?? [];
  if (!Array.isArray(sources) || sources.length > 10) return "provenance.sources must be a list of at most 10";
  for (const s of sources as Record<string, unknown>[]) {
    if (!s || typeof s !== "object" || (typeof s.url !== "string" && typeof s.title !== "string")) {
      return "every provenance source needs a url or a title";
    }
    if (!["public", "subscription", "internal"].includes(s.access as string)) {
      return "provenance source access must be public, subscription or internal";
    }
    if (s.accessedAt !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(s.accessedAt))) {
      return "provenance source accessedAt must be YYYY-MM-DD";
    }
  }
  const list = sources as Record<string, unknown>[];
  if (p.kind === "derived_public" && !list.some((s) => s.access === "public" && typeof s.url === "string")) {
    return "derived_public provenance needs at least one public source with a url";
  }
  if (p.kind === "derived_private" && !list.some((s) => s.access === "subscription" || s.access === "internal")) {
    return "derived_private provenance needs a subscription or internal source";
  }
  if (p.kind !== "own_measurement" && p.termsChecked !== true) return "derived provenance needs termsChecked: true";
  return null;
}

/** Why a submission (`POST /knowledge`) is refused, or null. */
export function submissionProblem(body: Record<string, unknown>): Check {
  const price = body.price === undefined ? 0 : parsePrice(body.price);
  return only(body, [
    "title",
    "body",
    "category",
    "sourceDeclaration",
    "license",
    "price",
    "trialSale",
    "provenance",
  ]) ??
    text(body, "title", 1, 200, true) ?? text(body, "body", 1, 50_000, true) ?? category(body, true) ??
    text(body, "sourceDeclaration", 4, 2000, true) ?? license(body) ??
    (typeof price === "string" ? price : null) ??
    (body.trialSale !== undefined && typeof body.trialSale !== "boolean" ? "trialSale must be true or false" : null) ??
    provenanceProblem(body.provenance);
}

/** Why a revision (`POST /knowledge/{id}/revise`) is refused, or null. */
export function revisionProblem(body: Record<string, unknown>): Check {
  return only(body, ["body", "title", "category", "sourceDeclaration", "license", "provenance"]) ??
    text(body, "body", 1, 50_000, true) ?? text(body, "title", 1, 200, false) ?? category(body, false) ??
    text(body, "sourceDeclaration", 4, 2000, false) ?? license(body) ?? provenanceProblem(body.provenance);
}

/** The validations a stage of the pipeline adds. */
export function stageValidation(stage: "format" | "quality", pass: boolean, at: string, detail?: string) {
  return stage === "format"
    ? { stage, verdict: pass ? "pass" : "fail", score: null, detail: detail ?? null, model: null, createdAt: at }
    : {
      stage,
      verdict: pass ? "pass" : "fail",
      score: pass ? 8 : 2,
      detail: detail ?? null,
      model: "judge-1",
      createdAt: at,
    };
}
