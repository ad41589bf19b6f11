/**
 * The operating system's wall around SQL workers, alone: a worker started
 * with DuckDB's own sandbox and the statement checks switched off (a
 * test-only switch) still cannot read `/etc/passwd` or write outside its
 * temp folder when Landlock is up, while it reads the store's parts and
 * spills to its temp folder; and the same worker without Landlock can,
 * which shows these tests can fail.
 *
 * @module
 */
import { cp, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { createSqlPool, type SqlPool, type SqlSource, sqlSource } from "../../src/sql/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { landlockAbi } from "../../src/runtime/mod.ts";
import { withNode } from "../support/node.ts";
import { sql } from "./_query.ts";

/** A one-worker pool over the cities store, its walls as asked, and the source of version 2. */
async function withPool(
  wallsDown: { landlock?: boolean; view?: boolean; duckdb?: boolean },
  fn: (pool: SqlPool, source: SqlSource) => Promise<void>,
): Promise<void> {
  const dir = await tempDir();
  const root = await realpath(dir.path);
  const pool = createSqlPool({
    storeRoot: root,
    size: 1,
    testOnlyWallsDown: wallsDown,
    idleMs: 0,
    // A sort that spills takes seconds, many more on a busy machine: the deadline is not what these tests are about.
    timeoutMs: 120_000,
  });
  try {
    await citiesStore(dir.path);
    const version = await openStore(dir.path).version("cities", 2);
    assert(version !== null);
    await fn(pool, await sqlSource(root, version));
  } finally {
    await pool.close();
    await dir.cleanup();
  }
}

/** The query's answer, or its error's message. */
async function attempt(pool: SqlPool, source: SqlSource, sql: string): Promise<{ rows?: unknown[][]; error?: string }> {
  try {
    return { rows: JSON.parse((await pool.query(source, sql, 1000)).rows) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

Deno.test("this machine has Landlock (Linux 5.13+, on): the tests below hold it to its word", () => {
  assert(landlockAbi() >= 1, `Landlock ABI ${landlockAbi()}: this kernel or its LSM list lacks Landlock`);
});

Deno.test("Landlock alone: with DuckDB's sandbox off, /etc/passwd cannot be read nor a file written outside the temp folder", async () => {
  await withPool({ duckdb: true }, async (pool, source) => {
    assertEquals(await pool.walls(), { landlock: true, view: true, duckdb: false }, "user namespaces work here");
    const passwd = await attempt(pool, source, "SELECT * FROM read_text('/etc/passwd')");
    assertMatch(passwd.error ?? "", /Permission denied/i, JSON.stringify(passwd));
    const written = await attempt(pool, source, "COPY (SELECT 1) TO '/tmp/elsewhere.csv'");
    assertMatch(written.error ?? "", /Permission denied/i, JSON.stringify(written));
    // The checkout is readable only where the worker's code needs it (not its README, nor a .env beside it).
    const readme = new URL("../../README.md", import.meta.url).pathname;
    const checkout = await attempt(pool, source, `SELECT * FROM read_text('${readme}')`);
    assertMatch(checkout.error ?? "", /Permission denied/i, JSON.stringify(checkout));
    const home = await attempt(pool, source, "SELECT count(*) FROM glob('/root/*')");
    assert(
      home.error !== undefined || JSON.stringify(home.rows) === "[[0]]",
      `the home folder is not listed: ${JSON.stringify(home)}`,
    );
    // The store's parts are read, and the worker is the one that refused (it still answers).
    const counted = await attempt(pool, source, "SELECT count(*) FROM records");
    assertEquals(counted.rows, [[600]], "the fixture's version 2");
    assertEquals((await pool.walls()).landlock, true, "the worker says it is confined");
  });
});

Deno.test("Landlock without the private view: the rules name the host's store; /etc/passwd stays out", async () => {
  await withPool({ duckdb: true, view: true }, async (pool, source) => {
    const passwd = await attempt(pool, source, "SELECT * FROM read_text('/etc/passwd')");
    assertMatch(passwd.error ?? "", /Permission denied/i, JSON.stringify(passwd));
    assertEquals((await attempt(pool, source, "SELECT count(*) FROM records")).rows, [[600]]);
    assertEquals(await pool.walls(), { landlock: true, view: false, duckdb: false });
    // Of the store, only the parts folders: not a manifest, the project's file, nor a listing of the store.
    const store = dirname(dirname(dirname(source.parts[0])));
    for (const file of ["cities/v2/manifest.json", "cities/project.json"]) {
      const read = await attempt(pool, source, `SELECT * FROM read_text('${join(store, file)}')`);
      assertMatch(read.error ?? "", /Permission denied/i, `${file}: ${JSON.stringify(read)}`);
    }
    const listed = await attempt(pool, source, `SELECT count(*) FROM glob('${store}/*/*.json')`);
    assert(listed.error !== undefined || JSON.stringify(listed.rows) === "[[0]]", JSON.stringify(listed));
  });
});

Deno.test("Landlock: a project made after the worker started is read by a fresh worker", async () => {
  await withPool({}, async (pool, source) => {
    assertEquals((await attempt(pool, source, "SELECT count(*) FROM records")).rows, [[600]]);
    const [first] = pool.pids();
    const store = dirname(dirname(dirname(source.parts[0])));
    await cp(join(store, "cities"), join(store, "towns"), { recursive: true });
    const towns = { key: `${source.key}/towns`, parts: source.parts.map((p) => p.replace("/cities/", "/towns/")) };
    assertEquals((await attempt(pool, towns, "SELECT count(*) FROM records")).rows, [[600]]);
    const [second] = pool.pids();
    assert(second !== first, "a fresh worker, whose rules name the new project's parts");
    assertEquals((await attempt(pool, source, "SELECT count(*) FROM records")).rows, [[600]], "and the old project's");
    assertEquals(pool.pids(), [second]);
  });
});

Deno.test("Landlock: a sort past DuckDB's memory limit spills to the worker's temp folder and answers", async () => {
  // DuckDB's sandbox is down only so that the memory limit can be lowered; Landlock is up.
  await withPool({ duckdb: true }, async (pool, source) => {
    assertEquals((await attempt(pool, source, "SET memory_limit = '96MB'")).error, undefined);
    const sort = "SELECT count(*), min(s), max(s) FROM (SELECT md5(i::VARCHAR) || repeat('x', 60) AS s " +
      "FROM range(2000000) t(i) ORDER BY s)";
    const spilled = await attempt(pool, source, sort);
    assert(spilled.rows !== undefined, `the sort answers: ${spilled.error}`);
    assertEquals((spilled.rows[0] as unknown[])[0], 2000000);
    // It spilled: DuckDB will not move a temp folder it has used.
    const used = await attempt(pool, source, "SET temp_directory = '/tmp/elsewhere'");
    assertMatch(used.error ?? "", /after the current one has been used/, JSON.stringify(used));
    // The same sort in a fresh sandbox whose spill folder is outside the worker's own fails.
    const fresh = { ...source, key: `${source.key}/elsewhere` };
    for (const set of ["SET memory_limit = '96MB'", "SET temp_directory = '/tmp/elsewhere'"]) {
      assertEquals((await attempt(pool, fresh, set)).error, undefined);
    }
    const outside = await attempt(pool, fresh, sort);
    assertMatch(outside.error ?? "", /Permission denied/i, JSON.stringify(outside));
    assertEquals((await pool.walls()).landlock, true);
  });
});

Deno.test("without Landlock (and DuckDB's sandbox off) the same worker reads /etc/passwd and writes outside: the test can fail", async () => {
  await withPool({ landlock: true, duckdb: true }, async (pool, source) => {
    const passwd = await attempt(pool, source, "SELECT length(content) > 0 FROM read_text('/etc/passwd')");
    assertEquals(passwd.rows, [[true]], JSON.stringify(passwd));
    const written = await attempt(pool, source, "COPY (SELECT 1) TO '/tmp/elsewhere.csv'");
    assertEquals(written.error, undefined);
    assertEquals((await pool.walls()).landlock, false);
  });
});

Deno.test("/healthz says the walls up: before any worker started what the node expects, after one what it had", async () => {
  await withNode({}, async ({ url }) => {
    const before = await (await fetch(`${url}/healthz`)).json();
    assertEquals(before.sandbox, ["landlock", "view", "duckdb"], "under -A the node's own permissions are broad");
    assertEquals((await sql(url, "SELECT 1 AS n")).body.rows, [[1]]);
    const after = await (await fetch(`${url}/healthz`)).json();
    assertEquals(after.sandbox, ["landlock", "view", "duckdb"]);
  });
});
