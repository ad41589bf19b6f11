import { assertEquals } from "../../support/assert.ts";
import { hasToken, sameSecret } from "../../../src/node/guards/token.ts";
import { isCrossSite } from "../../../src/node/guards/cross_site.ts";

const req = (headers: Record<string, string>) => new Request("http://127.0.0.1:8686/projects", { headers });

Deno.test("sameSecret compares whole secrets, whatever their lengths", () => {
  assertEquals(sameSecret("abc", "abc"), true);
  for (const other of ["abd", "ab", "abcd", "", "ABC"]) assertEquals(sameSecret(other, "abc"), false, other);
});

Deno.test("hasToken accepts only a Bearer header carrying exactly the token", () => {
  assertEquals(hasToken(req({ authorization: "Bearer t0k" }), "t0k"), true);
  assertEquals(hasToken(req({ authorization: "bearer   t0k " }), "t0k"), true);
  for (const h of ["t0k", "Basic t0k", "Bearer", "Bearer t0k t0k", "Bearer t0kk", "Token t0k"]) {
    assertEquals(hasToken(req({ authorization: h }), "t0k"), false, h);
  }
  assertEquals(hasToken(req({}), "t0k"), false);
});

Deno.test("isCrossSite: Origin against the node's own origin (loopback pages trusted by a loopback node), else Sec-Fetch-Site", () => {
  assertEquals(isCrossSite(req({}), true), false);
  assertEquals(isCrossSite(req({ origin: "http://127.0.0.1:8686" }), false), false);
  assertEquals(
    isCrossSite(req({ origin: "http://127.0.0.1:8687" }), false),
    true,
    "another port of a non-loopback node",
  );
  for (const origin of ["http://localhost:5173", "http://127.0.0.1:3000", "https://app.localhost", "http://[::1]:1"]) {
    assertEquals(isCrossSite(req({ origin, "sec-fetch-site": "cross-site" }), true), false, origin);
  }
  for (const origin of ["null", "https://evil.example", "http://localhost.evil.example", "file://", "garbage"]) {
    assertEquals(isCrossSite(req({ origin }), true), true, origin);
  }
  assertEquals(isCrossSite(req({ "sec-fetch-site": "same-origin" }), true), false);
  assertEquals(isCrossSite(req({ "sec-fetch-site": "none" }), true), false);
  assertEquals(isCrossSite(req({ "sec-fetch-site": "same-site" }), true), true);
  assertEquals(isCrossSite(req({ "sec-fetch-site": "cross-site" }), true), true);
});
