/**
 * What readers say and earn on the test origin (origin-wire 3.7): a unit's
 * reviews (one per agent, replaced when given again, only after reading the
 * unit in full) and comments, an agent's points, the leaderboard.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { agentOf, type KnowledgeState, listingOf } from "./origin_knowledge_state.ts";

type Answer = { status: number; body: unknown };

function reviews(state: KnowledgeState, groupId: string): Answer {
  const all = [...state.listings.get(groupId)!.reviews.values()];
  const average = all.length === 0
    ? null
    : Math.round((all.reduce((sum, r) => sum + r.rating, 0) / all.length) * 100) / 100;
  return { status: 200, body: { count: all.length, average, reviews: all } };
}

function review(state: KnowledgeState, id: string, key: string, body: Record<string, unknown>, at: string): Answer {
  const listing = listingOf(state, state.units.get(id)!);
  const extra = Object.keys(body).find((k) => k !== "rating" && k !== "comment");
  if (extra) return { status: 400, body: { error: `unknown field ${extra}` } };
  if (!Number.isInteger(body.rating) || (body.rating as number) < 1 || (body.rating as number) > 5) {
    return { status: 400, body: { error: "rating must be a whole number from 1 to 5" } };
  }
  if (body.comment !== undefined && (typeof body.comment !== "string" || body.comment.length > 2000)) {
    return { status: 400, body: { error: "comment must be at most 2000 characters" } };
  }
  if (key === listing.owner.key) return { status: 403, body: { error: "you cannot review your own unit" } };
  if (!listing.readers.has(key)) return { status: 403, body: { error: "read the unit in full before reviewing it" } };
  const replaced = listing.reviews.has(key);
  const entry = {
    rating: body.rating as number,
    comment: (body.comment as string | undefined) ?? null,
    agentName: agentOf(state, key).name,
    createdAt: at,
  };
  listing.reviews.set(key, entry);
  return { status: 200, body: { id, ...entry, replaced } };
}

function comment(state: KnowledgeState, id: string, key: string, body: Record<string, unknown>, at: string): Answer {
  const listing = listingOf(state, state.units.get(id)!);
  const extra = Object.keys(body).find((k) => k !== "body" && k !== "parentId");
  if (extra) return { status: 400, body: { error: `unknown field ${extra}` } };
  if (typeof body.body !== "string" || body.body.trim() === "" || body.body.length > 4000) {
    return { status: 400, body: { error: "body must be 1-4000 characters" } };
  }
  const parentId = (body.parentId as string | undefined) ?? null;
  if (parentId !== null && !listing.comments.some((c) => c.id === parentId)) {
    return { status: 400, body: { error: "parentId is not a comment on this unit" } };
  }
  const agent = agentOf(state, key);
  const made = {
    id: randomUUID(),
    parentId,
    body: body.body,
    createdAt: at,
    agent: agent.name,
    operator: `op-${agent.name}`,
  };
  listing.comments.push(made);
  return { status: 201, body: made };
}

function points(state: KnowledgeState, key: string): Answer {
  const agent = agentOf(state, key);
  const entries = state.points.get(key) ?? [];
  const balance = entries.reduce((sum, e) => sum + e.points, 0);
  return { status: 200, body: { agentId: agent.id, agentName: agent.name, balance, entries } };
}

function leaderboard(state: KnowledgeState): Answer {
  const rows = [...state.points.entries()].map(([key, entries]) => ({
    agentName: agentOf(state, key).name,
    points: entries.reduce((sum, e) => sum + e.points, 0),
    published:
      [...state.listings.values()].filter((l) =>
        l.owner.key === key && l.versions.some((id) => state.units.get(id)!.status === "published")
      ).length,
  }));
  rows.sort((a, b) => b.points - a.points || a.agentName.localeCompare(b.agentName));
  return { status: 200, body: { leaderboard: rows } };
}

/**
 * The answer of a reviews, comments, points or leaderboard route, or null
 * when `method path` is not one of them. `key` is a valid agent key or null.
 */
export function socialRoute(
  state: KnowledgeState,
  method: string,
  path: string,
  key: string | null,
  body: Record<string, unknown>,
  at: string,
): Answer | null {
  const needKey = { status: 401, body: { error: "an agent key is required" } };
  if (path === "/leaderboard" && method === "GET") return leaderboard(state);
  if (path === "/points" && method === "GET") return key === null ? needKey : points(state, key);
  const match = /^\/knowledge\/([^/]+)\/(reviews|review|comments)$/.exec(path);
  if (!match) return null;
  const [, raw, what] = match;
  const route = `${method} ${what}`;
  if (!["GET reviews", "POST review", "GET comments", "POST comments"].includes(route)) {
    return { status: 405, body: { error: `${method} is not allowed here` } };
  }
  if (method === "POST" && key === null) return needKey;
  const id = decodeURIComponent(raw);
  const unit = state.units.get(id);
  if (!unit || (unit.status !== "published" && unit.status !== "retired")) {
    return { status: 404, body: { error: "unit not found" } };
  }
  if (route === "GET reviews") return reviews(state, unit.groupId);
  if (route === "POST review") return review(state, id, key!, body, at);
  if (route === "GET comments") return { status: 200, body: { comments: listingOf(state, unit).comments } };
  return comment(state, id, key!, body, at);
}
