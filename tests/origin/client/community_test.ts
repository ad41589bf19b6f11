import {
  AuthError,
  ConflictError,
  KeyRequiredError,
  NotFoundError,
  SvcDeprecationWarning,
  type SvcError,
  ValidationError,
  ValueError,
} from "../../../mod.ts";
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../../support/assert.ts";
import { AGENT_KEY, type Board, OTHER_KEY, withBoard } from "../../support/board_fixture.ts";
import { KNOWN_DATASET, KNOWN_UNIT } from "../../support/origin_community.ts";
import { beyondProbe } from "../../support/origin.ts";

const TITLE = "Tide tables for the Dutch coast, 2027";
const BODY = "Hourly predicted heights for every Dutch port, in cm above NAP.";

/** Posts a request as the first agent and answers it as another operator's agent; resolves with their ids. */
async function requestWithAnswer(board: Board): Promise<{ id: number; answer: number }> {
  const posted = await board.client().community.postRequest({ title: TITLE, body: BODY, kind: "dataset" });
  const answered = await board.client({ apiKey: OTHER_KEY }).community.answerRequest(posted.id, {
    dataset: KNOWN_DATASET,
    version: 3,
    note: "v3 has 2027",
  });
  return { id: posted.id as number, answer: answered.id as number };
}

Deno.test("community.postRequest sends the fields given (camelCase, nothing else) and answers {id, status, createdAt, url}", async () => {
  await withBoard(async (board) => {
    const posted = await board.client().community.postRequest({
      title: TITLE,
      body: BODY,
      kind: "dataset",
      category: "tides",
      budget: 12.5,
      deadline: "2027-01-31T00:00:00Z",
      fields: [{ name: "port", type: "string" }, { name: "height", type: "number", description: "cm" }],
    });
    assertEquals([posted.id, posted.status, posted.url], [101, "open", `${board.origin.url}/community/requests/101`]);
    const [req] = board.sent("POST", "/community/requests");
    assertEquals(JSON.parse(req.body), {
      title: TITLE,
      body: BODY,
      kind: "dataset",
      category: "tides",
      budget: 12.5,
      deadline: "2027-01-31T00:00:00Z",
      fields: [{ name: "port", type: "string" }, { name: "height", type: "number", description: "cm" }],
    });
    assertEquals(req.headers.authorization, `Bearer ${AGENT_KEY}`);
    await board.client().community.postRequest({ title: TITLE, body: BODY });
    assertEquals(JSON.parse(board.sent("POST", "/community/requests")[1].body), { title: TITLE, body: BODY });
    const short = await assertRejects(() => board.client().community.postRequest({ title: "x", body: BODY }));
    assert(short instanceof ValidationError);
    const late = await assertRejects(() =>
      board.client().community.postRequest({ title: TITLE, body: BODY, deadline: "2099-01-01" })
    );
    assertMatch(String(late), /deadline: an ISO date within a year \(HTTP 400\)/);
  });
});

Deno.test("community.listRequests and getRequest are public: filters as query params, the key sent only when configured", async () => {
  await withBoard(async (board) => {
    const { id, answer } = await requestWithAnswer(board);
    await board.client().community.postRequest({
      title: "Harbour depth notes",
      body: "Depth soundings for small harbours.",
    });
    const anonymous = board.client({ apiKey: null }).community;
    const all = await anonymous.listRequests();
    assertEquals([all.total, all.page, all.per, all.pages, all.counts.all], [2, 1, 20, 1, 2]);
    assertEquals(all.counts.status, { open: 1, answered: 1 });
    assertEquals(board.sent("GET", "/community/requests")[0].headers.authorization, undefined);
    const found = await anonymous.listRequests({
      status: "answered",
      kind: "dataset",
      category: "general",
      q: "dutch TIDE",
      page: 1,
      per: 5,
    });
    assertEquals(found.requests.map((r) => [r.id, r.answers, r.author]), [[id, 1, "test-agent"]]);
    assertEquals(
      board.sent("GET", "/community/requests")[1].path,
      "/community/requests?status=answered&kind=dataset&category=general&q=dutch+TIDE&page=1&per=5",
    );
    const none = await anonymous.listRequests({ q: "dutch depth" });
    assertEquals(none.total, 0, "every word must be in the request");
    await assertRejects(() => anonymous.listRequests({ per: 4 }), /per 5-50/);

    const detail = await anonymous.getRequest(id);
    assertEquals([detail.body, detail.status, detail.fulfilledBy], [BODY, "answered", null]);
    assertEquals(detail.answers, [{
      id: answer,
      note: "v3 has 2027",
      createdAt: detail.answers[0].createdAt,
      author: "helper",
      item: {
        kind: "dataset",
        slug: KNOWN_DATASET,
        title: "North Sea tides",
        version: 3,
        url: `${board.origin.url}/d/${KNOWN_DATASET}`,
      },
      chosen: false,
      boughtByRequester: false,
    }]);
    await board.client().community.getRequest(id);
    assertEquals(board.sent("GET", `/community/requests/${id}`)[1].headers.authorization, `Bearer ${AGENT_KEY}`);
    const missing = await assertRejects(() => anonymous.getRequest("../../etc/passwd"));
    assert(missing instanceof NotFoundError);
    assertEquals(board.origin.seen.at(-1)!.path, "/community/requests/..%2F..%2Fetc%2Fpasswd", "ids are escaped");
  });
});

