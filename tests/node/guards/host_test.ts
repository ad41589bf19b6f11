import { assertEquals } from "../../support/assert.ts";
import { hostAllowed } from "../../../src/node/guards/host.ts";
import { isLoopback, urlHostName } from "../../../src/http/mod.ts";

const at = (authority: string) => new URL(`http://${authority}/projects`);

Deno.test("urlHostName reads names, IPv4 and bracketed IPv6 from a request URL", () => {
  assertEquals(urlHostName(at("Example.ORG:8686")), "example.org");
  assertEquals(urlHostName(at("[::1]:8686")), "::1");
  assertEquals(urlHostName(at("localhost.:8686")), "localhost");
});

Deno.test("isLoopback knows the loopback names and ranges", () => {
  for (const h of ["localhost", "LOCALHOST", "app.localhost", "127.0.0.1", "127.9.9.9", "::1", "[::1]"]) {
    assertEquals(isLoopback(h), true, h);
  }
  for (const h of ["0.0.0.0", "10.0.0.1", "::", "localhost.example", "128.0.0.1"]) {
    assertEquals(isLoopback(h), false, h);
  }
});

Deno.test("isLoopback answers the same when asked again, past the hundreds of names it keeps", () => {
  const names = Array.from({ length: 600 }, (_, i) => i % 2 === 0 ? `127.0.${i >> 8}.${i & 255}` : `host-${i}.example`);
  for (let round = 0; round < 2; round++) {
    for (const [i, name] of names.entries()) assertEquals(isLoopback(name), i % 2 === 0, `${name}, round ${round}`);
  }
  assertEquals([isLoopback("[::1]"), isLoopback("[::2]"), isLoopback("[::1]")], [true, false, true]);
});

Deno.test("hostAllowed: a loopback node answers loopback names on its own port only", () => {
  const node = { host: "127.0.0.1", port: 8686, allowedHosts: [] };
  for (const a of ["127.0.0.1:8686", "localhost:8686", "LOCALHOST:8686", "[::1]:8686", "app.localhost:8686"]) {
    assertEquals(hostAllowed(at(a), node), true, a);
  }
  for (const a of ["127.0.0.1:9999", "127.0.0.1", "localhost", "192.168.1.5:8686", "rebind.example:8686"]) {
    assertEquals(hostAllowed(at(a), node), false, a);
  }
  assertEquals(hostAllowed(at("127.0.0.1"), { ...node, port: 80 }), true, "no port means 80");
  assertEquals(hostAllowed(at("mine.example"), { ...node, allowedHosts: ["Mine.example"] }), true);
});

Deno.test("hostAllowed: a node bound beyond loopback answers IP literals and its bind name on its port", () => {
  const node = { host: "0.0.0.0", port: 8686, allowedHosts: ["data.example.org"] };
  assertEquals(hostAllowed(at("10.0.0.7:8686"), node), true);
  assertEquals(hostAllowed(at("[2001:db8::1]:8686"), { ...node, host: "::" }), true);
  assertEquals(hostAllowed(at("node.internal:8686"), { ...node, host: "node.internal" }), true);
  assertEquals(hostAllowed(at("10.0.0.7:80"), node), false);
  assertEquals(hostAllowed(at("rebind.example:8686"), node), false);
  assertEquals(hostAllowed(at("DATA.example.org:443"), node), true, "allowed names take any port");
});
