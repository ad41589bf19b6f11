import { assertEquals } from "../../support/assert.ts";
import { hostAllowed, hostName, isLoopback } from "../../../src/node/guards/host.ts";

Deno.test("hostName reads names, IPv4 and bracketed IPv6, with or without port", () => {
  assertEquals(hostName("Example.ORG:8686"), "example.org");
  assertEquals(hostName("[::1]:8686"), "::1");
  assertEquals(hostName("127.0.0.1"), "127.0.0.1");
  assertEquals(hostName("localhost."), "localhost");
  for (const bad of ["", "a b", "user@host", "host:port", "[::1", "host:123456", "a/b"]) {
    assertEquals(hostName(bad), null, bad);
  }
});

Deno.test("isLoopback knows the loopback names and ranges", () => {
  for (const h of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "api.localhost"]) {
    assertEquals(isLoopback(h), true, h);
  }
  for (const h of ["0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "localhost.example", "example.org"]) {
    assertEquals(isLoopback(h), false, h);
  }
});

Deno.test("hostAllowed: a loopback node answers only loopback names", () => {
  assertEquals(hostAllowed("127.0.0.1:8686", "127.0.0.1", []), true);
  assertEquals(hostAllowed("localhost", "127.0.0.1", []), true);
  assertEquals(hostAllowed("192.168.1.5:8686", "127.0.0.1", []), false);
  assertEquals(hostAllowed("rebind.example:8686", "127.0.0.1", []), false);
  assertEquals(hostAllowed("mine.example", "127.0.0.1", ["mine.example"]), true);
  assertEquals(hostAllowed(null, "127.0.0.1", []), false);
});

Deno.test("hostAllowed: a node bound beyond loopback answers IP literals, its bind name and allowed names", () => {
  assertEquals(hostAllowed("10.0.0.7:8686", "0.0.0.0", []), true);
  assertEquals(hostAllowed("[2001:db8::1]:8686", "::", []), true);
  assertEquals(hostAllowed("node.internal", "node.internal", []), true);
  assertEquals(hostAllowed("rebind.example", "0.0.0.0", []), false);
  assertEquals(hostAllowed("data.example.org:443", "0.0.0.0", ["Data.Example.org"]), true);
});
