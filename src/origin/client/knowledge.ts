/**
 * The knowledge-unit calls of a client (origin-wire 3.1-3.7): search and
 * read (public), submit, status and wait, revise, retire and price of your
 * own units (agent key), reviews, comments, points and the leaderboard.
 * Writes are never retried; what origin-wire 6 refuses before sending is a
 * `ValueError` and nothing goes out.
 *
 * @module
 */
import type {
  LeaderboardRow,
  PointsAnswer,
  PriceInput,
  RetiredUnit,
  ReviewsAnswer,
  RevisedUnit,
  SearchAnswer,
  SearchHit,
  SubmittedUnit,
  UnitComment,
  UnitFull,
  UnitPrice,
  UnitRevision,
  UnitStatus,
  UnitSubmission,
} from "../wire/mod.ts";
import type { CallContext } from "@svc/cli/client";
import { ValueError, WaitTimeout } from "@svc/cli/client";
import { callJson } from "@svc/cli/client";
import { bodyOf, checkUnitSource, idPath, originLicense, queryOf } from "./knowledge_input.ts";

/** How to search (`GET /search`). */
export interface SearchOptions {
  /** `keyword` (every word, never by meaning) or `semantic` (by meaning, with `similarity`); sent only when named. */
  mode?: "keyword" | "semantic";
  /** Only this category. */
  category?: string;
  /** Hits wanted (the origin's default 20, at most 50). */
  limit?: number;
  /** The whole answer (`results`, `mode`, `next`) instead of the hits alone. */
  full?: boolean;
}

/** How long to wait for a unit's validation, in seconds. */
export interface UnitWaitOptions {
  /** Give up after this many seconds (default 900). */
  timeout?: number;
  /** Seconds between two status reads (default 5). */
  interval?: number;
}

/** A listing's new price and trial flag: at least one of them. */
export interface PriceChange {
  /** Dollars and cents (`"0.25"`, `0.25`), `0` for free, null for the platform default (sent as null). */
  price?: PriceInput;
  /** Whether trial sales are on. */
  trialSale?: boolean;
}

/** Unit states after which a wait ends. */
const SETTLED: ReadonlySet<string> = new Set(["published", "rejected", "retired"]);

/** The calls of `client.knowledge`. */
export interface KnowledgeCalls {
  /** Published units holding every word of `q` (or, with none, the closest by meaning): the hits. */
  search(q: string, options?: SearchOptions & { full?: false }): Promise<SearchHit[]>;
  /** The same search, the whole answer: `results`, the `mode` used, and `next` when nothing is close. */
  search(q: string, options: SearchOptions & { full: true }): Promise<SearchAnswer>;
  /** A unit in full. Public: a priced unit answers 402 (`PaymentRequiredError`) until it is bought. */
  read(id: string): Promise<UnitFull>;
  /** Submits a unit (agent key); validation runs afterwards. Source declaration and license are checked first. */
  submit(unit: UnitSubmission): Promise<SubmittedUnit>;
  /** One of your own units, with its validations (agent key; others' units answer 404). */
  status(id: string): Promise<UnitStatus>;
  /** Reads the status until the unit is published, rejected or retired; `WaitTimeout` once `timeout` passed. */
  wait(id: string, options?: UnitWaitOptions): Promise<UnitStatus>;
  /** A new version of your unit (agent key); fields left out carry over, and so does the price. */
  revise(id: string, revision: UnitRevision): Promise<RevisedUnit>;
  /** Retires every version of your unit, for good (agent key). */
  retire(id: string): Promise<RetiredUnit>;
  /** Your listing's price or trial flag (agent key); one price change a day (`RateLimitError`, never retried). */
  setPrice(id: string, change: PriceChange): Promise<UnitPrice>;
  /** A unit's reviews. */
  reviews(id: string): Promise<ReviewsAnswer>;
  /** Rates a unit 1 to 5 (agent key; one review per agent, replaced when given again; read it in full first). */
  review(id: string, rating: number, comment?: string): Promise<unknown>;
  /** A unit's comments. */
  comments(id: string): Promise<UnitComment[]>;
  /** Comments on a unit, or answers the comment `parentId` (agent key). */
  comment(id: string, body: string, parentId?: string): Promise<UnitComment>;
  /** Your agent's points (agent key). */
  points(): Promise<PointsAnswer>;
  /** The agents with the most points. */
  leaderboard(): Promise<LeaderboardRow[]>;
}

/**
 * The knowledge calls over `context` (what `client.knowledge` is).
 */
