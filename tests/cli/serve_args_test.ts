import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import { CliError, UsageError } from "../../src/errors/mod.ts";
import { checkServeSettings, parseServeArgs } from "../../src/settings/mod.ts";

Deno.test("serve defaults follow the spec", () => {
  const s = parseServeArgs([], {});
  assertEquals([s.store, s.host, s.port, s.token, s.readOnly, s.quiet, s.interval], [
    "svc-data",
    "127.0.0.1",
    8686,
    null,
    false,
    false,
    600,
  ]);
});

Deno.test("the token comes from --token or SVC_NODE_TOKEN, the flag winning", () => {
  assertEquals(parseServeArgs([], { SVC_NODE_TOKEN: "env" }).token, "env");
  assertEquals(parseServeArgs(["--token", "flag"], { SVC_NODE_TOKEN: "env" }).token, "flag");
  assertThrows(() => parseServeArgs(["--token", "has space"], {}), /printable ASCII/);
  assertThrows(() => parseServeArgs(["--token", ""], {}), /printable ASCII/);
});

Deno.test("--allow-host and SVC_ALLOWED_HOSTS take names and name:port, separated by spaces or commas", () => {
  const env = { SVC_ALLOWED_HOSTS: "127.0.0.1:18686, data.example [::1]:18687" };
  assertEquals(parseServeArgs(["--allow-host", "proxy.example:443"], env).allowHosts, [
    "proxy.example:443",
    "127.0.0.1:18686",
    "data.example",
    "[::1]:18687",
  ]);
});

Deno.test("--max-connections comes from the flag or SVC_NODE_MAX_CONNECTIONS, else 64", () => {
  assertEquals(parseServeArgs([], {}).maxConnections, 64);
  assertEquals(parseServeArgs([], { SVC_NODE_MAX_CONNECTIONS: "8" }).maxConnections, 8);
  assertEquals(parseServeArgs(["--max-connections", "300"], { SVC_NODE_MAX_CONNECTIONS: "8" }).maxConnections, 300);
  for (const bad of ["0", "many", "100001", "2.5"]) {
    assertThrows(() => parseServeArgs(["--max-connections", bad], {}), /--max-connections must be an integer from 1/);
  }
  assertThrows(() => parseServeArgs([], { SVC_NODE_MAX_CONNECTIONS: "0" }), /--max-connections/);
});

Deno.test("--sql-memory takes a size of 1 GiB or more, from the flag or SVC_NODE_SQL_MEMORY", () => {
  assertEquals(parseServeArgs(["--sql-memory", "2GiB"], {}).sqlMemory, 2 * 1024 ** 3);
  assertEquals(parseServeArgs([], { SVC_NODE_SQL_MEMORY: "1500MB" }).sqlMemory, 1.5e9);
  const fallback = parseServeArgs([], {}).sqlMemory;
  assert(fallback >= 1024 ** 3 && fallback <= 4 * 1024 ** 3);
  for (const bad of ["lots", "512MiB", "0"]) {
    assertThrows(() => parseServeArgs(["--sql-memory", bad], {}), /--sql-memory must be a size of at least 1GiB/);
  }
});

Deno.test("--follow takes one or more slugs, repeated or listed", () => {
  assertEquals(parseServeArgs(["--follow", "a-b", "cde", "--follow", "fgh"], {}).follow.sort(), ["a-b", "cde", "fgh"]);
  assertEquals(parseServeArgs(["--follow", "abc", "def"], {}).follow.sort(), ["abc", "def"]);
  assertThrows(() => parseServeArgs(["--follow", "../etc"], {}), /not a project slug/);
});

Deno.test("bad values are usage errors", () => {
  const bad: [string[], RegExp][] = [
    [["--port", "abc"], /--port must be an integer from 0 to 65535/],
    [["--port", "70000"], /--port/],
    [["--port", "-1"], /--port|argument/],
    [["--interval", "0", "--follow", "abc"], /--interval must be an integer from 1/],
    [["--host", "bad host"], /--host must be/],
    [["--upstream", "ftp://x", "--follow", "abc"], /--upstream must be an http\(s\) URL/],
    [["--upstream-token", "t"], /--upstream-token needs --upstream/],
    [["--verify"], /--verify needs --follow/],
    [["--interval", "60"], /--interval needs --follow/],
    [["--bogus"], /^unknown option --bogus \(svc serve --help lists the options\)$/],
    [["stray"], /takes no argument/],
    [["--allow-host", "a b"], /not a host name/],
    [["--allow-host", "data.example:99999"], /not a host name or host:port/],
    [["--allow-host", "data.example:0"], /not a host name or host:port/],
  ];
  for (const [args, pattern] of bad) {
    const e = assertThrows(() => parseServeArgs(args, {}), pattern);
    assertEquals(e instanceof UsageError, true, args.join(" "));
  }
});

