import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { type ContainerPlan, planContainer } from "../../src/container/mod.ts";
import { heapV8Flags } from "../support/node_v8_flags.ts";

const layout = { app: "/app", deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", data: "/data" };
const TOKEN = "0123456789abcdef0123";
const noFiles = (path: string): string => {
  throw new Error(`no such file ${path}`);
};

function serve(plan: ContainerPlan) {
  if (plan.kind !== "serve") throw new Error(`expected serve, got ${JSON.stringify(plan)}`);
  return plan;
}

/** The svc arguments of a planned `deno run ... /app/cli.ts ARGS`. */
function svcArgs(argv: string[]): string[] {
  return argv.slice(argv.indexOf("/app/cli.ts") + 1);
}

Deno.test("plan: nothing given serves /data/svc-data on every address at SVC_NODE_PORT", () => {
  const plan = serve(planContainer([], { SVC_NODE_TOKEN: TOKEN, SVC_NODE_PORT: "9000" }, layout, noFiles));
  assertEquals(svcArgs(plan.node.argv), ["serve", "--store", "/data/svc-data", "--host", "0.0.0.0", "--port", "9000"]);
  assertEquals(plan.node.argv.slice(0, 2), ["/usr/local/bin/deno", "run"]);
  assert(plan.node.argv.includes("--cached-only"));
  assert(!plan.node.argv.includes("-A"));
  assertEquals(plan.node.cwd, "/data");
  assertEquals(plan.node.env.SVC_TRUST_FILE, "/data/trust.json");
  assertEquals(plan.pin, null);
});

Deno.test("plan: the node, which reads only SVC_* variables, is told its home folder (its SQL errors show it as ~)", () => {
  const at = (HOME?: string) =>
    serve(planContainer([], { SVC_NODE_TOKEN: TOKEN, ...(HOME ? { HOME } : {}) }, layout, noFiles)).node.env;
  assertEquals(at("/home/svc").SVC_HOME_FOLDER, "/home/svc");
  assertEquals(at("/").SVC_HOME_FOLDER, undefined, "a home of / masks nothing");
  assertEquals(at().SVC_HOME_FOLDER, undefined);
});

Deno.test("plan: options first are serve's; `serve` itself may be named", () => {
  const a = serve(planContainer(["--read-only", "--quiet"], { SVC_NODE_TOKEN: TOKEN }, layout, noFiles));
  assertEquals(svcArgs(a.node.argv).slice(-2), ["--read-only", "--quiet"]);
  assert(a.node.argv.includes("--allow-write=/tmp"), "a read-only node writes no store");
  const b = serve(planContainer(["serve", "--quiet"], { SVC_NODE_TOKEN: TOKEN }, layout, noFiles));
  assertEquals(svcArgs(b.node.argv).slice(-1), ["--quiet"]);
  assertEquals(svcArgs(b.node.argv)[0], "serve");
});

Deno.test("plan: a command runs svc in /data under the command permissions", () => {
  const plan = planContainer(["pull", "cities", "--base-url", "https://o.example"], {}, layout, noFiles);
  assert(plan.kind === "command");
  assertEquals(svcArgs(plan.command.argv), ["pull", "cities", "--base-url", "https://o.example"]);
  assertEquals(plan.command.cwd, "/data");
  assert(plan.command.argv.includes("--allow-net"));
});

Deno.test("plan: --version needs nothing else", () => {
  assertEquals(planContainer(["--version"], {}, layout, noFiles), { kind: "version" });
});

Deno.test("plan: secrets come from *_FILE, trailing newline dropped, never both", () => {
  const files: Record<string, string> = { "/run/secrets/token": `${TOKEN}\n`, "/run/secrets/key": "agent-key\r\n" };
  const read = (p: string) => files[p] ?? noFiles(p);
  const plan = serve(planContainer(
    [],
    { SVC_NODE_TOKEN_FILE: "/run/secrets/token", SVC_API_KEY_FILE: "/run/secrets/key" },
    layout,
    read,
  ));
  assertEquals(plan.node.env.SVC_NODE_TOKEN, TOKEN);
  assertEquals(plan.node.env.SVC_API_KEY, "agent-key");
  assert(!("SVC_NODE_TOKEN_FILE" in plan.node.env));
  assert(!plan.node.argv.some((a) => a.includes(TOKEN)), "the token is never on the command line");
  const both = planContainer([], { SVC_NODE_TOKEN: TOKEN, SVC_NODE_TOKEN_FILE: "/run/secrets/token" }, layout, read);
  assert(both.kind === "refuse");
  assertMatch(both.message, /not both/);
  files["/run/secrets/empty"] = "\n";
  const empty = planContainer([], { SVC_NODE_TOKEN_FILE: "/run/secrets/empty" }, layout, read);
  assert(empty.kind === "refuse");
  assertMatch(empty.message, /is empty/);
});

Deno.test("plan: refuses to serve without a token, with a short one, or with bad options", () => {
  const none = planContainer([], {}, layout, noFiles);
  assert(none.kind === "refuse");
  assertEquals(none.code, 1);
  const short = planContainer([], { SVC_NODE_TOKEN: "short" }, layout, noFiles);
  assert(short.kind === "refuse");
  assertMatch(short.message, /at least 16/);
  const bad = planContainer(["--keep-versions", "0"], { SVC_NODE_TOKEN: TOKEN }, layout, noFiles);
  assert(bad.kind === "refuse");
  assertEquals(bad.code, 2);
  const help = serve(planContainer(["--help"], {}, layout, noFiles));
  assertEquals(help.help, true);
});

Deno.test("plan: following with SVC_VERIFY pins the origin's keys first; net reaches the origin and the upstream", () => {
  const env = {
    SVC_NODE_TOKEN: TOKEN,
    SVC_FOLLOW: "cities notes",
    SVC_VERIFY: "1",
    SVC_BASE_URL: "https://origin.example/",
    SVC_API_KEY: "k",
    SVC_UPSTREAM: "http://upstream.internal:8686",
    SVC_TRUST_FILE: "/data/keys/trust.json",
  };
  const plan = serve(planContainer([], env, layout, noFiles));
  assert(plan.pin !== null);
  assertEquals(plan.pin.origin, "https://origin.example");
  assertEquals(plan.pin.trustFile, "/data/keys/trust.json");
  assertEquals(svcArgs(plan.pin.argv), ["trust", "add", "https://origin.example"]);
  const net = plan.node.argv.find((a) => a.startsWith("--allow-net="));
  assertEquals(net, "--allow-net=0.0.0.0:8686,upstream.internal:8686,origin.example");
  assert(plan.node.argv.includes("--allow-write=/data/svc-data,/data/keys,/tmp"));
  const unsigned = serve(planContainer([], { ...env, SVC_VERIFY: "" }, layout, noFiles));
  assertEquals(unsigned.pin, null);
  assert(unsigned.node.argv.some((a) => a.startsWith("--allow-read=/data/svc-data,/data/keys/trust.json,")));
});

Deno.test("plan: the node's V8 young generation and old generation floor follow its budget (the container's limit, or --memory); no memory reducer; sooner tier-up", () => {
  const v8 = (argv: string[], env: Record<string, string>) =>
    heapV8Flags(serve(planContainer(argv, { SVC_NODE_TOKEN: TOKEN, ...env }, layout, noFiles)).node.argv);
  const reducerOff = "--v8-flags=--no-memory-reducer";
  assertEquals(v8([], { SVC_CGROUP_MEMORY_LIMIT: String(512 * 1024 ** 2) }), [
    "--v8-flags=--max-semi-space-size=12",
    "--v8-flags=--initial-old-space-size=48",
    reducerOff,
  ]);
  assertEquals(v8(["--memory", "256MiB"], { SVC_CGROUP_MEMORY_LIMIT: "none" }), [
    "--v8-flags=--max-semi-space-size=8",
    "--v8-flags=--initial-old-space-size=32",
    reducerOff,
  ]);
  assertEquals(v8([], { SVC_NODE_MEMORY: "16GiB" }), [reducerOff], "a large budget leaves V8 its own young generation");
});
