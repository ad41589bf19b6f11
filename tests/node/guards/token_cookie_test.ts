import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { fromNodePage, fromOwnPage } from "../../../src/node/guards/cross_site.ts";
import {
  hasSessionCookie,
  loginCookie,
  logoutCookie,
  parseCookies,
  SESSION_LIFETIME_S,
  sessionCookieName,
  sessionValue,
} from "../../../src/node/guards/token_cookie.ts";

const URL_8686 = new URL("http://127.0.0.1:8686/projects");
const NOW = Date.parse("2026-11-22T03:00:00Z");
const withCookie = (cookie: string, url = URL_8686) => new Request(url, { headers: { cookie } });

Deno.test("parseCookies reads name=value pairs, the first of a name winning, and skips what is not a pair", () => {
  const c = parseCookies(' a=1; b = two=2 ;c="quoted"; junk; =x; a=shadowed; d=');
  assertEquals([...c.entries()], [["a", "1"], ["b", "two=2"], ["c", "quoted"], ["d", ""]]);
  assertEquals(parseCookies(null).size, 0);
  assertEquals(parseCookies("").size, 0);
});

Deno.test("the cookie is named by the port the node is reached at", () => {
  assertEquals(sessionCookieName(URL_8686), "svc_node_8686");
  assertEquals(sessionCookieName(new URL("http://data.example/")), "svc_node_80");
  assertEquals(sessionCookieName(new URL("https://data.example/")), "svc_node_443");
});

const ORIGIN = "http://127.0.0.1:8686";

Deno.test("hasSessionCookie takes only an unexpired value signed with this token for this node's origin", () => {
  const exp = NOW / 1000 + 60;
  const good = sessionValue("t0ken-0123456789", ORIGIN, exp);
  assertMatch(good, /^\d+\.[0-9a-f]{64}$/);
  assert(!good.includes("t0ken"), "the cookie never holds the token");
  assertEquals(hasSessionCookie(withCookie(`svc_node_8686=${good}`), URL_8686, "t0ken-0123456789", NOW), true);
  assertEquals(hasSessionCookie(withCookie(`x=1; svc_node_8686=${good}`), URL_8686, "t0ken-0123456789", NOW), true);
  const refused: [string, string][] = [
    [`svc_node_8686=${good}`, "another-token-0123"],
    [`svc_node_8687=${good}`, "t0ken-0123456789"],
    [`svc_node_8686=${sessionValue("t0ken-0123456789", ORIGIN, NOW / 1000)}`, "t0ken-0123456789"],
    [`svc_node_8686=${sessionValue("t0ken-0123456789", "http://127.0.0.1:8687", exp)}`, "t0ken-0123456789"],
    [`svc_node_8686=${sessionValue("t0ken-0123456789", "https://127.0.0.1:8686", exp)}`, "t0ken-0123456789"],
    [`svc_node_8686=${sessionValue("t0ken-0123456789", "http://localhost:8686", exp)}`, "t0ken-0123456789"],
    [`svc_node_8686=${exp + 1}.${good.split(".")[1]}`, "t0ken-0123456789"],
    [`svc_node_8686=${good.toUpperCase()}`, "t0ken-0123456789"],
    [`svc_node_8686=t0ken-0123456789`, "t0ken-0123456789"],
    [`svc_node_8686=`, "t0ken-0123456789"],
    [``, "t0ken-0123456789"],
  ];
  for (const [cookie, token] of refused) {
    assertEquals(hasSessionCookie(withCookie(cookie), URL_8686, token, NOW), false, `${cookie} / ${token}`);
  }
  assertEquals(
    hasSessionCookie(withCookie(`svc_node_8686=${good}`), URL_8686, "t0ken-0123456789", NOW + 61_000),
    false,
  );
});

Deno.test("loginCookie and logoutCookie: HttpOnly, SameSite=Strict, Path=/, Secure whenever the public origin is https", () => {
  const plain = new Request(URL_8686);
  const set = loginCookie(plain, "t0ken-0123456789", NOW);
  const exp = NOW / 1000 + SESSION_LIFETIME_S;
  assertEquals(
    set,
    `svc_node_8686=${sessionValue("t0ken-0123456789", ORIGIN, exp)}; Max-Age=43200; Path=/; HttpOnly; SameSite=Strict`,
  );
  const proxies: Record<string, string>[] = [
    { "x-forwarded-proto": "https" },
    { forwarded: `for="[::1]";proto=https;host=d.example` },
  ];
  for (const headers of proxies) {
    const proxied = new Request(URL_8686, { headers });
    const secure = loginCookie(proxied, "t", NOW);
    assert(secure.endsWith("; HttpOnly; SameSite=Strict; Secure"), JSON.stringify(headers));
    assert(secure.includes(sessionValue("t", "https://127.0.0.1:8686", NOW / 1000 + SESSION_LIFETIME_S)));
    assertEquals(logoutCookie(proxied), "svc_node_8686=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure");
  }
  assertEquals(logoutCookie(plain), "svc_node_8686=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict");
});

Deno.test("fromNodePage: the cookie counts only where a browser shows the request came from the node's page", () => {
  const req = (headers: Record<string, string>, url = URL_8686, method = "GET") =>
    new Request(url, { headers, method });
  assertEquals(fromNodePage(req({ "sec-fetch-site": "same-origin" })), true);
  assertEquals(fromNodePage(req({ origin: "http://127.0.0.1:8686" }, URL_8686, "POST")), true);
  assertEquals(fromNodePage(req({})), false, "no Origin, no Sec-Fetch-Site: a copied cookie in any client");
  assertEquals(fromNodePage(req({ "sec-fetch-site": "none" })), false, "an API path opened by hand");
  assertEquals(fromNodePage(req({ "sec-fetch-site": "none" }, new URL("http://127.0.0.1:8686/"))), true);
  assertEquals(fromNodePage(req({}, new URL("http://127.0.0.1:8686/"))), false);
  assertEquals(fromNodePage(req({ "sec-fetch-site": "cross-site" })), false);
  assertEquals(fromNodePage(req({ origin: "http://127.0.0.1:5173", "sec-fetch-site": "same-origin" })), false);
});

Deno.test("fromOwnPage: the node's own origin exactly (https behind a proxy), or no page at all", () => {
  const req = (headers: Record<string, string>, url = URL_8686) => new Request(url, { headers });
  assertEquals(fromOwnPage(req({})), true, "no Origin, no Sec-Fetch-Site: not a browser page");
  assertEquals(fromOwnPage(req({ origin: "http://127.0.0.1:8686" })), true);
  assertEquals(fromOwnPage(req({ origin: "HTTP://127.0.0.1:8686", "sec-fetch-site": "same-origin" })), true);
  assertEquals(fromOwnPage(req({ "sec-fetch-site": "none" })), true, "a typed address or bookmark");
  assertEquals(
    fromOwnPage(req({ origin: "https://data.example", "x-forwarded-proto": "https" }, new URL("http://data.example/"))),
    true,
  );
  for (
    const origin of [
      "http://127.0.0.1:5173",
      "http://localhost:8686",
      "https://evil.example",
      "null",
      "http://127.0.0.1",
    ]
  ) {
    assertEquals(fromOwnPage(req({ origin })), false, origin);
  }
  for (const site of ["same-site", "cross-site", "garbage"]) {
    assertEquals(fromOwnPage(req({ "sec-fetch-site": site })), false, site);
  }
  assertEquals(fromOwnPage(req({ origin: "http://127.0.0.1:8686", "sec-fetch-site": "cross-site" })), false);
});
