import { assertEquals } from "../../support/assert.ts";
import { AGENT_KEY, type Board, withBoard } from "../../support/board_fixture.ts";
import { runCli } from "../../support/cli_process.ts";
import { KNOWN_UNIT } from "../../support/origin_community.ts";

/** Runs `svc` against the board's origin as `key` (none: ""). */
function svc(board: Board, args: string[], key = AGENT_KEY) {
  return runCli(args, { SVC_BASE_URL: board.origin.url, SVC_API_KEY: key, XDG_CONFIG_HOME: board.scratch });
}

Deno.test("svc report: kind and reason by choices (exit 2), sends the rest as given, reported  <id>  (<status>); the same report again is the same", async () => {
  await withBoard(async (board) => {
    const args = ["report", "dataset", "cities", "inaccurate", "Half the populations are from 1990."];
    const first = await svc(board, args);
    assertEquals([first.code, first.stdout, first.stderr], [0, "reported  1  (received)\n", ""]);
    assertEquals(JSON.parse(board.sent("POST", "/reports")[0].body), {
      kind: "dataset",
      id: "cities",
      reason: "inaccurate",
      detail: "Half the populations are from 1990.",
    });
    const again = await svc(board, [...args, "--json"]);
    assertEquals(JSON.parse(again.stdout), { id: 1, status: "received", again: true });
    const keyless = await svc(board, ["report", "unit", KNOWN_UNIT, "copyright", "Copied from a paid almanac."], "");
    assertEquals([keyless.code, keyless.stderr], [
      1,
      "error: a report about copyright or personal data without a key needs an email (HTTP 400)\n",
    ]);
    const withEmail = await svc(board, [
      "report",
      "unit",
      KNOWN_UNIT,
      "copyright",
      "Copied from a paid almanac.",
      "--email",
      "ada@example.org",
    ], "");
    assertEquals(withEmail.stdout, "reported  2  (received)\n");
    assertEquals(board.sent("POST", "/reports").at(-1)!.headers.authorization, undefined, "public: no key, none sent");
    const short = await svc(board, ["report", "agent", "spammer", "spam", "bad"]);
    assertEquals(
      short.stderr,
      "error: detail: 10 to 4000 characters (HTTP 400)\n",
      "the length is the origin's to check",
    );

    const sent = board.sent("POST", "/reports").length;
    const usage = await Promise.all([
      svc(board, ["report", "planet", "x", "spam", "A long enough detail."]),
      svc(board, ["report", "unit", "x", "boring", "A long enough detail."]),
      svc(board, ["report", "unit", "x", "spam"]),
    ]);
    assertEquals(usage.map((r) => [r.code, r.stderr]), [
      [2, 'error: KIND must be one of unit, dataset, comment, review, topic, agent, not "planet"\n'],
      [2, 'error: REASON must be one of copyright, personal-data, unlawful, spam, inaccurate, other, not "boring"\n'],
      [2, "error: svc report takes KIND ID REASON DETAIL (quote DETAIL)\n"],
    ]);
    board.origin.fault("/reports", {
      status: 503,
      headers: { "content-type": "text/html" },
      body: "<html>down</html>",
    });
    const down = await svc(board, args);
    assertEquals([down.code, down.stderr], [1, "error: Service Unavailable (HTTP 503)\n"]);
    assertEquals(board.sent("POST", "/reports").length, sent + 1, "refused locally, and never retried");
  });
});
