import { parseArgs } from "node:util";
import { assertEquals, assertThrows } from "../support/assert.ts";
import { eitherFlag, intFlag, versionFrom } from "../../src/cli/args.ts";
import { usageFrom } from "../../src/settings/mod.ts";

function parseError(args: string[]): unknown {
  try {
    parseArgs({
      args,
      options: { limit: { type: "string" }, json: { type: "boolean" }, output: { type: "string", short: "o" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    return e;
  }
  throw new Error(`${args.join(" ")} parsed`);
}

Deno.test("parseArgs errors in the command line's words, with no quote left open", () => {
  const cases: [string[], string][] = [
    [["--x"], "unknown option --x (svc data --help lists the options)"],
    [["-x"], "unknown option -x (svc data --help lists the options)"],
    [["--limit"], "--limit needs a value"],
    [["-o"], "--output needs a value"],
    [["--json=yes"], "--json takes no value"],
    [["--limit", "-5"], "--limit needs a value (one starting with - is written --limit=-VALUE)"],
  ];
  for (const [args, message] of cases) assertEquals(usageFrom(parseError(args), "data").message, message);
});

Deno.test("whole-number flags name the flag, the floor and what was given", () => {
  assertEquals(intFlag("limit", "0", 0), 0);
  assertEquals(intFlag("limit", undefined, 0), undefined);
  for (const raw of ["-1", "1.5", "x", "", "1e3", "9".repeat(16)]) {
    assertThrows(() => intFlag("limit", raw, 0), /^--limit must be a whole number of at least 0, not "/);
  }
  assertThrows(() => intFlag("version", "0", 1), /at least 1, not "0"/);
});

Deno.test("two names of one option: either is taken, both are a usage error even when they agree", () => {
  assertEquals(eitherFlag(["out", "a"], ["store", undefined]), "a");
  assertEquals(eitherFlag(["out", undefined], ["store", "b"]), "b");
  assertEquals(eitherFlag(["out", undefined], ["store", undefined]), undefined);
  assertThrows(
    () => eitherFlag(["out", "a"], ["store", "a"]),
    /^--out and --store are the same option: give one of them$/,
  );
});

Deno.test("SLUG@N and --version N: either, both when they agree; different versions are a usage error", () => {
  assertEquals(versionFrom(null, undefined), null);
  assertEquals(versionFrom(2, undefined), 2);
  assertEquals(versionFrom(null, "3"), 3);
  assertEquals(versionFrom(3, "3"), 3);
  assertThrows(() => versionFrom(2, "3"), /^@2 and --version 3 ask for different versions: give one$/);
  assertThrows(() => versionFrom(null, "0"), /^--version must be a whole number of at least 1, not "0"$/);
});
