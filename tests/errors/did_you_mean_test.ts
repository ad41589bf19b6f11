import { closestName, didYouMean } from "../../src/errors/mod.ts";
import { assertEquals } from "../support/assert.ts";

Deno.test("closestName: a slip of the fingers (one edit in three letters, a swap), else the one name it begins", () => {
  const commands = ["serve", "share", "query", "projects", "pull", "push", "purchases", "data", "export"];
  const cases: [string, string | null][] = [
    ["serv", "serve"],
    ["sevre", "serve"],
    ["qeury", "query"],
    ["projets", "projects"],
    ["purch", "purchases"],
    ["pu", null], // pull, push and purchases all begin so: no guess
    ["xyzzy", null],
    ["dta", "data"],
    ["EXPORT", "export"],
  ];
  for (const [typed, meant] of cases) assertEquals(closestName(typed, commands), meant, typed);
  assertEquals(didYouMean("lmit", ["limit", "offset"], (n) => `--${n}`), ": did you mean --limit?");
  assertEquals(didYouMean("zzz", ["limit"]), "");
});