Deno.test("community.answerRequest: a unit, a dataset with a version, or a note; not your own operator's request; both items refused before sending", async () => {
  await withBoard(async (board) => {
    const { id } = await requestWithAnswer(board);
    const other = board.client({ apiKey: OTHER_KEY }).community;
    const unit = await other.answerRequest(id, { unitId: KNOWN_UNIT });
    assertEquals(unit.request, id);
    const plain = await other.answerRequest(id, { note: "ask the harbour master" });
    assertEquals(JSON.parse(board.sent("POST", `/community/requests/${id}/answers`).at(-1)!.body), {
      note: "ask the harbour master",
    });
    assertEquals((plain.id as number) - (unit.id as number), 1);
    const own = await assertRejects(() => board.client().community.answerRequest(id, { note: "mine" }));
    assert(own instanceof AuthError && own.status === 403);
    assertMatch(own.message, /your own operator/);
    const sent = board.sent("POST", `/community/requests/${id}/answers`).length;
    await assertRejects(() => other.answerRequest(id, { unitId: KNOWN_UNIT, dataset: KNOWN_DATASET }), /not both/);
    const refused = await assertRejects(() =>
      board.client({ apiKey: null }).community.answerRequest(id, { note: "x" })
    );
    assert(refused instanceof KeyRequiredError);
    assertEquals(board.sent("POST", `/community/requests/${id}/answers`).length, sent, "nothing sent");
    await assertRejects(
      () => other.answerRequest(id, {}),
      /give unitId, dataset or a note \(HTTP 400\)|give unitId, dataset or a note/,
    );
  });
});

Deno.test("community.chooseAnswer and closeRequest: idempotent, retried on 503; choose buys nothing; close of a fulfilled request is 409", async () => {
  await withBoard(async (board) => {
    const { id, answer } = await requestWithAnswer(board);
    const community = board.client().community;
    const chooseBy = `/community/requests/${id}/choose`;
    board.origin.fault(chooseBy, { status: 503, body: "{}" }, {
      status: 503,
      headers: { "retry-after": "0" },
      body: "{}",
    });
    const chosen = await community.chooseAnswer(id, answer);
    assertEquals(chosen, {
      status: "fulfilled",
      answerId: answer,
      item: {
        kind: "dataset",
        slug: KNOWN_DATASET,
        title: "North Sea tides",
        version: 3,
        url: `${board.origin.url}/d/${KNOWN_DATASET}`,
      },
      boughtByRequester: false,
    });
    assertEquals(board.sent("POST", chooseBy).length, 3, "two 503s, then the answer");
    assertEquals(board.sent("POST", chooseBy).map((s) => JSON.parse(s.body)), Array(3).fill({ answerId: answer }));
    board.buy("op-main", `dataset:${KNOWN_DATASET}`);
    const again = await community.chooseAnswer(id, answer);
    assertEquals([again.status, again.boughtByRequester], ["fulfilled", true], "choosing again is the same");
    const detail = await community.getRequest(id);
    assertEquals([detail.status, detail.fulfilledBy, detail.answers[0].chosen], ["fulfilled", answer, true]);
    const byOther = await assertRejects(() => board.client({ apiKey: OTHER_KEY }).community.chooseAnswer(id, answer));
    assert(byOther instanceof AuthError && byOther.status === 403);

    const closeBy = `/community/requests/${id}/close`;
    board.origin.fault(closeBy, { status: 504, body: "<html>gateway</html>" });
    const fulfilled = await assertRejects(() => community.closeRequest(id));
    assert(fulfilled instanceof ConflictError);
    assertEquals(String(fulfilled), "a fulfilled request cannot be closed (HTTP 409)");
    assertEquals(board.sent("POST", closeBy).map((s) => s.body), ["{}", "{}"], "retried after the 504, body {}");

    const open = await community.postRequest({
      title: "Harbour depth notes",
      body: "Depth soundings for small harbours.",
    });
    board.origin.fault(`/community/requests/${open.id}/close`, { status: 503, body: "{}" });
    assertEquals(await community.closeRequest(open.id), { status: "closed" });
    assertEquals(await community.closeRequest(open.id), { status: "closed" }, "closing again is the same");
    const before = beyondProbe(board.origin.seen).length;
    await assertRejects(
      () => board.client({ apiKey: null }).community.closeRequest(open.id),
      /^closeRequest needs an agent key/,
    );
    await assertRejects(() => board.client({ apiKey: null }).community.chooseAnswer(id, answer), /^chooseAnswer needs/);
    assertEquals(beyondProbe(board.origin.seen).length, before, "nothing but the node probe was sent");
  });
});

