import { assert, assertEquals } from "../support/assert.ts";
import { commandPermissions, netTarget, nodePermissions } from "../../src/container/mod.ts";

const layout = { app: "/app", deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", data: "/data" };
const reach = {
  store: "/data/svc-data",
  trustFile: "/data/trust.json",
  trustWrite: false,
  bind: { host: "0.0.0.0", port: 8686 },
  calls: [] as string[],
  readOnly: false,
};

function flag(flags: string[], name: string): string[] | null {
  const f = flags.find((x) => x === `--allow-${name}` || x.startsWith(`--allow-${name}=`));
  if (f === undefined) return null;
  return f.includes("=") ? f.slice(f.indexOf("=") + 1).split(",") : [];
}

Deno.test("node permissions: the store, the trust file, its own address; never -A", () => {
  const flags = nodePermissions(layout, reach);
  assert(!flags.includes("-A") && !flags.includes("--allow-all"));
  assertEquals(flag(flags, "read"), ["/data/svc-data", "/data/trust.json", "/tmp", "/dev/null", "/app/deno.json"]);
  assertEquals(flag(flags, "write"), ["/data/svc-data", "/tmp"]);
  assertEquals(flag(flags, "net"), ["0.0.0.0:8686"]);
  assertEquals(flag(flags, "env"), ["SVC_*", "NODE_V8_COVERAGE", "MALLOC_*", "DENO_DIR"]);
  assertEquals(flag(flags, "ffi"), ["/app/duckdb.node"]);
  assertEquals(flag(flags, "run"), ["/usr/local/bin/deno", "/bin/sh"]);
  for (const f of flags) assert(!/^--allow-[a-z]+$/.test(f), `${f} grants everything of its kind`);
});

Deno.test("node permissions: following adds the origin and the upstream hosts, and the trust folder when verifying", () => {
  const flags = nodePermissions(layout, {
    ...reach,
    trustWrite: true,
    calls: ["http://upstream.internal:8686/", "https://origin.example"],
  });
  assertEquals(flag(flags, "net"), ["0.0.0.0:8686", "upstream.internal:8686", "origin.example"]);
  assertEquals(flag(flags, "read")?.slice(0, 2), ["/data/svc-data", "/data"]);
  assertEquals(flag(flags, "write"), ["/data/svc-data", "/data", "/tmp"]);
});

Deno.test("node permissions: a read-only node writes only its private /tmp", () => {
  assertEquals(flag(nodePermissions(layout, { ...reach, readOnly: true }), "write"), ["/tmp"]);
});

Deno.test("command permissions: the volume and any host", () => {
  const flags = commandPermissions(layout);
  assertEquals(flag(flags, "read"), ["/data", "/tmp", "/dev/null", "/app/deno.json"]);
  assertEquals(flag(flags, "write"), ["/data", "/tmp"]);
  assertEquals(flag(flags, "net"), []);
});

Deno.test("netTarget keeps a named port and drops the path", () => {
  assertEquals(netTarget("https://origin.example/api/"), "origin.example");
  assertEquals(netTarget("http://10.0.0.2:9000"), "10.0.0.2:9000");
  assertEquals(netTarget("http://[::1]:9000/"), "[::1]:9000");
});