Deno.test("a non-loopback host needs a token; following needs the origin and an agent key", () => {
  const open = parseServeArgs(["--host", "0.0.0.0"], {});
  const e = assertThrows(() => checkServeSettings(open), /refusing to listen on 0\.0\.0\.0 without a token/);
  assertEquals(e instanceof CliError, true);
  checkServeSettings(parseServeArgs(["--host", "0.0.0.0"], { SVC_NODE_TOKEN: "t".repeat(16) }));
  assertThrows(
    () => checkServeSettings(parseServeArgs(["--host", "0.0.0.0"], { SVC_NODE_TOKEN: "t".repeat(15) })),
    /token of 15 characters: beyond loopback the token must have at least 16/,
  );
  checkServeSettings(parseServeArgs(["--token", "short"], {}));
  checkServeSettings(parseServeArgs(["--host", "localhost"], {}));
  const follow = parseServeArgs(["--follow", "cities", "--interval", "60", "--verify"], {});
  assertThrows(() => checkServeSettings(follow), /following needs the origin/);
  const keyless = parseServeArgs(["--follow", "cities", "--base-url", "https://o.example"], {});
  assertThrows(() => checkServeSettings(keyless), /following needs an agent key/);
  const upstream = parseServeArgs(["--follow", "cities", "--upstream", "http://10.0.0.2:8686"], {
    SVC_BASE_URL: "https://o.example",
  });
  assertThrows(() => checkServeSettings(upstream), /following needs an agent key/);
  const ok = parseServeArgs(["--follow", "aaa", "bbb", "--upstream", "http://10.0.0.2:8686", "--upstream-token", "t"], {
    SVC_BASE_URL: "https://o.example",
    SVC_API_KEY: "k",
  });
  checkServeSettings(ok);
  assertEquals([ok.follow, ok.baseUrl, ok.apiKey, ok.upstream, ok.upstreamToken, ok.verify], [
    ["aaa", "bbb"],
    "https://o.example",
    "k",
    "http://10.0.0.2:8686",
    "t",
    false,
  ]);
});

Deno.test("following from the environment: SVC_FOLLOW, SVC_FOLLOW_INTERVAL, SVC_VERIFY; flags win", () => {
  const env = { SVC_FOLLOW: " cities  notes ", SVC_FOLLOW_INTERVAL: "30", SVC_VERIFY: "1" };
  const s = parseServeArgs([], env);
  assertEquals([s.follow, s.interval, s.verify], [["cities", "notes"], 30, true]);
  const flags = parseServeArgs(["--follow", "xyz", "--interval", "5"], env);
  assertEquals([flags.follow, flags.interval], [["xyz"], 5]);
  assertEquals(parseServeArgs([], { SVC_VERIFY: "1" }).verify, false, "verify means nothing without following");
  assertThrows(() => parseServeArgs([], { SVC_FOLLOW: "../etc" }), /not a project slug/);
});

Deno.test("--page-cache takes a size or 0, from the flag or SVC_NODE_PAGE_CACHE, else a sixteenth of memory in 64-256 MiB", () => {
  const fallback = parseServeArgs([], {}).memory.pageCache;
  assert(fallback >= 64 * 1024 ** 2 && fallback <= 256 * 1024 ** 2, String(fallback));
  assertEquals(parseServeArgs(["--page-cache", "512MiB"], {}).memory.pageCache, 512 * 1024 ** 2);
  assertEquals(parseServeArgs(["--page-cache", "0"], { SVC_NODE_PAGE_CACHE: "1GiB" }).memory.pageCache, 0);
  assertEquals(parseServeArgs([], { SVC_NODE_PAGE_CACHE: "1GiB" }).memory.pageCache, 1024 ** 3);
  for (const bad of ["lots", "-1", "1TiB"]) {
    assertThrows(() => parseServeArgs([`--page-cache=${bad}`], {}), /--page-cache must be a size/);
  }
});

Deno.test("--ready-max-lag takes an age (flag or SVC_READY_MAX_LAG) with --follow; --no-metrics and SVC_METRICS turn metrics off", () => {
  const follow = ["--follow", "cities"];
  assertEquals(parseServeArgs(follow, {}).readyMaxLagMs, null);
  assertEquals(parseServeArgs([...follow, "--ready-max-lag", "15m"], {}).readyMaxLagMs, 900_000);
  assertEquals(parseServeArgs([...follow, "--ready-max-lag", "90"], {}).readyMaxLagMs, 90_000);
  assertEquals(parseServeArgs(follow, { SVC_READY_MAX_LAG: "2h" }).readyMaxLagMs, 7_200_000);
  assertEquals(
    parseServeArgs([...follow, "--ready-max-lag", "1d"], { SVC_READY_MAX_LAG: "2h" }).readyMaxLagMs,
    86_400_000,
  );
  assertEquals(
    parseServeArgs([], { SVC_READY_MAX_LAG: "2h" }).readyMaxLagMs,
    null,
    "the variable is moot without following",
  );
  for (const bad of ["0s", "15 minutes", "-5m", "1.5h", "1w", ""]) {
    assert(
      assertThrows(() => parseServeArgs([...follow, `--ready-max-lag=${bad}`], {}), /must be an age/) instanceof
        UsageError,
    );
  }
  assertThrows(() => parseServeArgs(["--ready-max-lag", "15m"], {}), /--ready-max-lag needs --follow/);
  assertEquals(parseServeArgs([], {}).metrics, true);
  assertEquals(parseServeArgs(["--no-metrics"], {}).metrics, false);
  for (const off of ["off", "0", "false", "NO"]) assertEquals(parseServeArgs([], { SVC_METRICS: off }).metrics, false);
  for (const on of ["on", "1", "true", "yes", ""]) assertEquals(parseServeArgs([], { SVC_METRICS: on }).metrics, true);
  assertThrows(() => parseServeArgs([], { SVC_METRICS: "sometimes" }), /SVC_METRICS must be on or off/);
});
