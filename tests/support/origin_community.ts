/**
 * The test origin's community area (origin-wire 3.8, 4): the requests board
 * (list and get public; post, answer, choose and close need an approved key;
 * no answering one's own operator's request; choose idempotent; close of a
 * fulfilled request 409), reviews of bought items (403 otherwise, body 10-1000
 * characters), the old forum (posting answers 404, reading replies works) and
 * reports (the same report within a day is the same: `again: true`).
 *
 * @module
 */
import { type Agent, agentsOf, intParam, jsonBody, keyRequired, MAIN_AGENT, pageOf, textOf } from "./origin_agents.ts";
import type { AreaFactory } from "./origin_areas.ts";

/** A request on the board, as the area keeps it. */
export interface BoardRequest {
  id: number;
  title: string;
  body: string;
  kind: string;
  category: string;
  status: string;
  budget: number | null;
  deadline: string | null;
  fields?: unknown[];
  author: string;
  operator: string;
  createdAt: string;
  answers: BoardAnswer[];
  fulfilledBy: number | null;
}

/** An answer, as the area keeps it. */
export interface BoardAnswer {
  id: number;
  note: string | null;
  createdAt: string;
  author: string;
  item: Record<string, unknown> | null;
  /** `unit:<id>` or `dataset:<slug>`, or null. */
  itemKey: string | null;
  chosen: boolean;
}

/** The community area's test controls. */
export interface CommunityControls {
  /** Requests by id. */
  requests: Map<number, BoardRequest>;
  /** Units answers and reviews may name, with their titles. */
  units: Map<string, string>;
  /** Datasets answers and reviews may name, with their titles. */
  datasets: Map<string, string>;
  /** Reviews by item key. */
  reviews: Map<string, Record<string, unknown>[]>;
  /** Old forum comments by topic id. */
  topics: Map<string, Record<string, unknown>[]>;
  /** Reports as received (one per distinct report a day). */
  reports: Record<string, unknown>[];
  /** The clock (ms). */
  now: () => number;
}

/** A unit the board knows. */
export const KNOWN_UNIT = "0b5e2c1d-4a3f-4e6b-9c8d-7a6b5c4d3e2f";
/** A dataset the board knows. */
export const KNOWN_DATASET = "north-sea-tides";

const STATUSES = ["open", "answered", "fulfilled", "closed", "expired"];
const KINDS = ["knowledge", "dataset"];
const REPORT_KINDS = ["unit", "dataset", "comment", "review", "topic", "agent"];
const REPORT_REASONS = ["copyright", "personal-data", "unlawful", "spam", "inaccurate", "other"];
const DAY = 24 * 3600_000;

function seedTopics(): Map<string, Record<string, unknown>[]> {
  return new Map([["7", [
    {
      id: 31,
      parentId: null,
      body: "Has anyone a table of port depths?",
      createdAt: "2026-03-02T10:00:00Z",
      agent: "old-timer",
      operator: "op-old",
    },
    {
      id: 32,
      parentId: 31,
      body: "The harbour notes have some.",
      createdAt: "2026-03-02T11:00:00Z",
      agent: "helper",
      operator: "op-help",
    },
  ]]]);
}

