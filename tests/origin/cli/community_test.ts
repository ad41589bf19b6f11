import { assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { AGENT_KEY, type Board, OTHER_KEY, withBoard } from "../../support/board_fixture.ts";
import { runCli } from "../../support/cli_process.ts";
import { beyondProbe } from "../../support/origin.ts";
import { KNOWN_DATASET, KNOWN_UNIT } from "../../support/origin_community.ts";

const BODY = "Hourly predicted heights for every Dutch port, in cm above NAP.";

/** Runs `svc` against the board's origin as `key` (none: ""). */
function svc(board: Board, args: string[], key = AGENT_KEY) {
  return runCli(args, { SVC_BASE_URL: board.origin.url, SVC_API_KEY: key, XDG_CONFIG_HOME: board.scratch });
}

/** Posts request 101 (dataset, budget, deadline) as the first agent and answers it as another operator (answer 1). */
async function seed(board: Board): Promise<void> {
  await board.client().community.postRequest({
    title: "Tide tables for the Dutch coast, 2027",
    body: `${BODY}\nPorts: Den Helder, IJmuiden, Vlissingen.`,
    kind: "dataset",
    category: "tides",
    budget: 12.5,
    deadline: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    fields: [{ name: "port", type: "string" }, { name: "height", type: "number", description: "cm above NAP" }],
  });
  await board.client({ apiKey: OTHER_KEY }).community.answerRequest(101, {
    dataset: KNOWN_DATASET,
    version: 3,
    note: "v3 has the 2027 predictions.\nHourly, every port.",
  });
}

Deno.test("svc requests list prints two lines a request and the page line; filters go as query params; public", async () => {
  await withBoard(async (board) => {
    await seed(board);
    await board.client().community.postRequest({
      title: "Harbour depth notes",
      body: "Depth soundings for small harbours.",
    });
    const run = await svc(board, ["requests", "list"], "");
    assertEquals([run.code, run.stderr], [0, ""]);
    const today = new Date().toISOString().slice(0, 10);
    const deadline = board.community.requests.get(101)!.deadline!.slice(0, 10);
    assertEquals(run.stdout.split("\n"), [
      "102  open  knowledge  Harbour depth notes",
      `     general · test-agent · 0 answer(s) · posted ${today}`,
      "101  answered  dataset  Tide tables for the Dutch coast, 2027",
      `     tides · test-agent · 1 answer(s) · budget $12.50 · deadline ${deadline} · posted ${today}`,
      "page 1 of 1 · 2 request(s)",
      "",
    ]);
    assertEquals(board.sent("GET", "/community/requests")[0].headers.authorization, undefined);
    const filtered = await svc(board, [
      "requests",
      "list",
      "--status",
      "answered",
      "--kind",
      "dataset",
      "--category",
      "tides",
      "--query",
      "dutch port",
      "--page",
      "1",
      "--json",
    ]);
    const list = JSON.parse(filtered.stdout) as Json;
    assertEquals(list.requests.map((r: Json) => r.id), [101]);
    assertEquals(
      board.sent("GET", "/community/requests")[1].path,
      "/community/requests?status=answered&kind=dataset&category=tides&q=dutch+port&page=1",
    );
    const empty = await svc(board, ["requests", "list", "--query", "nothing-like-this"]);
    assertEquals(empty.stdout, "page 1 of 1 · 0 request(s)\n");
    const bad = await Promise.all([
      svc(board, ["requests", "list", "--status", "pending"]),
      svc(board, ["requests", "list", "--kind", "unit"]),
      svc(board, ["requests", "list", "tides"]),
    ]);
    assertEquals(bad.map((r) => [r.code, r.stderr]), [
      [2, 'error: --status must be one of open, answered, fulfilled, closed, expired, not "pending"\n'],
      [2, 'error: --kind must be one of knowledge, dataset, not "unit"\n'],
      [2, "error: svc requests list takes no arguments (--query WORDS searches)\n"],
    ]);
  });
});

Deno.test("svc requests show prints the request, its fields and body, and the answers with [chosen]", async () => {
  await withBoard(async (board) => {
    await seed(board);
    await board.client({ apiKey: OTHER_KEY }).community.answerRequest(101, { note: "Or ask the harbour master." });
    board.buy("op-main", `dataset:${KNOWN_DATASET}`);
    await board.client().community.chooseAnswer(101, 1);
    const run = await svc(board, ["requests", "show", "101"], "");
    assertEquals(run.code, 0, run.stderr);
    const today = new Date().toISOString().slice(0, 10);
    const r = board.community.requests.get(101)!;
    assertEquals(run.stdout.split("\n"), [
      "101  fulfilled  dataset  Tide tables for the Dutch coast, 2027",
      `tides · test-agent · budget $12.50 · deadline ${r.deadline!.slice(0, 10)} · posted ${today}`,
      `${board.origin.url}/community/requests/101`,
      "fields: port string, height number (cm above NAP)",
      "",
      BODY,
      "Ports: Den Helder, IJmuiden, Vlissingen.",
      "",
      "2 answer(s):",
      `  answer 1  helper  ${today}  [chosen]`,
      `    dataset ${KNOWN_DATASET} v3  North Sea tides  (bought by the requester)`,
      "    v3 has the 2027 predictions.",
      "    Hourly, every port.",
      `  answer 2  helper  ${today}`,
      "    Or ask the harbour master.",
      "",
    ]);
    const json = await svc(board, ["requests", "show", "101", "--json"]);
    assertEquals((JSON.parse(json.stdout) as Json).fulfilledBy, 1);
    const missing = await svc(board, ["requests", "show", "999"]);
    assertEquals([missing.code, missing.stderr], [
      1,
      `error: no such request (HTTP 404) — asked ${board.origin.url}\n`,
    ]);
  });
});

Deno.test("svc requests post sends the flags as the request (fields parsed, budget in dollars) and prints status, id, url", async () => {
  await withBoard(async (board) => {
    const run = await svc(board, [
      "requests",
      "post",
      "--title",
      "Tide tables for 2027",
      "--body",
      BODY,
      "--kind",
      "dataset",
      "--category",
      "tides",
      "--budget",
      "$12.50",
      "--deadline",
      new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      "--field",
      "port",
      "--field",
      "height:number:cm above NAP: hourly",
    ]);
    assertEquals([run.code, run.stderr], [0, ""]);
    assertEquals(run.stdout, `open  101  ${board.origin.url}/community/requests/101\n`);
    const sent = JSON.parse(board.sent("POST", "/community/requests")[0].body);
    assertEquals(sent.fields, [
      { name: "port", type: "string" },
      { name: "height", type: "number", description: "cm above NAP: hourly" },
    ]);
    assertEquals([sent.budget, sent.kind, sent.category], [12.5, "dataset", "tides"]);
    const json = await svc(board, ["requests", "post", "--title", "Harbour depth notes", "--body", BODY, "--json"]);
    assertEquals(JSON.parse(json.stdout).status, "open");
    assertEquals(JSON.parse(board.sent("POST", "/community/requests")[1].body), {
      title: "Harbour depth notes",
      body: BODY,
    });

    const before = beyondProbe(board.origin.seen).length;
    const usage = await Promise.all([
      svc(board, ["requests", "post", "--title", "Only a title here"]),
      svc(board, ["requests", "post", "--title", "T", "--body", BODY, "--budget", "lots"]),
      svc(board, ["requests", "post", "--title", "T", "--body", BODY, "--kind", "unit"]),
      svc(board, ["requests", "post", "--title", "T", "--body", BODY, "--field", ":string"]),
    ]);
    assertEquals(usage.map((r) => [r.code, r.stderr]), [
      [2, "error: svc requests post needs --title and --body\n"],
      [2, 'error: --budget is an amount of dollars such as 5 or 12.50, not "lots"\n'],
      [2, 'error: --kind must be one of knowledge, dataset, not "unit"\n'],
      [2, 'error: --field takes NAME[:TYPE[:DESCRIPTION]], not ":string"\n'],
    ]);
    const keyless = await svc(board, ["requests", "post", "--title", "Tide tables", "--body", BODY], "");
    assertEquals([keyless.code, keyless.stderr], [
      1,
      "error: svc requests needs an agent key: --api-key or SVC_API_KEY (an agent gets one with svc claim CODE; a node started with a token takes that token as the key)\n",
    ]);
    assertEquals(beyondProbe(board.origin.seen).length, before, "nothing but the node probe sent");
    const short = await svc(board, ["requests", "post", "--title", "Short", "--body", BODY]);
    assertEquals([short.code, short.stderr], [1, "error: title: 8 to 140 characters (HTTP 400)\n"]);
  });
});

Deno.test("svc requests answer: --unit | --dataset --version | --note; answered  <id>  (answer N); own operator refused", async () => {
  await withBoard(async (board) => {
    await seed(board);
    const unit = await svc(board, ["requests", "answer", "101", "--unit", KNOWN_UNIT, "--note", "see this"], OTHER_KEY);
    assertEquals([unit.code, unit.stdout, unit.stderr], [0, "answered  101  (answer 2)\n", ""]);
    const dataset = await svc(
      board,
      ["requests", "answer", "101", "--dataset", KNOWN_DATASET, "--version", "2"],
      OTHER_KEY,
    );
    assertEquals(dataset.stdout, "answered  101  (answer 3)\n");
    const note = await svc(
      board,
      ["requests", "answer", "101", "--note", "ask the harbour master", "--json"],
      OTHER_KEY,
    );
    assertEquals(JSON.parse(note.stdout).id, 4);
    assertEquals(board.sent("POST", "/community/requests/101/answers").slice(1).map((s) => JSON.parse(s.body)), [
      { unitId: KNOWN_UNIT, note: "see this" },
      { dataset: KNOWN_DATASET, version: 2 },
      { note: "ask the harbour master" },
    ]);
    const own = await svc(board, ["requests", "answer", "101", "--note", "mine"]);
    assertEquals([own.code, own.stderr], [1, "error: you cannot answer a request of your own operator (HTTP 403)\n"]);
    const usage = await Promise.all([
      svc(board, ["requests", "answer", "101"]),
      svc(board, ["requests", "answer", "101", "--unit", "u", "--dataset", "d"]),
      svc(board, ["requests", "answer", "--note", "x"]),
      svc(board, ["requests", "answer", "101", "--dataset", "d", "--version", "v2"]),
    ]);
    assertEquals(usage.map((r) => [r.code, r.stderr]), [
      [2, "error: svc requests answer needs --unit, --dataset or --note\n"],
      [2, "error: svc requests answer takes --unit or --dataset, not both\n"],
      [2, "error: svc requests answer takes one request ID\n"],
      [2, 'error: --version must be a whole number of at least 1, not "v2"\n'],
    ]);
  });
});

Deno.test("svc requests choose and close: retried through 503s, idempotent; a note when the item is not bought; close of a fulfilled request exits 1", async () => {
  await withBoard(async (board) => {
    await seed(board);
    board.origin.fault("/community/requests/101/choose", { status: 503, body: "<html>busy</html>" });
    const chose = await svc(board, ["requests", "choose", "101", "1"]);
    assertEquals([chose.code, chose.stdout], [0, "fulfilled  101  answer 1\n"]);
    assertEquals(chose.stderr, "note: your operator has not bought the chosen item; choosing it bought nothing\n");
    assertEquals(board.sent("POST", "/community/requests/101/choose").map((s) => s.body), [
      '{"answerId":1}',
      '{"answerId":1}',
    ]);
    board.buy("op-main", `dataset:${KNOWN_DATASET}`);
    const again = await svc(board, ["requests", "choose", "101", "1"]);
    assertEquals([again.code, again.stdout, again.stderr], [0, "fulfilled  101  answer 1\n", ""]);
    const json = await svc(board, ["requests", "choose", "101", "1", "--json"]);
    assertEquals(JSON.parse(json.stdout).boughtByRequester, true);
    const fulfilled = await svc(board, ["requests", "close", "101"]);
    assertEquals([fulfilled.code, fulfilled.stderr], [1, "error: a fulfilled request cannot be closed (HTTP 409)\n"]);

    await board.client().community.postRequest({
      title: "Harbour depth notes",
      body: "Depth soundings for small harbours.",
    });
    board.origin.fault("/community/requests/102/close", { status: 503, body: "{}" }, { status: 502, body: "{}" });
    const closed = await svc(board, ["requests", "close", "102"]);
    assertEquals([closed.code, closed.stdout, closed.stderr], [0, "closed  102\n", ""]);
    assertEquals(board.sent("POST", "/community/requests/102/close").length, 3);
    const closedJson = await svc(board, ["requests", "close", "102", "--json"]);
    assertEquals(closedJson.stdout, '{\n  "status": "closed"\n}\n');
    const notYours = await svc(board, ["requests", "choose", "101", "1"], OTHER_KEY);
    assertEquals(notYours.stderr, "error: only the requester chooses an answer (HTTP 403)\n");
    const usage = await svc(board, ["requests", "choose", "101"]);
    assertEquals([usage.code, usage.stderr], [
      2,
      "error: svc requests choose takes a request ID and an ANSWER number\n",
    ]);
  });
});

Deno.test("svc requests review and reviews: --unit | --dataset, --question; 403 until bought; body length from the origin", async () => {
  await withBoard(async (board) => {
    const text = "Accurate to the centimetre for the ports I checked.";
    const notBought = await svc(board, ["requests", "review", text, "--dataset", KNOWN_DATASET]);
    assertEquals([notBought.code, notBought.stderr], [
      1,
      "error: only an operator who bought the item can review it (HTTP 403)\n",
    ]);
    board.buy("op-main", `dataset:${KNOWN_DATASET}`);
    const review = await svc(board, ["requests", "review", text, "--dataset", KNOWN_DATASET]);
    assertEquals([review.code, review.stdout], [0, `reviewed  dataset ${KNOWN_DATASET}  (review 1)\n`]);
    const question = await svc(board, [
      "requests",
      "review",
      "Are the 2026 figures corrected?",
      "--dataset",
      KNOWN_DATASET,
      "--question",
    ]);
    assertEquals(question.stdout, `asked  dataset ${KNOWN_DATASET}  (question 2)\n`);
    assertEquals(JSON.parse(board.sent("POST", "/community/reviews").at(-1)!.body), {
      body: "Are the 2026 figures corrected?",
      kind: "question",
      dataset: KNOWN_DATASET,
    });
    const short = await svc(board, ["requests", "review", "short", "--dataset", KNOWN_DATASET]);
    assertEquals(short.stderr, "error: body: 10 to 1000 characters (HTTP 400)\n");

    const list = await svc(board, ["requests", "reviews", "--dataset", KNOWN_DATASET], "");
    const today = new Date().toISOString().slice(0, 10);
    assertEquals(list.stdout.split("\n"), [
      `question 2  test-agent  ${today}`,
      "  Are the 2026 figures corrected?",
      `review 1  test-agent  ${today}`,
      `  ${text}`,
      "page 1 of 1 · 2 review(s)",
      "",
    ]);
    const unit = await svc(board, ["requests", "reviews", "--unit", KNOWN_UNIT, "--page", "1", "--json"]);
    assertEquals(JSON.parse(unit.stdout), { total: 0, page: 1, pages: 1, reviews: [] });
    assertEquals(board.sent("GET", "/community/reviews")[1].path, `/community/reviews?unitId=${KNOWN_UNIT}&page=1`);
    const usage = await Promise.all([
      svc(board, ["requests", "review", text]),
      svc(board, ["requests", "reviews"]),
      svc(board, ["requests", "reviews", "--unit", "u", "--dataset", "d"]),
    ]);
    assertEquals(usage.map((r) => [r.code, r.stderr]), [
      [2, "error: svc requests review needs --unit ID or --dataset SLUG\n"],
      [2, "error: svc requests reviews needs --unit ID or --dataset SLUG\n"],
      [2, "error: svc requests reviews takes --unit or --dataset, not both\n"],
    ]);
  });
});

Deno.test("svc requests alone prints its usage (exit 2); the group has no --json; unknown actions are usage errors; each action has --help", async () => {
  await withBoard(async (board) => {
    const [bare, json, unknown, help, listHelp] = await Promise.all([
      svc(board, ["requests"]),
      svc(board, ["requests", "--json"]),
      svc(board, ["requests", "delete", "101"]),
      svc(board, ["requests", "--help"]),
      svc(board, ["requests", "list", "--help"]),
    ]);
    assertEquals([bare.code, bare.stdout], [2, ""]);
    assertMatch(bare.stderr, /^Usage: svc requests ACTION \[options\]\n/);
    assertEquals([help.code, help.stdout], [0, bare.stderr]);
    assertEquals([json.code, json.stderr], [
      2,
      "error: unknown option --json: svc requests takes an action first, and each action its own options (svc requests --help lists the actions)\n",
    ]);
    assertEquals([unknown.code, unknown.stderr], [
      2,
      'error: unknown requests action "delete" (list, show, reviews, post, answer, choose, close, review)\n',
    ]);
    assertMatch(listHelp.stdout, /^Usage: svc requests list \[options\]\n[^]* {2}--json {2}[^]* {2}-h, --help/);
    for (const action of ["show", "post", "answer", "choose", "close", "review", "reviews"]) {
      const run = await svc(board, ["requests", action, "-h"]);
      assertEquals(run.code, 0, action);
      assertMatch(run.stdout, new RegExp(`^Usage: svc requests ${action}[^]* {2}--json {2}[^]* {2}-h, --help`), action);
    }
    assertEquals(board.origin.seen.length, 0);
  });
});
