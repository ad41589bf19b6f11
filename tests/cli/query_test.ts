import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertEquals, assertMatch } from "../support/assert.ts";
import { runCli, startServe } from "../support/cli_process.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

Deno.test("svc query runs SQL over a local store: a table on stdout, JSON with --json", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const table = await runCli([
      "query",
      "cities",
      "SELECT id, name FROM records ORDER BY id LIMIT 2",
      "--store",
      dir.path,
    ]);
    assertEquals(table.code, 0, table.stderr);
    assertEquals(table.stdout, "id  name\n--  ------\n 0  city-0\n 1  city-1\n");
    assertMatch(table.stderr, /^2 rows from cities v2 in \d+ ms\n$/);
    const json = await runCli([
      "query",
      "cities@1",
      "SELECT count(*) AS n FROM records",
      "--store",
      dir.path,
      "--json",
    ]);
    assertEquals(json.code, 0, json.stderr);
    const body = JSON.parse(json.stdout);
    assertEquals([body.version, body.columns, body.rows], [1, ["n"], [[250]]]);
    const limited = await runCli(["query", "cities", "SELECT id FROM records", "--limit", "3", "--store", dir.path]);
    assertMatch(limited.stderr, /3 rows .* more rows exist/);
    const out = await runCli(["query", "cities", "SELECT count(*) AS n FROM records", "--out", dir.path, "--json"]);
    assertEquals(out.code, 0, out.stderr);
    assertEquals(JSON.parse(out.stdout).rows, [[600]], "--out names the store as --store does");
    const pinned = await runCli([
      "query",
      "cities@1",
      "SELECT count(*) AS n FROM records",
      "--version",
      "1",
      "--out",
      dir.path,
      "--json",
    ]);
    assertEquals([pinned.code, JSON.parse(pinned.stdout).version], [0, 1], pinned.stderr);
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc query fails with error: and exit 1, or exit 2 on usage", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const write = await runCli(["query", "cities", "DROP VIEW records", "--store", dir.path]);
    assertEquals(write.code, 1);
    assertMatch(write.stderr, /^error: queries are read-only/);
    const missing = await runCli(["query", "nowhere", "SELECT 1", "--store", dir.path]);
    assertEquals(missing.code, 1);
    for (
      const args of [["query"], ["query", "cities"], ["query", "../x", "SELECT 1"], [
        "query",
        "cities",
        "SELECT 1",
        "--limit",
        "x",
      ]]
    ) {
      const run = await runCli([...args, "--store", dir.path]);
      assertEquals(run.code, 2, args.join(" "));
      assertMatch(run.stderr, /^error: /);
    }
    const usage: [string[], string][] = [
      [["--out", dir.path, "--store", dir.path], "error: --out and --store are the same option: give one of them\n"],
      [["--version", "2", "--out", dir.path], "error: @1 and --version 2 ask for different versions: give one\n"],
    ];
    for (const [flags, stderr] of usage) {
      const run = await runCli(["query", "cities@1", "SELECT 1", ...flags]);
      assertEquals([run.code, run.stdout, run.stderr], [2, "", stderr], flags.join(" "));
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc query --remote asks a running node: keyless when it has no token, else with its token as the key", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const node = await startServe(["--store", dir.path, "--quiet"]);
    try {
      const remote = await runCli([
        "query",
        "cities",
        "SELECT max(id) AS top FROM records",
        "--remote",
        "--base-url",
        node.url,
        "--api-key",
        "k",
        "--json",
      ]);
      assertEquals(remote.code, 0, remote.stderr);
      assertEquals(JSON.parse(remote.stdout).rows, [[599]]);
      const keyless = await runCli(
        ["query", "cities", "SELECT count(*) AS n FROM records", "--remote", "--base-url", node.url, "--json"],
        { SVC_API_KEY: "" },
      );
      assertEquals([keyless.code, JSON.parse(keyless.stdout || "{}").rows], [0, [[600]]], keyless.stderr);
      const refused = await runCli([
        "query",
        "cities",
        "COPY records TO 'x'",
        "--remote",
        "--base-url",
        node.url,
        "--api-key",
        "k",
      ]);
      assertEquals(refused.code, 1);
      assertMatch(refused.stderr, /^error: queries are read-only/);
    } finally {
      node.child.kill("SIGTERM");
      await node.status;
    }
    // A node with a token says it is a node only to who sends the token: without a key, refused before sending;
    // with another key, its 401 says to pass its token as the key.
    const tokened = await startServe(["--store", dir.path, "--quiet", "--token", "node-secret"]);
    try {
      const ask = (...extra: string[]) =>
        runCli(["query", "cities", "SELECT 1", "--remote", "--base-url", tokened.url, ...extra], { SVC_API_KEY: "" });
      const keyless = await ask();
      assertEquals(
        [keyless.code, keyless.stderr],
        [
          1,
          "error: svc query needs an agent key: --api-key or SVC_API_KEY (an agent gets one with svc claim CODE; " +
          "a node started with a token takes that token as the key)\n",
        ],
      );
      const wrong = await ask("--api-key", "not-the-token");
      assertEquals(
        [wrong.code, wrong.stderr],
        [
          1,
          "error: this node needs its token: Authorization: Bearer <token> (HTTP 401): " +
          "pass the node's token as the key, with --api-key TOKEN or SVC_API_KEY\n",
        ],
      );
      const right = await ask("--api-key", "node-secret", "--json");
      assertEquals([right.code, JSON.parse(right.stdout || "{}").rows], [0, [[1]]], right.stderr);
    } finally {
      tokened.child.kill("SIGTERM");
      await tokened.status;
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("global --base-url and --api-key before the command reach client commands", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const node = await startServe(["--store", dir.path, "--quiet"]);
    try {
      const run = await runCli([
        "--base-url",
        node.url,
        "--api-key=k",
        "query",
        "cities",
        "SELECT 7",
        "--remote",
        "--json",
      ]);
      assertEquals(run.code, 0, run.stderr);
      assertEquals(JSON.parse(run.stdout).rows, [[7]]);
      assertEquals((await runCli(["--base-url"])).code, 2);
    } finally {
      node.child.kill("SIGTERM");
      await node.status;
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc query --format csv|jsonl, --limit 0 for every local row, SQL from --file or stdin", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const store = ["--store", dir.path];
    const sql = "SELECT id, name, note FROM records WHERE id IN (0, 1) ORDER BY id";
    const csv = await runCli(["query", "cities", sql, "--format", "csv", ...store]);
    assertEquals(csv.code, 0, csv.stderr);
    assertEquals(csv.stdout, "id,name,note\r\n0,city-0,\r\n1,city-1,n1\r\n");
    assertMatch(csv.stderr, /^2 rows from cities v2 in \d+ ms\n$/);
    const quoted = await runCli([
      "query",
      "cities",
      `SELECT 'a,"b"' || chr(10) || 'c' AS "x,y"`,
      "--format",
      "csv",
      ...store,
    ]);
    assertEquals(quoted.stdout, '"x,y"\r\n"a,""b""\nc"\r\n');
    const jsonl = await runCli(["query", "cities", sql, "--format", "jsonl", ...store]);
    assertEquals(jsonl.stdout, '{"id":0,"name":"city-0","note":null}\n{"id":1,"name":"city-1","note":"n1"}\n');

    const all = await runCli([
      "query",
      "cities",
      "SELECT i FROM range(5000) t(i)",
      "--limit",
      "0",
      "--format",
      "jsonl",
      ...store,
    ]);
    assertEquals(all.code, 0, all.stderr);
    assertEquals(all.stdout.trimEnd().split("\n").length, 5000, "--limit 0: every row of a local query");
    assertMatch(all.stderr, /^5000 rows from cities v2/);
    const many = await runCli(["query", "cities", "SELECT i FROM range(5000) t(i)", "--limit", "1500", ...store]);
    assertMatch(many.stderr, /^1500 rows .*, more rows exist \(raise --limit, or --limit 0 for all\)\n$/);

    await writeFile(join(dir.path, "q.sql"), "-- count them\nSELECT count(*) AS n FROM records\n");
    const fromFile = await runCli([
      "query",
      "cities@1",
      "--file",
      join(dir.path, "q.sql"),
      "--format",
      "csv",
      ...store,
    ]);
    assertEquals(fromFile.stdout, "n\r\n250\r\n");
    const fromStdin = await runCli(["query", "cities", "-", "--format", "csv", ...store], {}, {
      input: "SELECT max(id) AS top FROM records",
    });
    assertEquals(fromStdin.stdout, "top\r\n599\r\n");
    const noFile = await runCli(["query", "cities", "--file", join(dir.path, "nope.sql"), ...store]);
    assertEquals([noFile.code, noFile.stderr], [1, `error: cannot read ${join(dir.path, "nope.sql")}: not found\n`]);
    const dirFile = await runCli(["query", "cities", "--file", dir.path, ...store]);
    assertEquals(dirFile.stderr, `error: cannot read ${dir.path}: is a directory\n`);
    for (
      const args of [
        ["cities", sql, "--format", "xml"],
        ["cities", sql, "--format", "csv", "--json"],
        ["cities", sql, "--file", join(dir.path, "q.sql")],
        ["cities", sql, "--limit", "-1"],
        ["cities", "  "],
        ["cities", "SELECT 1 -- " + "x".repeat(4000)],
      ]
    ) {
      const run = await runCli(["query", ...args, ...store]);
      assertEquals(run.code, 2, args.join(" "));
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc query: a missing table names the table records; a remote --limit 0 gets the server's 1000", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const missing = await runCli(["query", "cities", "SELECT * FROM cities", "--store", dir.path]);
    assertEquals(
      [missing.code, missing.stderr],
      [1, "error: table cities does not exist: the version's records are the table records\n"],
    );
    const node = await startServe(["--store", dir.path, "--quiet"]);
    try {
      const remote = ["--remote", "--base-url", node.url, "--api-key", "k"];
      const capped = await runCli(["query", "cities", "SELECT i FROM range(5000) t(i)", "--limit", "0", ...remote]);
      assertEquals(capped.code, 0, capped.stderr);
      assertEquals(capped.stdout.split("\n").length - 1, 1002, "header, rule and 1000 rows");
      assertMatch(capped.stderr, /^1000 rows .*, more rows exist \(a remote answer holds at most 1000\)\n$/);
      const typo = await runCli(["query", "cities", "SELECT * FROM record", ...remote]);
      assertEquals(
        typo.stderr,
        `error: table record does not exist: the version's records are the table records (HTTP 400)\n`,
      );
    } finally {
      node.child.kill("SIGTERM");
      await node.status;
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc query away from the store names the store it read and how to point elsewhere, and creates nothing", async () => {
  const dir = await tempDir();
  try {
    const ran = await runCli(["query", "cities", "SELECT 1"], {}, { cwd: dir.path });
    assertEquals(ran.code, 1);
    assertEquals(
      ran.stderr,
      `error: there is no store at svc-data (${dir.path}/svc-data): give --store DIR for another, ` +
        "or --remote to ask a node or the origin\n",
    );
    assertEquals([...Deno.readDirSync(dir.path)], [], "no ./svc-data was made");
    await Deno.mkdir(`${dir.path}/store`);
    const missing = await runCli(["query", "cities", "SELECT 1", "--store", `${dir.path}/store`], {});
    assertEquals(missing.code, 1);
    assertMatch(missing.stderr, /^error: project cities is not in the store at \/.*\/store: give --store DIR/);
  } finally {
    await dir.cleanup();
  }
});