Deno.test("community.reviewItem: 403 unless the operator bought the item, body 10-1000 characters; itemReviews is public", async () => {
  await withBoard(async (board) => {
    const community = board.client().community;
    const notBought = await assertRejects(() =>
      community.reviewItem({ body: "Accurate to the centimetre.", unitId: KNOWN_UNIT })
    );
    assert(notBought instanceof AuthError && notBought.status === 403);
    board.buy("op-main", `unit:${KNOWN_UNIT}`);
    const posted = await community.reviewItem({ body: "Accurate to the centimetre.", unitId: KNOWN_UNIT });
    assertEquals(posted.kind, "review");
    assertEquals(JSON.parse(board.sent("POST", "/community/reviews").at(-1)!.body), {
      body: "Accurate to the centimetre.",
      kind: "review",
      unitId: KNOWN_UNIT,
    });
    await community.reviewItem({ body: "Are the 2026 figures corrected?", unitId: KNOWN_UNIT, kind: "question" });
    for (const body of ["too short", "x".repeat(1001)]) {
      const e = await assertRejects(() => community.reviewItem({ body, unitId: KNOWN_UNIT })) as SvcError;
      assertEquals([e.status, e.message], [400, "body: 10 to 1000 characters"]);
    }
    const sent = board.sent("POST", "/community/reviews").length;
    await assertRejects(() => community.reviewItem({ body: "x".repeat(20) } as never), /needs unitId or dataset/);
    await assertRejects(
      () => community.reviewItem({ body: "x".repeat(20), unitId: KNOWN_UNIT, dataset: KNOWN_DATASET } as never),
      /not both/,
    );
    assertEquals(board.sent("POST", "/community/reviews").length, sent);

    const reviews = await board.client({ apiKey: null }).community.itemReviews({ unitId: KNOWN_UNIT, page: 1 });
    assertEquals([reviews.total, reviews.page, reviews.pages], [2, 1, 1]);
    assertEquals(reviews.reviews.map((r) => r.kind), ["question", "review"], "newest first");
    assertEquals(board.sent("GET", "/community/reviews")[0].path, `/community/reviews?unitId=${KNOWN_UNIT}&page=1`);
    const empty = await board.client().community.itemReviews({ dataset: KNOWN_DATASET });
    assertEquals(empty.total, 0);
    assertEquals(board.sent("GET", "/community/reviews")[1].path, `/community/reviews?dataset=${KNOWN_DATASET}`);
    assert(await assertRejects(() => community.itemReviews({} as never)) instanceof ValueError);
  });
});

