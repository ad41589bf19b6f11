import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { runCli } from "../support/cli_process.ts";

const COMMANDS = [
  "serve",
  "projects",
  "data",
  "query",
  "export",
  "pull",
  "save",
  "load",
  "trust",
  "share",
  "create",
  "contribute",
  "push",
  "promote",
  "edit",
  "search",
  "read",
  "submit",
  "status",
  "revise",
  "retire",
  "price",
  "review",
  "points",
  "leaderboard",
  "claim",
  "claim-status",
  "quota",
  "earnings",
  "listings",
  "requests",
  "report",
  "credits",
  "buy",
  "purchases",
  "dispute",
];

Deno.test("svc alone prints the usage on stderr (exit 2); svc --help and svc help on stdout (exit 0)", async () => {
  const bare = await runCli([]);
  assertEquals([bare.code, bare.stdout], [2, ""]);
  assertMatch(bare.stderr, /^Usage: svc /);
  for (const args of [["--help"], ["-h"], ["help"], ["help", "--help"], ["help", "-h"]]) {
    const run = await runCli(args);
    assertEquals([run.code, run.stderr, run.stdout], [0, "", bare.stderr], args.join(" "));
  }
  for (const name of COMMANDS) assertMatch(bare.stderr, new RegExp(`\\n  ${name} +\\S`), `${name} is listed`);
  assertMatch(
    bare.stderr,
    /\nNode:\n {2}serve +\S.*\n {2}trust +\S.*\n {2}share +\S.*\n\nDatasets:\n {2}projects /,
    "commands are grouped",
  );
  const groups = [...bare.stderr.matchAll(/^([A-Z][a-z ]+)(?: \(the origin[a-z ]* only\))?:$/gm)].map((m) => m[1]);
  const order = ["Node", "Datasets", "Knowledge units", "Account", "Community", "Payments"];
  for (const group of ["Knowledge units", "Account", "Community", "Payments"]) {
    assertMatch(
      bare.stderr,
      new RegExp(`\\n${group} \\(the origin[a-z ]* only\\):\\n`),
      `${group} says it needs the origin`,
    );
  }
  for (const name of ["push", "promote", "edit"]) {
    assertMatch(bare.stderr, new RegExp(`\\n  ${name} +.*the origin`), `${name} says it needs the origin`);
  }
  assertEquals(groups, order.filter((g) => groups.includes(g)), "known groups, in order");
  assert(groups.includes("Node") && groups.includes("Datasets"));
});

Deno.test("svc help COMMAND is svc COMMAND --help, and every command's help lists -h, --help", async () => {
  for (const name of COMMANDS) {
    const [help, flag] = await Promise.all([runCli(["help", name]), runCli([name, "--help"])]);
    assertEquals([help.code, help.stdout], [0, flag.stdout], name);
    assertMatch(help.stdout, new RegExp(`^Usage: svc ${name}`), name);
    assert(help.stdout.includes("  -h, --help"), `${name} --help lists -h, --help`);
  }
  const unknown = await runCli(["help", "nope"]);
  assertEquals(unknown.code, 2);
  assertMatch(unknown.stderr, /^error: svc help takes one command: serve, trust, share, projects, /);
  for (const name of COMMANDS) assertMatch(unknown.stderr, new RegExp(`[ :]${name}(,|\\n)`), `${name} is named`);
});

Deno.test("usage errors are worded for the command line: unknown options and commands (with the one meant), missing values", async () => {
  const cases: [string[], string][] = [
    [["query", "cities", "SELECT 1", "--x"], "error: unknown option --x (svc query --help lists the options)\n"],
    [["export", "cities", "-o"], "error: --output needs a value\n"],
    [["data", "cities", "--json=1"], "error: --json takes no value\n"],
    [
      ["pull", "cities", "--workers", "-2"],
      "error: --workers needs a value (one starting with - is written --workers=-VALUE)\n",
    ],
    [["serve", "--bogus"], "error: unknown option --bogus (svc serve --help lists the options)\n"],
    [["frobnicate"], 'error: unknown command "frobnicate" (svc --help lists the commands)\n'],
    [
      ["serv", "--port", "0"],
      'error: unknown command "serv": did you mean svc serve? (svc --help lists the commands)\n',
    ],
    [["qeury", "cities"], 'error: unknown command "qeury": did you mean svc query? (svc --help lists the commands)\n'],
    [
      ["data", "cities", "--lmit", "3"],
      "error: unknown option --lmit: did you mean --limit? (svc data --help lists the options)\n",
    ],
    [
      ["serve", "--prot", "80"],
      "error: unknown option --prot: did you mean --port? (svc serve --help lists the options)\n",
    ],
    [
      ["export", "cities", "--outptu", "x"],
      "error: unknown option --outptu: did you mean --output? (svc export --help lists the options)\n",
    ],
    [["help", "projets"], 'error: svc help: no command "projets": did you mean projects?\n'],
    [
      ["share", "ad", "x"],
      'error: unknown share action "ad": did you mean svc share add? (add, list, remove, profile)\n',
    ],
    [["trust", "lst"], 'error: unknown trust action "lst": did you mean svc trust list? (add, list, remove)\n'],
    [["trust", "add", "--force=1"], "error: --force takes no value\n"],
  ];
  for (const [args, stderr] of cases) {
    const run = await runCli(args);
    assertEquals([run.code, run.stderr], [2, stderr], args.join(" "));
  }
  const trust = await runCli(["trust"], { SVC_TRUST_FILE: "/nonexistent/trust.json" });
  const listed = await runCli(["trust", "list"], { SVC_TRUST_FILE: "/nonexistent/trust.json" });
  assertEquals([trust.code, trust.stdout, trust.stderr], [0, listed.stdout, listed.stderr], "svc trust alone lists");
});

Deno.test('create\'s help says schema fields are required unless "required": false', async () => {
  const run = await runCli(["create", "--help"]);
  assertMatch(run.stdout.replace(/\s+/g, " "), /every field is required unless it says "required": false/);
});

Deno.test("the flags of origin-wire 7.3 are in their commands' help", async () => {
  const flags: [string, string[]][] = [
    ["pull", ["--version N", "--out DIR", "--store DIR", "--page N", "--workers N"]],
    ["save", ["--version N", "--cache DIR", "--store DIR", "--workers N"]],
    ["load", ["--out DIR", "--store DIR"]],
    ["query", ["--out DIR", "--store DIR"]],
    ["contribute", ["--source TEXT", "--wait"]],
    ["create", ["--readme TEXT", "--readme-file FILE"]],
  ];
  for (const [command, names] of flags) {
    const help = (await runCli([command, "--help"])).stdout;
    for (const name of names) assert(help.includes(name), `svc ${command} --help lists ${name}`);
  }
});