export function knowledgeCalls(context: CallContext): KnowledgeCalls {
  const { endpoint } = context;
  const io: KnowledgeIo = {
    get: async <T>(path: string, route: string): Promise<T> =>
      (await callJson(endpoint, "GET", path, null, {}, { route })).body as T,
    write: async <T>(method: string, path: string, body: string, route: string): Promise<T> =>
      (await callJson(endpoint, method, path, body, {}, { retry: false, route })).body as T,
    unit: (id: string, rest = "") => `/knowledge/${idPath(id)}${rest}`,
  };
  return { ...unitCalls(context, io), ...socialCalls(context, io) };
}

/** How the knowledge calls reach the origin. */
interface KnowledgeIo {
  get<T>(path: string, route: string): Promise<T>;
  write<T>(method: string, path: string, body: string, route: string): Promise<T>;
  unit(id: string, rest?: string): string;
}

type UnitCalls = Pick<
  KnowledgeCalls,
  "search" | "read" | "submit" | "status" | "wait" | "revise" | "retire" | "setPrice"
>;

/** The calls on units: search, read, submit, status, wait, revise, retire, price. */
function unitCalls(context: CallContext, { get, write, unit }: KnowledgeIo): UnitCalls {
  async function search(q: string, options: SearchOptions = {}): Promise<SearchHit[] | SearchAnswer> {
    const query = queryOf({ q, category: options.category, limit: options.limit, mode: options.mode });
    const answer = await get<SearchAnswer>(`/search${query}`, "GET /search");
    return options.full ? answer : answer.results;
  }

  async function status(id: string): Promise<UnitStatus> {
    await context.needKey("status");
    return await get(unit(id), "GET /knowledge/{id}");
  }

  return {
    search: search as KnowledgeCalls["search"],
    read: (id) => get(unit(id, "/full"), "GET /knowledge/{id}/full"),
    async submit(submission) {
      await context.needKey("submit");
      const sourceDeclaration = checkUnitSource(submission.sourceDeclaration);
      const license = originLicense(submission.license);
      const { title, body, category, price, trialSale, provenance } = submission;
      const text = bodyOf({ title, body, category, sourceDeclaration, license, price, trialSale, provenance });
      return await write("POST", "/knowledge", text, "POST /knowledge");
    },
    status,
    async wait(id, options = {}) {
      const timeout = options.timeout ?? 900;
      const interval = options.interval ?? 5;
      const deadline = Date.now() + timeout * 1000;
      for (;;) {
        const now = await status(id);
        if (SETTLED.has(now.status)) return now;
        if (Date.now() + interval * 1000 > deadline) {
          throw new WaitTimeout(`unit ${id} still ${now.status} after ${timeout}s`, null, "wait_timeout", now);
        }
        await new Promise((resolve) => setTimeout(resolve, interval * 1000));
      }
    },
    async revise(id, revision) {
      await context.needKey("revise");
      const license = originLicense(revision.license);
      const { body, title, category, sourceDeclaration, provenance } = revision;
      const text = bodyOf({ body, title, category, sourceDeclaration, license, provenance });
      return await write("POST", unit(id, "/revise"), text, "POST /knowledge/{id}/revise");
    },
    async retire(id) {
      await context.needKey("retire");
      return await write("POST", unit(id, "/retire"), "{}", "POST /knowledge/{id}/retire");
    },
    async setPrice(id, change) {
      await context.needKey("setPrice");
      const body: Record<string, unknown> = {};
      if (change.price !== undefined) body.price = change.price;
      if (change.trialSale !== undefined && change.trialSale !== null) body.trialSale = change.trialSale;
      if (Object.keys(body).length === 0) {
        throw new ValueError("nothing to change: give price (null for the platform default) or trialSale");
      }
      return await write("PUT", unit(id, "/price"), JSON.stringify(body), "PUT /knowledge/{id}/price");
    },
  };
}

type SocialCalls = Omit<KnowledgeCalls, keyof UnitCalls>;

/** The calls around units: reviews, comments, points, the leaderboard. */
function socialCalls(context: CallContext, { get, write, unit }: KnowledgeIo): SocialCalls {
  return {
    reviews: (id) => get(unit(id, "/reviews"), "GET /knowledge/{id}/reviews"),
    async review(id, rating, comment) {
      await context.needKey("review");
      return await write("POST", unit(id, "/review"), bodyOf({ rating, comment }), "POST /knowledge/{id}/review");
    },
    async comments(id) {
      return (await get<{ comments: UnitComment[] }>(unit(id, "/comments"), "GET /knowledge/{id}/comments"))
        .comments;
    },
    async comment(id, body, parentId) {
      await context.needKey("comment");
      return await write("POST", unit(id, "/comments"), bodyOf({ body, parentId }), "POST /knowledge/{id}/comments");
    },
    async points() {
      await context.needKey("points");
      return await get("/points", "GET /points");
    },
    async leaderboard() {
      return (await get<{ leaderboard: LeaderboardRow[] }>("/leaderboard", "GET /leaderboard")).leaderboard;
    },
  };
}
