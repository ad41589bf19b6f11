import { assertEquals, assertThrows } from "../support/assert.ts";
import { nodeReach, parseServeArgs } from "../../src/settings/mod.ts";

Deno.test("--no-sandbox and SVC_SANDBOX=off turn the sandbox off; other values of SVC_SANDBOX are refused", () => {
  assertEquals(parseServeArgs([], {}).sandbox, true);
  assertEquals(parseServeArgs(["--no-sandbox"], {}).sandbox, false);
  assertEquals(parseServeArgs([], { SVC_SANDBOX: "off" }).sandbox, false);
  assertEquals(parseServeArgs([], { SVC_SANDBOX: "on" }).sandbox, true);
  assertThrows(() => parseServeArgs([], { SVC_SANDBOX: "maybe" }), /SVC_SANDBOX must be on or off/);
});

Deno.test("nodeReach: the upstream and the origin only when following; the trust folder only when verifying", () => {
  const plain = nodeReach(parseServeArgs(["--store", "/s", "--read-only"], {}), "/t/trust.json");
  assertEquals(plain, {
    store: "/s",
    trustFile: "/t/trust.json",
    trustWrite: false,
    bind: { host: "127.0.0.1", port: 8686 },
    calls: [],
    readOnly: true,
  });
  const following = parseServeArgs(
    ["--follow", "cities", "--upstream", "http://10.0.0.2:8686", "--verify", "--base-url", "https://o.example"],
    {},
  );
  const reach = nodeReach(following, "/t/trust.json");
  assertEquals([reach.calls, reach.trustWrite], [["http://10.0.0.2:8686", "https://o.example"], true]);
});
