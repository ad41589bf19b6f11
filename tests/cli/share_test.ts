/**
 * svc share: recipients made, listed, renewed into a profile file and
 * removed against a running svc serve, which sees each change at once.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { freePort, runCli, startServe } from "../support/cli_process.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { DeltaSharingClient, type Profile } from "../support/delta_sharing_client.ts";

Deno.test("svc share add/list/profile/remove, and the profile reads the running node's tables", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const store = ["--store", dir.path];
    const serve = await startServe([...store, "--token", "node-token-long-enough-0123456789", "--share-name", "team"]);
    try {
      const added = await runCli(["share", "add", "analysts", ...store, "--expires", "30d", "--json"]);
      assertEquals(added.code, 0, added.stderr);
      const made = JSON.parse(added.stdout);
      assertMatch(made.token, /^svcshare_/);
      assertEquals(made.name, "analysts");
      const again = await runCli(["share", "add", "Analysts", ...store]);
      assertEquals(again.code, 1);
      assertMatch(again.stderr, /^error: recipient Analysts exists/);
      const listed = await runCli(["share", "list", ...store]);
      assertMatch(listed.stdout, /^analysts {2}created .* expires 20/);
      assert(!listed.stdout.includes(made.token));

      const file = `${dir.path}/analysts.share`;
      const renewed = await runCli(["share", "profile", "analysts", "-o", file, ...store, "--endpoint", serve.url]);
      assertEquals(renewed.code, 0, renewed.stderr);
      assertMatch(renewed.stdout, /previous one no longer works/);
      assertEquals(renewed.stderr, "", "a node with a token: nothing to warn of");
      const profile: Profile = JSON.parse(await Deno.readTextFile(file));
      assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600);
      assertEquals(profile.shareCredentialsVersion, 1);
      assertEquals(profile.endpoint, `${serve.url}/delta-sharing`);
      assert(typeof profile.expirationTime === "string");
      const client = new DeltaSharingClient(profile);
      assertEquals((await client.listShares()).map((s) => s.name), ["team"]);
      assertEquals((await client.listAllTables("team")).map((t) => t.name), ["bare", "cities"]);
      const old = new DeltaSharingClient({ ...profile, bearerToken: made.token });
      const oldRes = await old.raw("GET", "/shares");
      assertEquals(oldRes.status, 401);
      await oldRes.body?.cancel();

      const removed = await runCli(["share", "remove", "analysts", ...store]);
      assertEquals(removed.code, 0, removed.stderr);
      const gone = await client.raw("GET", "/shares");
      assertEquals(gone.status, 401);
      await gone.body?.cancel();
      const missing = await runCli(["share", "remove", "analysts", ...store]);
      assertEquals(missing.code, 1);
      for (
        const bad of [["share", "add", "x", ...store, "--expires", "soon"], ["share", "profile", "x", ...store], [
          "share",
          "nope",
          ...store,
        ]]
      ) {
        const run = await runCli(bad);
        assertEquals(run.code, 2, bad.join(" "));
      }
      const noStore = await runCli(["share", "list", "--store", `${dir.path}/none`]);
      assertEquals(noStore.code, 1);
      assertMatch(noStore.stderr, /there is no store/);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.status;
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc share add warns when the node serving the store has no token: anyone reads the share there", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const store = ["--store", dir.path];
    const serve = await startServe(store);
    try {
      const added = await runCli(["share", "add", "analysts", ...store, "--endpoint", serve.url]);
      assertEquals(added.code, 0, added.stderr);
      assertMatch(added.stdout, /^svcshare_/);
      assertMatch(
        added.stderr,
        new RegExp(`\\nwarning: the node at ${serve.url} has no token: anyone who reaches it reads this share`),
      );
      // An endpoint copied from a profile names the same node: nothing doubled, the same warning.
      const file = `${dir.path}/copied.share`;
      const copied = await runCli([
        "share",
        "add",
        "copied",
        ...store,
        "-o",
        file,
        "--endpoint",
        `${serve.url}/delta-sharing/`,
      ]);
      assertEquals(copied.code, 0, copied.stderr);
      assertEquals(JSON.parse(await Deno.readTextFile(file)).endpoint, `${serve.url}/delta-sharing`);
      assertMatch(copied.stderr, new RegExp(`warning: the node at ${serve.url} has no token`));
      for (const endpoint of ["ftp://example.org", "example.org:8686", `${serve.url}/?x=1`]) {
        const refused = await runCli(["share", "add", "refused", ...store, "--endpoint", endpoint]);
        assertEquals(refused.code, 2, endpoint);
        assertMatch(refused.stderr, /^error: --endpoint takes/, endpoint);
      }
      const names = JSON.parse((await runCli(["share", "list", ...store, "--json"])).stdout).map((
        r: { name: string },
      ) => r.name);
      assertEquals(names.sort(), ["analysts", "copied"], "a refused endpoint adds no recipient");
      const other = await tempDir();
      try {
        const elsewhere = await runCli(["share", "add", "team", "--store", other.path, "--endpoint", serve.url]);
        assertEquals(elsewhere.code, 0, elsewhere.stderr);
        assert(!elsewhere.stderr.includes("warning"), "that node serves another store");
      } finally {
        await other.cleanup();
      }
    } finally {
      serve.child.kill("SIGTERM");
      await serve.status;
    }
    const unreachable = await runCli([
      "share",
      "add",
      "later",
      ...store,
      "--endpoint",
      `http://127.0.0.1:${freePort()}`,
    ]);
    assertEquals(unreachable.code, 0, unreachable.stderr);
    assertMatch(unreachable.stderr, /\nnote: no node answers at http:\/\/127\.0\.0\.1:\d+ now; a node that serves /);
  } finally {
    await dir.cleanup();
  }
});
