import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { earningsLines } from "../../../src/origin/cli/account.ts";
import { usd } from "../../../src/origin/cli/origin_flags.ts";
import type { Earnings } from "../../../src/origin/mod.ts";
import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { AGENT_KEY, type Board, withBoard } from "../../support/board_fixture.ts";
import { runCli } from "../../support/cli_process.ts";
import { beyondProbe } from "../../support/origin.ts";
import { CLAIM_CODES } from "../../support/origin_account.ts";

/** Runs `svc` against the board's origin with the config folder in the scratch folder and no key unless given. */
function svc(board: Board, args: string[], env: Record<string, string> = {}, input?: string) {
  return runCli(["--base-url", board.origin.url, ...args], {
    XDG_CONFIG_HOME: join(board.scratch, "config"),
    SVC_API_KEY: "",
    ...env,
  }, { input });
}

function keyOf(board: Board): string {
  return [...board.account.claims.keys()].at(-1)!;
}

Deno.test("svc claim writes the key to $XDG_CONFIG_HOME/svc/key with mode 0600, prints who and what next, never the key", async () => {
  await withBoard(async (board) => {
    const run = await svc(board, [
      "claim",
      CLAIM_CODES.valid,
      "--name",
      "tide-reader",
      "--description",
      "reads gauges",
    ]);
    assertEquals([run.code, run.stderr], [0, ""]);
    const key = keyOf(board);
    const file = join(board.scratch, "config", "svc", "key");
    assertEquals(await readFile(file, "utf8"), `${key}\n`);
    assertEquals((await stat(file)).mode & 0o777, 0o600);
    assertEquals(await readdir(join(board.scratch, "config", "svc")), ["key"], "no temporary file left");
    const claim = board.account.claims.get(key)!;
    assertEquals(run.stdout.split("\n"), [
      "claimed tide-reader for operator op-claims",
      `key written to ${file} (mode 0600); it waits for the operator's approval until ${claim.expiresAt}`,
      "confirmation phrase: amber-harbour-42",
      `approve at: ${claim.approveUrl}`,
      `next: ask op-claims to approve the key at ${claim.approveUrl}; it works once approved`,
      "then: svc claim-status --wait 10",
      "",
    ]);
    assert(!run.stdout.includes(key) && !run.stderr.includes(key), "the key is never printed");
    const [sent] = board.sent("POST", "/agents/claim");
    assertEquals(JSON.parse(sent.body), { code: CLAIM_CODES.valid, name: "tide-reader", description: "reads gauges" });
    assertEquals(sent.headers.authorization, undefined);
  });
});

Deno.test("svc claim: an existing key file exits 1 before sending; --force replaces it (0600), a folder is never replaced", async () => {
  await withBoard(async (board) => {
    const file = join(board.scratch, "my key");
    await writeFile(file, "km_old\n", { mode: 0o644 });
    const refused = await svc(board, ["claim", CLAIM_CODES.valid, "--key-file", file]);
    assertEquals([refused.code, refused.stdout], [1, ""]);
    assertEquals(
      refused.stderr,
      `error: ${file} already exists, and a claim code works once: nothing was sent (--force replaces the key file, --key-file names another)\n`,
    );
    assertEquals(board.sent("POST", "/agents/claim").length, 0, "the origin saw nothing");
    assertEquals(await readFile(file, "utf8"), "km_old\n");

    const forced = await svc(board, ["claim", CLAIM_CODES.valid, "--key-file", file, "--force"]);
    assertEquals(forced.code, 0, forced.stderr);
    assertEquals(await readFile(file, "utf8"), `${keyOf(board)}\n`);
    assertEquals((await stat(file)).mode & 0o777, 0o600, "the new file is 0600 whatever the old one was");
    assertMatch(
      forced.stdout,
      new RegExp(`\nthen: svc claim-status --key-file '${board.scratch}/my key' --wait 10\n$`),
    );
    assert(!forced.stdout.includes(keyOf(board)));

    const folder = join(board.scratch, "folder");
    await Deno.mkdir(folder);
    const notFile = await svc(board, ["claim", CLAIM_CODES.valid, "--key-file", folder, "--force"]);
    assertEquals([notFile.code, notFile.stderr], [1, `error: ${folder} is not a file: nothing was sent\n`]);
    const under = join(board.scratch, "my key", "key");
    const unwritable = await svc(board, ["claim", CLAIM_CODES.valid, "--key-file", under]);
    assertEquals(unwritable.code, 1);
    assertEquals(unwritable.stderr, `error: cannot use ${under}: a part of the path is not a directory\n`);
    assertEquals(board.sent("POST", "/agents/claim").length, 1, "only the forced claim was sent");
  });
});

