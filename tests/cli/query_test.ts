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
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc query --remote asks a running node; it needs a key, as the origin would", async () => {
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
      const keyless = await runCli(["query", "cities", "SELECT 1", "--remote", "--base-url", node.url]);
      assertEquals(keyless.code, 1);
      assertMatch(keyless.stderr, /^error: query needs an agent key/);
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
      assertMatch(refused.stderr, /^error: http:\/\/127\.0\.0\.1:\d+: queries are read-only/);
    } finally {
      node.child.kill("SIGTERM");
      await node.status;
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
