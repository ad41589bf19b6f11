import { assertEquals, assertThrows } from "../support/assert.ts";
import { CliError, UsageError } from "../../src/cli/errors.ts";
import { checkServeSettings, parseServeArgs } from "../../src/cli/serve_args.ts";

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
    [["--bogus"], /Unknown option/],
    [["stray"], /takes no argument/],
    [["--allow-host", "a b"], /not a host name/],
  ];
  for (const [args, pattern] of bad) {
    const e = assertThrows(() => parseServeArgs(args, {}), pattern);
    assertEquals(e instanceof UsageError, true, args.join(" "));
  }
});

Deno.test("a non-loopback host needs a token; following is not yet available", () => {
  const open = parseServeArgs(["--host", "0.0.0.0"], {});
  const e = assertThrows(() => checkServeSettings(open), /refusing to listen on 0\.0\.0\.0 without a token/);
  assertEquals(e instanceof CliError, true);
  checkServeSettings(parseServeArgs(["--host", "0.0.0.0"], { SVC_NODE_TOKEN: "t" }));
  checkServeSettings(parseServeArgs(["--host", "localhost"], {}));
  const follow = parseServeArgs(["--follow", "cities", "--interval", "60", "--verify"], {});
  assertThrows(() => checkServeSettings(follow), /not yet available/);
});