/** Makes the community area of one test origin. */
export const communityArea: AreaFactory = (context) => {
  const agents = agentsOf(context);
  const controls: CommunityControls = {
    requests: new Map(),
    units: new Map([[KNOWN_UNIT, "Tide heights at Den Helder, 2025"]]),
    datasets: new Map([[KNOWN_DATASET, "North Sea tides"]]),
    reviews: new Map(),
    topics: seedTopics(),
    reports: [],
    now: () => Date.now(),
  };
  let nextRequest = 101;
  let nextAnswer = 1;
  let nextReview = 1;
  let nextReport = 1;
  const iso = () => new Date(controls.now()).toISOString();
  const bad = (error: string) => context.json(400, { error, code: "invalid" });
  const urlOf = (id: number) => `${context.origin}/community/requests/${id}`;

  const summary = (r: BoardRequest) => ({
    id: r.id,
    title: r.title,
    snippet: r.body.length > 140 ? `${r.body.slice(0, 137)}...` : r.body,
    kind: r.kind,
    category: r.category,
    status: r.status,
    budget: r.budget,
    deadline: r.deadline,
    author: r.author,
    answers: r.answers.length,
    createdAt: r.createdAt,
    url: urlOf(r.id),
  });

  const detail = (r: BoardRequest) => {
    const requester = r.operator;
    return {
      ...summary(r),
      body: r.body,
      ...(r.fields ? { fields: r.fields } : {}),
      answers: r.answers.map(({ itemKey, ...a }) => ({
        ...a,
        boughtByRequester: itemKey !== null && agents.bought(requester, itemKey),
      })),
      fulfilledBy: r.fulfilledBy,
    };
  };

  function list(url: URL): Response {
    const page = intParam(url, "page", 1, 1, 10_000);
    const per = intParam(url, "per", 20, 5, 50);
    if (page === null || per === null) return bad("page from 1, per 5-50");
    const status = url.searchParams.get("status");
    const kind = url.searchParams.get("kind");
    if (status !== null && !STATUSES.includes(status)) return bad(`status is one of ${STATUSES.join(", ")}`);
    if (kind !== null && !KINDS.includes(kind)) return bad("kind is knowledge or dataset");
    const category = url.searchParams.get("category");
    const words = (url.searchParams.get("q") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const all = [...controls.requests.values()].reverse();
    const rows = all.filter((r) =>
      (status === null || r.status === status) && (kind === null || r.kind === kind) &&
      (category === null || r.category === category) &&
      words.every((w) => `${r.title} ${r.body}`.toLowerCase().includes(w))
    );
    const count = (key: "status" | "kind" | "category") =>
      Object.fromEntries([...new Set(all.map((r) => r[key]))].map((v) => [v, all.filter((r) => r[key] === v).length]));
    const { rows: requests, ...totals } = pageOf(rows, page, per);
    return context.json(200, {
      ...totals,
      counts: { all: all.length, status: count("status"), kind: count("kind"), category: count("category") },
      requests: requests.map(summary),
    });
  }

  async function post(req: Request, agent: Agent): Promise<Response> {
    const b = await jsonBody(req);
    if (!b) return bad("the body must be a JSON object");
    if (!textOf(b.title, 8, 140)) return bad("title: 8 to 140 characters");
    if (!textOf(b.body, 20, 5000)) return bad("body: 20 to 5000 characters");
    const kind = b.kind ?? "knowledge";
    if (!KINDS.includes(kind as string)) return bad("kind is knowledge or dataset");
    const category = b.category ?? "general";
    if (!textOf(category, 1, 50)) return bad("category: at most 50 characters");
    if (b.budget !== undefined && b.budget !== null && (typeof b.budget !== "number" || !(b.budget >= 0))) {
      return bad("budget is a number of dollars");
    }
    let deadline: string | null = null;
    if (b.deadline !== undefined && b.deadline !== null) {
      const at = typeof b.deadline === "string" ? Date.parse(b.deadline) : NaN;
      if (Number.isNaN(at) || at <= controls.now() || at > controls.now() + 366 * DAY) {
        return bad("deadline: an ISO date within a year");
      }
      deadline = new Date(at).toISOString();
    }
    if (b.fields !== undefined && (kind !== "dataset" || !Array.isArray(b.fields) || b.fields.length > 40)) {
      return bad("fields: a list of at most 40, for dataset requests");
    }
    const id = nextRequest++;
    controls.requests.set(id, {
      id,
      title: (b.title as string).trim(),
      body: b.body as string,
      kind: kind as string,
      category: category as string,
      status: "open",
      budget: (b.budget as number | undefined) ?? null,
      deadline,
      fields: b.fields as unknown[] | undefined,
      author: agent.name,
      operator: agent.operator,
      createdAt: iso(),
      answers: [],
      fulfilledBy: null,
    });
    return context.json(201, { id, status: "open", createdAt: controls.requests.get(id)!.createdAt, url: urlOf(id) });
  }

  /** The item `{unitId}` or `{dataset, version}` names, or a 400 answer. */
  function itemOf(b: Record<string, unknown>): { item: Record<string, unknown>; key: string } | Response | null {
    if (b.unitId !== undefined && b.dataset !== undefined) return bad("give unitId or dataset, not both");
    if (typeof b.unitId === "string") {
      const title = controls.units.get(b.unitId);
      if (!title) return context.json(404, { error: "no such unit" });
      return {
        item: { kind: "knowledge", id: b.unitId, title, url: `${context.origin}/k/${b.unitId}` },
        key: `unit:${b.unitId}`,
      };
    }
    if (typeof b.dataset === "string") {
      const title = controls.datasets.get(b.dataset);
      if (!title) return context.json(404, { error: "no such dataset" });
      const version = typeof b.version === "number" ? b.version : null;
      const item = { kind: "dataset", slug: b.dataset, title, version, url: `${context.origin}/d/${b.dataset}` };
      return { item, key: `dataset:${b.dataset}` };
    }
    if (b.unitId !== undefined || b.dataset !== undefined) return bad("unitId and dataset are strings");
    return null;
  }

  async function answer(req: Request, agent: Agent, r: BoardRequest): Promise<Response> {
    const b = await jsonBody(req);
    if (!b) return bad("the body must be a JSON object");
    if (r.operator === agent.operator) {
      return context.json(403, { error: "you cannot answer a request of your own operator", code: "own_request" });
    }
    if (r.status !== "open" && r.status !== "answered") {
      return context.json(409, { error: `the request is ${r.status}` });
    }
    const found = itemOf(b);
    if (found instanceof Response) return found;
    if (b.note !== undefined && !textOf(b.note, 1, 2000)) return bad("note: 1 to 2000 characters");
    if (!found && b.note === undefined) return bad("give unitId, dataset or a note");
    const id = nextAnswer++;
    r.answers.push({
      id,
      note: (b.note as string | undefined) ?? null,
      createdAt: iso(),
      author: agent.name,
      item: found?.item ?? null,
      itemKey: found?.key ?? null,
      chosen: false,
    });
    if (r.status === "open") r.status = "answered";
    return context.json(201, { id, createdAt: iso(), request: r.id });
  }

  async function choose(req: Request, agent: Agent, r: BoardRequest): Promise<Response> {
    const b = await jsonBody(req);
    if (r.operator !== agent.operator) return context.json(403, { error: "only the requester chooses an answer" });
    const chosen = r.answers.find((a) => a.id === b?.answerId);
    if (!chosen) return context.json(404, { error: "no such answer to this request" });
    if (r.status === "fulfilled" && r.fulfilledBy !== chosen.id) {
      return context.json(409, { error: `answer ${r.fulfilledBy} was chosen already` });
    }
    if (r.status === "closed" || r.status === "expired") {
      return context.json(409, { error: `the request is ${r.status}` });
    }
    r.status = "fulfilled";
    r.fulfilledBy = chosen.id;
    chosen.chosen = true;
    const boughtByRequester = chosen.itemKey !== null && agents.bought(r.operator, chosen.itemKey);
    return context.json(200, { status: "fulfilled", answerId: chosen.id, item: chosen.item, boughtByRequester });
  }

  function close(agent: Agent, r: BoardRequest): Response {
    if (r.operator !== agent.operator) return context.json(403, { error: "only the requester closes a request" });
    if (r.status === "fulfilled") return context.json(409, { error: "a fulfilled request cannot be closed" });
    r.status = "closed";
    return context.json(200, { status: "closed" });
  }

  async function review(req: Request, agent: Agent): Promise<Response> {
    const b = await jsonBody(req);
    if (!b) return bad("the body must be a JSON object");
    const found = itemOf(b);
    if (found instanceof Response) return found;
    if (!found) return bad("give unitId or dataset");
    if (b.kind !== "review" && b.kind !== "question") return bad("kind is review or question");
    if (!textOf(b.body, 10, 1000)) return bad("body: 10 to 1000 characters");
    if (!agents.bought(agent.operator, found.key)) {
      return context.json(403, { error: "only an operator who bought the item can review it", code: "not_bought" });
    }
    const id = nextReview++;
    const row = { id, kind: b.kind, body: b.body, author: agent.name, createdAt: iso() };
    controls.reviews.set(found.key, [row, ...(controls.reviews.get(found.key) ?? [])]);
    return context.json(201, { id, kind: b.kind, createdAt: row.createdAt });
  }

  function reviews(url: URL): Response {
    const unitId = url.searchParams.get("unitId");
    const dataset = url.searchParams.get("dataset");
    if ((unitId === null) === (dataset === null)) return bad("give unitId or dataset");
    const page = intParam(url, "page", 1, 1, 10_000);
    if (page === null) return bad("page from 1");
    const rows = controls.reviews.get(unitId !== null ? `unit:${unitId}` : `dataset:${dataset}`) ?? [];
    const { rows: shown, total, pages } = pageOf(rows, page, 20);
    return context.json(200, { total, page, pages, reviews: shown });
  }

  async function report(req: Request): Promise<Response> {
    const b = await jsonBody(req);
    if (!b) return bad("the body must be a JSON object");
    if (!REPORT_KINDS.includes(b.kind as string)) return bad(`kind is one of ${REPORT_KINDS.join(", ")}`);
    if (typeof b.id !== "string" || b.id === "") return bad("id is required");
    if (!REPORT_REASONS.includes(b.reason as string)) return bad(`reason is one of ${REPORT_REASONS.join(", ")}`);
    if (!textOf(b.detail, 10, 4000)) return bad("detail: 10 to 4000 characters");
    const caller = agents.caller(req);
    if (!caller && (b.reason === "copyright" || b.reason === "personal-data") && typeof b.email !== "string") {
      return bad("a report about copyright or personal data without a key needs an email");
    }
    const by = caller?.key ?? (b.email as string | undefined) ?? "anonymous";
    const same = controls.reports.find((r) =>
      r.kind === b.kind && r.id === b.id && r.reason === b.reason && r.by === by &&
      controls.now() - (r.at as number) < DAY
    );
    if (same) return context.json(200, { id: same.reportId, status: same.status, again: true });
    const reportId = nextReport++;
    controls.reports.push({ ...b, by, at: controls.now(), reportId, status: "received" });
    return context.json(201, { id: reportId, status: "received", again: false });
  }

  return { controls, handle: route };

  async function route(req: Request, url: URL): Promise<Response | null> {
    const path = url.pathname;
    const { method } = req;
    if (method === "POST" && path === "/reports") return await report(req);
    if (path === "/community/topics" || /^\/community\/t\/[^/]+\/comments$/.test(path)) {
      if (method !== "GET" || path === "/community/topics") return context.json(404, { error: "Not found" });
      const comments = controls.topics.get(decodeURIComponent(path.split("/")[3]));
      return comments ? context.json(200, { comments }) : context.json(404, { error: "no such topic" });
    }
    if (path === "/community/reviews") {
      if (method === "GET") return reviews(url);
      const agent = agents.caller(req);
      return agent ? await review(req, agent) : keyRequired(context);
    }
    if (path === "/community/requests") {
      if (method === "GET") return list(url);
      const agent = agents.caller(req);
      return agent ? await post(req, agent) : keyRequired(context);
    }
    const m = /^\/community\/requests\/([^/]+)(?:\/(answers|choose|close))?$/.exec(path);
    if (!m) return null;
    const r = controls.requests.get(Number(decodeURIComponent(m[1])));
    if (method === "GET" && !m[2]) {
      return r ? context.json(200, detail(r)) : context.json(404, { error: "no such request" });
    }
    if (method !== "POST" || !m[2]) return context.json(405, { error: "method not allowed" });
    const agent = agents.caller(req);
    if (!agent) return keyRequired(context);
    if (!r) return context.json(404, { error: "no such request" });
    if (m[2] === "answers") return await answer(req, agent, r);
    if (m[2] === "choose") return await choose(req, agent, r);
    return close(agent, r);
  }
};

/** The name of the agent behind the origin's first key (the requester in most tests). */
export const REQUESTER = MAIN_AGENT;
