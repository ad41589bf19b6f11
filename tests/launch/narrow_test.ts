/**
 * The fast path of `svc serve`'s narrowing (`src/launch/`) against the full
 * one (`src/cli/sandbox.ts`): for every command line here the same Deno
 * flags and the same environment, or the fast path steps aside (null) and
 * the full one decides.
 *
 * @module
 */
import { assert, assertEquals } from "../support/assert.ts";
import { narrowedNode, serveReach } from "../../src/launch/mod.ts";
import { heapV8Flags } from "../support/node_v8_flags.ts";
import { narrowedFlags } from "../../src/cli/sandbox.ts";
import { takeGlobalFlags } from "../../src/cli/global_flags.ts";
import { parseServeArgs } from "../../src/settings/mod.ts";

const ENV = Deno.env.toObject();
delete ENV.SVC_SANDBOX_CHILD;

const SAME: [string[], Record<string, string>][] = [
  [["serve"], {}],
  [["serve", "--store", "/tmp/svc-x", "--port", "9001"], {}],
  [["serve", "--store=rel/store", "--host", "0.0.0.0", "--read-only", "--quiet", "--token", "a".repeat(20)], {}],
  [["serve", "--follow", "cities", "towns", "--base-url", "https://origin.example", "--verify"], {}],
  [["--base-url", "https://o.example:8443", "serve", "--follow", "cities", "--upstream", "http://10.0.0.2:8686"], {}],
  [["serve", "--follow=cities", "--follow", "towns", "--base-url=http://o.example"], { SVC_VERIFY: "1" }],
  [["serve"], { SVC_FOLLOW: "a-b cities", SVC_BASE_URL: "https://o.example", SVC_UPSTREAM: "http://m.example:81" }],
  [["serve", "--max-connections", "50", "--sql-memory", "2GiB", "--keep-versions", "3", "--no-metrics"], {}],
  [["serve", "--store", "../up/../store", "--port", "0"], { SVC_TRUST_FILE: "rel/trust.json" }],
  [["serve", "--share-name", "team", "--page-cache", "64MiB", "--export-cache", "1GB"], { SVC_SANDBOX: "on" }],
  [["serve", "--memory", "512MiB"], {}],
  [["serve", "--memory=1GiB"], { SVC_NODE_MEMORY: "8GiB" }],
  [["serve"], { SVC_NODE_MEMORY: "2GiB" }],
  [["serve"], { SVC_CGROUP_MEMORY_LIMIT: String(512 * 1024 ** 2) }],
  [["serve"], { SVC_CGROUP_MEMORY_LIMIT: "0" }],
  [["serve"], { SVC_CGROUP_MEMORY_LIMIT: "lots" }],
  [["serve"], { SVC_CGROUP_MEMORY_LIMIT: "none" }],
];

const ASIDE: [string[], Record<string, string>][] = [
  [["serve", "--help"], {}],
  [["serve", "-h"], {}],
  [["serve", "--bogus"], {}],
  [["serve", "stray"], {}],
  [["pull", "cities"], {}],
  [["serve", "--no-sandbox"], {}],
  [["serve"], { SVC_SANDBOX: "off" }],
  [["serve"], { SVC_SANDBOX: "maybe" }],
  [["serve", "--port", "99999"], {}],
  [["serve", "--follow", "cities"], {}],
  [["serve", "--read-only=yes"], {}],
  [["serve", "--store"], {}],
];

function full(args: string[], extra: Record<string, string>) {
  const env: Record<string, string | undefined> = { ...ENV, ...extra };
  const rest = takeGlobalFlags(args, env);
  const settings = parseServeArgs(rest.slice(1), env);
  return narrowedFlags(settings, env);
}

Deno.test("the fast path gives the full path's flags and environment for every command line it takes", () => {
  for (const [args, extra] of SAME) {
    const fast = narrowedNode(args, { ...ENV, ...extra });
    assert(fast !== null, `the fast path takes ${args.join(" ")}`);
    const slow = full(args, extra);
    assert(typeof slow !== "string", String(slow));
    assertEquals(fast.flags, slow.flags, args.join(" "));
    assertEquals(fast.env, slow.env, args.join(" "));
  }
});

Deno.test("a small budget gives the narrowed node a young generation of a 32nd of it and an old generation floored at four times that, a large one V8's own; no memory reducer; sooner tier-up", () => {
  const v8 = (args: string[], extra: Record<string, string> = {}) =>
    heapV8Flags(narrowedNode(args, { ...ENV, ...extra })!.flags);
  const reducerOff = "--v8-flags=--no-memory-reducer";
  assertEquals(v8(["serve", "--memory", "512MiB"]), [
    "--v8-flags=--max-semi-space-size=16",
    "--v8-flags=--initial-old-space-size=64",
    reducerOff,
  ]);
  assertEquals(v8(["serve"], { SVC_NODE_MEMORY: "256MiB" }), [
    "--v8-flags=--max-semi-space-size=8",
    "--v8-flags=--initial-old-space-size=32",
    reducerOff,
  ]);
  assertEquals(v8(["serve"], { SVC_CGROUP_MEMORY_LIMIT: String(512 * 1024 ** 2) }), [
    "--v8-flags=--max-semi-space-size=12",
    "--v8-flags=--initial-old-space-size=48",
    reducerOff,
  ]);
  assertEquals(v8(["serve", "--memory", "8GiB"]), [reducerOff]);
  assertEquals(v8(["serve", "--memory", "lots"]), [], "a bad size is the node's to refuse");
});

Deno.test("the fast path steps aside for help, another command, the sandbox off, and what it does not read", () => {
  for (const [args, extra] of ASIDE) {
    assertEquals(narrowedNode(args, { ...ENV, ...extra }), null, args.join(" "));
  }
  assertEquals(narrowedNode(["serve"], { ...ENV, SVC_SANDBOX_CHILD: "1" }), null, "the narrowed node itself");
});

Deno.test("serveReach reads what the full parser reads", () => {
  const reach = serveReach(["--api-key", "k", "serve", "--follow", "a-b", "--base-url", "https://o.example"], {});
  assertEquals(reach, {
    store: "svc-data",
    host: "127.0.0.1",
    port: 8686,
    follow: ["a-b"],
    verify: false,
    upstream: null,
    baseUrl: "https://o.example",
    readOnly: false,
    sandbox: true,
    quiet: false,
    memory: null,
  });
  assertEquals(serveReach(["serve", "--port", "0", "--port", "7"], {})?.port, 7, "the last of a repeated option");
});