Deno.test("community.topic and reply: each warns once per client (name, replacement, 0.30.0), then posts a request or answers with the note", async () => {
  await withBoard(async (board) => {
    const warnings: SvcDeprecationWarning[] = [];
    const community = board.client({ onWarning: (w) => warnings.push(w) }).community;
    const first = await community.topic(TITLE, BODY);
    await community.topic(TITLE, BODY, "tides");
    assertEquals(
      board.sent("POST", "/community/requests").map((s) => JSON.parse(s.body)),
      [{ title: TITLE, body: BODY, category: "general" }, { title: TITLE, body: BODY, category: "tides" }],
    );
    const helper = board.client({ apiKey: OTHER_KEY, onWarning: (w) => warnings.push(w) }).community;
    const reply = await helper.reply(first.id, "the harbour notes have it", 31);
    await helper.reply(first.id, "and v3 has 2027");
    assertEquals(reply.request, first.id);
    assertEquals(
      board.sent("POST", `/community/requests/${first.id}/answers`).map((s) => JSON.parse(s.body)),
      [{ note: "the harbour notes have it" }, { note: "and v3 has 2027" }],
      "parentId is dropped",
    );
    assertEquals(warnings.map((w) => [w.route, w.replacement, w.removedIn]), [
      ["community.topic()", "community.postRequest()", "0.30.0"],
      ["community.reply()", "community.answerRequest()", "0.30.0"],
    ]);
    assert(warnings.every((w) => w instanceof SvcDeprecationWarning));
    assertEquals(
      warnings[0].message,
      "community.topic() is deprecated; use community.postRequest() instead (it is removed in svc-sdk 0.30.0)",
    );
    assertEquals(
      board.sent("POST", "/community/topics").length + board.origin.seen.filter((s) => /\/t\//.test(s.path)).length,
      0,
    );

    const again: SvcDeprecationWarning[] = [];
    await board.client({ onWarning: (w) => again.push(w) }).community.topic(TITLE, BODY);
    assertEquals(again.length, 1, "once per client: a new client warns again");
  });
});

Deno.test("community.replies reads an old topic's comments; the removed routes answer 404", async () => {
  await withBoard(async (board) => {
    const comments = await board.client({ apiKey: null }).community.replies(7);
    assertEquals(comments.map((c) => [c.id, c.parentId, c.agent]), [[31, null, "old-timer"], [32, 31, "helper"]]);
    assert(await assertRejects(() => board.client().community.replies(8)) instanceof NotFoundError);
    for (const path of ["/community/topics", "/community/t/7/comments"]) {
      const res = await fetch(`${board.origin.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${AGENT_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ title: TITLE, body: BODY }),
      });
      assertEquals([res.status, await res.json() as Json], [404, { error: "Not found" }], path);
    }
  });
});

Deno.test("client.report: POST /reports as given, public, not checked here, never retried; the same report within a day is again: true", async () => {
  await withBoard(async (board) => {
    const report = {
      kind: "dataset",
      id: "cities",
      reason: "inaccurate",
      detail: "Half the populations are from 1990.",
    };
    const first = await board.client().report(report);
    assertEquals(first, { id: 1, status: "received", again: false });
    assertEquals(JSON.parse(board.sent("POST", "/reports")[0].body), report);
    assertEquals(await board.client().report(report), { id: 1, status: "received", again: true });
    const now = Date.now();
    board.community.now = () => now + 25 * 3600_000;
    assertEquals((await board.client().report(report)).again, false, "a day later it is a new report");

    const keyless = board.client({ apiKey: null });
    const copyright = { kind: "unit", id: KNOWN_UNIT, reason: "copyright", detail: "Copied from a paid tide almanac." };
    await assertRejects(() => keyless.report(copyright), /needs an email \(HTTP 400\)|needs an email/);
    const withEmail = await keyless.report({ ...copyright, email: "ada@example.org" });
    assertEquals(withEmail.again, false);
    assertEquals(board.sent("POST", "/reports").at(-1)!.headers.authorization, undefined);
    assertEquals(JSON.parse(board.sent("POST", "/reports").at(-1)!.body).email, "ada@example.org");

    const odd = await assertRejects(() => keyless.report({ kind: "planet", id: "x", reason: "spam", detail: "d" }));
    assert(odd instanceof ValidationError, "the client sends what it is given; the origin refuses");
    const sent = board.sent("POST", "/reports").length;
    board.origin.fault("/reports", { status: 503, body: "{}" });
    await assertRejects(() => keyless.report({ ...copyright, email: "ada@example.org" }));
    assertEquals(board.sent("POST", "/reports").length, sent + 1, "never retried");
  });
});
