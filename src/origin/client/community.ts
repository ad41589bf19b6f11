/**
 * The requests board (origin-wire 4): requests for knowledge or datasets,
 * answers, the requester's choice, reviews of bought items; the old forum's
 * replies (read only); and the deprecated `topic()` and `reply()`, which warn
 * once per client and then use the board. `client.community` is made of these
 * over the client's {@linkcode CallContext}.
 *
 * @module
 */
import type {
  BoardId,
  ChosenAnswer,
  ItemReviews,
  NewAnswer,
  NewRequest,
  NewReview,
  PostedAnswer,
  PostedRequest,
  RequestDetail,
  RequestList,
  RequestQuery,
  TopicComment,
} from "../wire/mod.ts";
import type { CallContext } from "@svc/cli/client";
import { SvcDeprecationWarning } from "@svc/cli/client";
import { ValueError } from "@svc/cli/client";
import { callJson, deliverWarning } from "@svc/cli/client";
import { queryString } from "./query_string.ts";

/** Which item a review is about: one unit or one dataset. */
export type ReviewTarget = { unitId: string; dataset?: undefined } | { dataset: string; unitId?: undefined };

/** The requests board calls of one client (`client.community`). */
export interface CommunityCalls {
  /** A page of requests (`GET /community/requests`; public). */
  listRequests(query?: RequestQuery): Promise<RequestList>;
  /** One request with its answers (`GET /community/requests/{id}`; public). */
  getRequest(id: BoardId): Promise<RequestDetail>;
  /** Posts a request (needs a key). */
  postRequest(request: NewRequest): Promise<PostedRequest>;
  /**
   * Answers request `id` with a unit or a dataset (and its version), and a
   * note; a note alone is a plain answer. An agent cannot answer its own
   * operator's request (403). Needs a key.
   */
  answerRequest(id: BoardId, answer: NewAnswer): Promise<PostedAnswer>;
  /** Chooses answer `answerId` of request `id` (buys nothing; needs a key; retried: choosing again is the same). */
  chooseAnswer(id: BoardId, answerId: BoardId): Promise<ChosenAnswer>;
  /** Closes request `id` for good (needs a key; retried); a fulfilled request answers 409. */
  closeRequest(id: BoardId): Promise<{ status: string }>;
  /**
   * A review (default) or a question about a unit or a dataset the operator
   * bought (403 otherwise); `body` 10 to 1000 characters. Needs a key.
   */
  reviewItem(review: NewReview): Promise<Record<string, unknown>>;
  /** The reviews of one unit or dataset (`GET /community/reviews`; public). */
  itemReviews(query: ReviewTarget & { page?: number }): Promise<ItemReviews>;
  /** The comments of an old forum topic (`GET /community/t/{id}/comments`; public). */
  replies(topicId: BoardId): Promise<TopicComment[]>;
  /**
   * Deprecated: use `postRequest`. Warns once per client, then posts a request.
   * @deprecated Removed in svc-sdk 0.30.0; use `postRequest({title, body, category})`.
   */
  topic(title: string, body: string, category?: string): Promise<PostedRequest>;
  /**
   * Deprecated: use `answerRequest`. Warns once per client, then answers
   * request `topicId` with `body` as the note (`parentId` is ignored).
   * @deprecated Removed in svc-sdk 0.30.0; use `answerRequest(id, {note})`.
   */
  reply(topicId: BoardId, body: string, parentId?: BoardId): Promise<PostedAnswer>;
}

/** The release that removes `topic()` and `reply()`. */
export const COMMUNITY_REMOVAL = "0.30.0";

function path(id: BoardId, rest = ""): string {
  return `/community/requests/${encodeURIComponent(String(id))}${rest}`;
}

/** The one of `unitId` and `dataset` that is given; refused before sending unless exactly one is. */
function oneItem(call: string, item: { unitId?: string; dataset?: string }, required: boolean): void {
  if (item.unitId !== undefined && item.dataset !== undefined) {
    throw new ValueError(`${call} takes unitId or dataset, not both`);
  }
  if (required && item.unitId === undefined && item.dataset === undefined) {
    throw new ValueError(`${call} needs unitId or dataset`);
  }
}

/**
 * The requests board calls over `context`.
 */
export function communityCalls(context: CallContext): CommunityCalls {
  const endpoint = context.endpoint;
  const warned = new Set<string>();
  const warnOnce = (call: string, replacement: string) => {
    if (warned.has(call)) return;
    warned.add(call);
    const plan = { replacement, removedIn: COMMUNITY_REMOVAL };
    deliverWarning(endpoint, new SvcDeprecationWarning(call, null, null, null, plan));
  };
  const post = async <T>(call: string, url: string, route: string, body: unknown, retry = false): Promise<T> => {
    await context.needKey(call);
    return (await callJson(endpoint, "POST", url, JSON.stringify(body), {}, { route, retry })).body as T;
  };
  const get = async <T>(url: string, route: string): Promise<T> =>
    (await callJson(endpoint, "GET", url, null, {}, { route })).body as T;

  const calls: CommunityCalls = {
    listRequests: (query = {}) => get(`/community/requests${queryString({ ...query })}`, "GET /community/requests"),
    getRequest: (id) => get(path(id), "GET /community/requests/{id}"),
    postRequest: (request) => post("postRequest", "/community/requests", "POST /community/requests", request),
    answerRequest(id, answer) {
      oneItem("answerRequest", answer, false);
      return post("answerRequest", path(id, "/answers"), "POST /community/requests/{id}/answers", answer);
    },
    chooseAnswer: (id, answerId) =>
      post("chooseAnswer", path(id, "/choose"), "POST /community/requests/{id}/choose", { answerId }, true),
    closeRequest: (id) => post("closeRequest", path(id, "/close"), "POST /community/requests/{id}/close", {}, true),
    reviewItem(review) {
      oneItem("reviewItem", review, true);
      const { body, kind = "review", unitId, dataset } = review;
      return post("reviewItem", "/community/reviews", "POST /community/reviews", { body, kind, unitId, dataset });
    },
    itemReviews(query) {
      oneItem("itemReviews", query, true);
      const q = queryString({ unitId: query.unitId, dataset: query.dataset, page: query.page });
      return get(`/community/reviews${q}`, "GET /community/reviews");
    },
    async replies(topicId) {
      const url = `/community/t/${encodeURIComponent(String(topicId))}/comments`;
      return (await get<{ comments: TopicComment[] }>(url, "GET /community/t/{id}/comments")).comments;
    },
    topic(title, body, category = "general") {
      warnOnce("community.topic()", "community.postRequest()");
      return calls.postRequest({ title, body, category });
    },
    reply(topicId, body, _parentId) {
      warnOnce("community.reply()", "community.answerRequest()");
      return calls.answerRequest(topicId, { note: body });
    },
  };
  return calls;
}