Deno.test("svc claim --key-file - prints only the key on stdout, the rest (and --json) on stderr, and writes no file", async () => {
  await withBoard(async (board) => {
    const run = await svc(board, ["claim", CLAIM_CODES.valid, "--key-file", "-"]);
    assertEquals(run.code, 0, run.stderr);
    const key = keyOf(board);
    assertEquals(run.stdout, `${key}\n`);
    const lines = run.stderr.split("\n");
    assertEquals(lines[0], "claimed tide-reader for operator op-claims");
    assertMatch(lines[1], /^the key is on stdout; it waits for the operator's approval until \S+$/);
    assertEquals(lines.at(-2), "then: svc claim-status --wait 10, with the key in SVC_API_KEY");
    assert(!run.stderr.includes(key));
    assertEquals(await readdir(board.scratch), [], "no key file, no config folder");

    board.account.codes.set("svcc_json0001", { name: "json-agent", operator: "op-claims", state: "valid" });
    const json = await svc(board, ["claim", "svcc_json0001", "--key-file", "-", "--json"]);
    assertEquals(json.stdout, `${keyOf(board)}\n`);
    assertEquals(JSON.parse(json.stderr).keyFile, "-");
  });
});

Deno.test("svc claim --json prints the answer without apiKey, with keyFile, indented 2", async () => {
  await withBoard(async (board) => {
    board.account.codes.set("svcc_newkey01", { name: "test-agent", operator: "op-main", state: "valid", newKey: true });
    const file = join(board.scratch, "key");
    const run = await svc(board, ["claim", "svcc_newkey01", "--key-file", file, "--json"]);
    assertEquals(run.code, 0, run.stderr);
    const answer = JSON.parse(run.stdout);
    assertEquals(Object.keys(answer), [
      "status",
      "confirmPhrase",
      "name",
      "operator",
      "expiresAt",
      "statusUrl",
      "approveUrl",
      "next",
      "kind",
      "keyFile",
    ]);
    assertEquals([answer.kind, answer.keyFile], ["new-key", file]);
    assert(run.stdout.startsWith('{\n  "status": "pending",\n'));
    assert(!run.stdout.includes(keyOf(board)));
    const text = await svc(board, ["claim", "svcc_newkey01", "--key-file", join(board.scratch, "k2")]);
    assertEquals([text.code, text.stderr], [1, "error: this claim code was already used (HTTP 409)\n"]);
  });
});

Deno.test("svc claim: wrong, used, expired and locked codes exit 1 with the origin's words; no key file is left; usage errors exit 2", async () => {
  await withBoard(async (board) => {
    const cases: [string, string][] = [
      ["svcc_wrong", "error: unknown claim code (HTTP 400)\n"],
      [CLAIM_CODES.used, "error: this claim code was already used (HTTP 409)\n"],
      [CLAIM_CODES.expired, "error: this claim code has expired (HTTP 410)\n"],
      [CLAIM_CODES.locked, "error: this claim code is locked after too many attempts (HTTP 423)\n"],
    ];
    for (const [code, stderr] of cases) {
      const run = await svc(board, ["claim", code]);
      assertEquals([run.code, run.stdout, run.stderr], [1, "", stderr], code);
    }
    assertEquals(await readdir(join(board.scratch, "config", "svc")), [], "no key file and no temporary file");
    const bad = await svc(board, ["claim", CLAIM_CODES.valid, "--name", "no spaces allowed"]);
    assertEquals(bad.stderr, "error: name: letters, digits and ._- only, at most 60 characters (HTTP 400)\n");
    const usage: [string[], string][] = [
      [["claim"], "error: svc claim takes one claim CODE\n"],
      [["claim", "a", "b"], "error: svc claim takes one claim CODE\n"],
      [["claim", "a", "--force=yes"], "error: --force takes no value\n"],
      [
        ["claim", "a", "--key"],
        "error: unknown option --key: did you mean --key-file? (svc claim --help lists the options)\n",
      ],
      [["claim", "a", "--key-file="], "error: --key-file needs a path (or - for stdout)\n"],
    ];
    for (const [args, stderr] of usage) {
      const run = await svc(board, args);
      assertEquals([run.code, run.stderr], [2, stderr], args.join(" "));
    }
    assertEquals(board.sent("POST", "/agents/claim").length, 5);
  });
});

Deno.test("svc claim-status asks with the key file's key; --wait polls while pending, and still pending after is exit 1", async () => {
  await withBoard(async (board) => {
    assertEquals((await svc(board, ["claim", CLAIM_CODES.valid])).code, 0);
    const key = keyOf(board);
    const pending = await svc(board, ["claim-status"], { SVC_API_KEY: AGENT_KEY });
    assertEquals([pending.code, pending.stderr], [0, ""]);
    assertEquals(
      pending.stdout,
      "pending  tide-reader\nnext: waiting for the operator's approval; ask again in a minute\n",
    );
    assertEquals(board.sent("GET", "/agents/claim/status")[0].headers.authorization, `Bearer ${key}`, "the file's key");

    const fast = { SVC_TEST_CLAIM_POLL_MS: "10" };
    board.account.approveAfter(key, 3);
    const approved = await svc(board, ["claim-status", "--wait", "5"], fast);
    assertEquals([approved.code, approved.stdout], [
      0,
      "approved  tide-reader\nnext: the key works now: use it as SVC_API_KEY\n",
    ]);
    assertEquals(board.account.claims.get(key)!.polls, 4, "one ask, then once a minute while pending");

    board.account.decide(key, "pending");
    board.account.claims.get(key)!.approveAfter = null;
    const polls = board.account.claims.get(key)!.polls;
    const still = await svc(board, ["claim-status", "--wait", "2", "--json"], fast);
    assertEquals(still.code, 1);
    assertEquals(JSON.parse(still.stdout).status, "pending");
    assertEquals(still.stderr, "error: the key of tide-reader is still pending after 2 minutes\n");
    assertEquals(board.account.claims.get(key)!.polls - polls, 3);

    board.account.decide(key, "rejected");
    const rejected = await svc(board, ["claim-status", "--wait", "3"], fast);
    assertEquals(
      [rejected.code, rejected.stdout.split("\n")[0]],
      [0, "rejected  tide-reader"],
      "an answer, not a wait",
    );
    assertEquals(board.account.claims.get(key)!.polls - polls, 4, "no polling once not pending");
    assertEquals(
      (await svc(board, ["claim-status", "--wait", "0"])).stderr,
      'error: --wait must be a whole number of at least 1, not "0"\n',
    );
  });
});

Deno.test("svc claim-status: --key-file FILE or - (stdin), else --api-key; no key anywhere exits 1 before sending", async () => {
  await withBoard(async (board) => {
    const claimed = await board.client({ apiKey: null }).account.claim(CLAIM_CODES.valid);
    board.account.decide(claimed.apiKey, "approved");
    const file = join(board.scratch, "k");
    await writeFile(file, `${claimed.apiKey}\n`);
    const byFile = await svc(board, ["claim-status", "--key-file", file]);
    assertEquals(byFile.stdout.split("\n")[0], "approved  tide-reader");
    const byStdin = await svc(board, ["claim-status", "--key-file", "-"], {}, `${claimed.apiKey}\n`);
    assertEquals(byStdin.stdout.split("\n")[0], "approved  tide-reader");
    const byFlag = await svc(board, ["claim-status", "--api-key", AGENT_KEY]);
    assertEquals(byFlag.stdout.split("\n")[0], "approved  test-agent");
    const seen = board.sent("GET", "/agents/claim/status").map((s) => s.headers.authorization);
    assertEquals(seen, [`Bearer ${claimed.apiKey}`, `Bearer ${claimed.apiKey}`, `Bearer ${AGENT_KEY}`]);

    const missing = await svc(board, ["claim-status", "--key-file", join(board.scratch, "nope")]);
    assertEquals([missing.code, missing.stderr], [1, `error: cannot read ${join(board.scratch, "nope")}: not found\n`]);
    const none = await svc(board, ["claim-status"]);
    assertEquals(none.code, 1);
    assertEquals(
      none.stderr,
      `error: no key to ask with: ${
        join(board.scratch, "config", "svc", "key")
      } does not exist (svc claim CODE writes it); ` +
        "give --key-file FILE, --api-key KEY or SVC_API_KEY\n",
    );
    const unknown = await svc(board, ["claim-status", "--api-key", "km_nobody"]);
    assertEquals([unknown.code, unknown.stderr], [
      1,
      "error: unknown key (HTTP 401) (give it with --api-key or SVC_API_KEY)\n",
    ]);
    assertEquals(board.sent("GET", "/agents/claim/status").length, 4);
  });
});

Deno.test("svc quota, earnings, listings print the lines of 3.10; --json the answer indented 2; no key is exit 1 before sending", async () => {
  await withBoard(async (board) => {
    const key = { SVC_API_KEY: AGENT_KEY };
    const [quota, earnings, listings, json] = await Promise.all([
      svc(board, ["quota"], key),
      svc(board, ["earnings"], key),
      svc(board, ["listings"], key),
      svc(board, ["quota", "--json"], key),
    ]);
    assertEquals([quota.code, quota.stderr], [0, ""]);
    assertEquals(quota.stdout, "storage  1.25 / 5.00 GiB\negress   12.40 / 50.00 GB this month (since 2026-10-01)\n");
    assertEquals(earnings.stdout.split("\n"), [
      "payable   $12.50",
      "on hold   $3.20 (7-day dispute window)",
      "  $1.20 payable from 2026-10-12",
      "  $2.00 payable from 2026-10-14",
      "disputed  $0.25",
      "unpaid    $15.95 · paid $40.125",
      "next: $12.50 goes out with the next payout",
      "",
    ]);
    assertEquals(listings.stdout.split("\n"), [
      "unit     3f1c2a9e-7b4d-4e21-9a0c-5d8e6f7a1b2c  published  $0.25  14 sale(s)  2 version(s)  test-agent (yours)",
      "           pending v3 5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d (screening)",
      "unit     7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b  published  free  0 sale(s)  1 version(s)  field-agent",
      "           rejected v2: source declaration does not say where the figures come from",
      "dataset  north-sea-tides  open  paid · public  $1.50",
      "dataset  harbour-notes  archived  public · public  free",
      "page 1 of 1 · 4 listing(s) (2 unit(s), 2 dataset(s))",
      "",
    ]);
    assertEquals(json.stdout, JSON.stringify(board.account.quota, null, 2) + "\n");

    const query = await svc(board, ["listings", "tides", "--kind", "dataset", "--page", "1", "--json"], key);
    assertEquals((JSON.parse(query.stdout) as Json).listings.map((l: Json) => l.slug), ["north-sea-tides"]);
    assertEquals(board.sent("GET", "/listings").at(-1)!.path, "/listings?q=tides&kind=dataset&page=1");
    const oauth = await svc(board, ["earnings"], { SVC_API_KEY: "oauth-token" });
    assertEquals(oauth.code, 0, "earnings takes an OAuth token as the key");

    const before = beyondProbe(board.origin.seen).length;
    for (const name of ["quota", "earnings", "listings"]) {
      const run = await svc(board, [name]);
      assertEquals([run.code, run.stdout], [1, ""]);
      assertEquals(
        run.stderr,
        `error: svc ${name} needs an agent key: --api-key or SVC_API_KEY (an agent gets one with svc claim CODE; a node started with a token takes that token as the key)\n`,
      );
    }
    assertEquals(beyondProbe(board.origin.seen).length, before, "nothing but the node probe sent");
    const usage = await Promise.all([
      svc(board, ["listings", "--kind", "units"], key),
      svc(board, ["listings", "--page", "0"], key),
      svc(board, ["quota", "extra"], key),
      svc(board, ["listings", "a", "b"], key),
    ]);
    assertEquals(usage.map((r) => [r.code, r.stderr]), [
      [2, 'error: --kind must be one of unit, dataset, not "units"\n'],
      [2, 'error: --page must be a whole number of at least 1, not "0"\n'],
      [2, "error: svc quota takes no arguments\n"],
      [2, "error: svc listings takes at most one QUERY (quote several words)\n"],
    ]);
  });
});

Deno.test("svc quota and earnings: an HTML error page is its reason phrase, a 404 names the base URL, a pending key is 401", async () => {
  await withBoard(async (board) => {
    const html = {
      status: 502,
      headers: { "content-type": "text/html" },
      body: "<html><body>Bad gateway</body></html>",
    };
    board.origin.fault("/quota", html, html, html);
    board.origin.fault("/earnings", { status: 404, body: "<!doctype html><h1>Not Found</h1>" });
    const [quota, earnings] = await Promise.all([
      svc(board, ["quota"], { SVC_API_KEY: AGENT_KEY }),
      svc(board, ["earnings"], { SVC_API_KEY: AGENT_KEY }),
    ]);
    assertEquals([quota.code, quota.stderr], [1, "error: Bad Gateway (HTTP 502)\n"]);
    assertEquals(earnings.stderr, `error: Not Found (HTTP 404) — asked ${board.origin.url}\n`);
    const claimed = await board.client({ apiKey: null }).account.claim(CLAIM_CODES.valid);
    const pending = await svc(board, ["quota"], { SVC_API_KEY: claimed.apiKey });
    assertEquals(
      pending.stderr,
      "error: an agent key is required (HTTP 401) (give it with --api-key or SVC_API_KEY)\n",
    );
  });
});

Deno.test("earnings lines: the next sentence for every nextPayout, holds summed by day; usd keeps sub-cent digits", () => {
  const base = {
    operatorId: "op",
    balanceMicro: 0,
    payableMicro: 4_000_000,
    thresholdMicro: 10_000_000,
    neededMicro: 6_000_000,
    onHoldMicro: 3_000_001,
    onHold: [
      { micro: 1_000_000, payableFrom: "2026-10-14T01:00:00Z" },
      { micro: 2_000_001, payableFrom: "2026-10-14T23:00:00Z" },
    ],
    disputedMicro: 0,
    addressHoldUntil: "2026-10-16T08:00:00Z",
    paidMicro: 0,
  };
  const next = (nextPayout: string) => earningsLines({ ...base, nextPayout } as Earnings).split("\n").at(-2);
  assertEquals(
    earningsLines({ ...base, nextPayout: "due" } as Earnings).split("\n")[2],
    "  $3.000001 payable from 2026-10-14",
  );
  assertEquals(
    ["below_threshold", "no_address", "address_hold", "suspended", "in_flight", "unresolved", "retrying", "later"].map(
      next,
    ),
    [
      "next: $6.00 more to reach the $10.00 payout threshold",
      "next: set a payout address to be paid",
      "next: the payout address changed less than 48 h ago: payouts wait until 2026-10-16T08:00:00Z",
      "next: payouts to this operator are suspended",
      "next: a payout is on its way",
      "next: the last payout's outcome is not known yet; it is being checked",
      "next: the last payout failed and is being tried again",
      "next: later",
    ],
  );
  assertEquals([usd(0), usd(1), usd(100_000), usd(12_345_678), usd(-2_500_000)], [
    "$0.00",
    "$0.000001",
    "$0.10",
    "$12.345678",
    "-$2.50",
  ]);
});
