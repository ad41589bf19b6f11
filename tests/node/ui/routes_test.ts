import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { createNode, type SvcNode } from "../../../server.ts";
import { citiesStore, tempDir } from "../../support/store_fixture.ts";
import { UI_CSP } from "../../../src/node/ui/routes.ts";
import { withNode } from "../../support/node.ts";

const TOKEN = "node-token-0123456789";
const BASE = "http://127.0.0.1:8686";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

interface Opts {
  token?: string | null;
  host?: string;
  now?: () => number;
  readOnly?: boolean;
}

/** Runs `fn` with a node's handler over the cities fixture (no sockets: Requests in, Responses out). */
async function withHandler(opts: Opts, fn: (node: SvcNode) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    const node = await createNode({
      store: dir.path,
      host: opts.host ?? "127.0.0.1",
      port: 8686,
      token: opts.token ?? null,
      now: opts.now,
      readOnly: opts.readOnly,
    });
    try {
      await fn(node);
    } finally {
      await node.close();
    }
  } finally {
    await dir.cleanup();
  }
}

const ask = (node: SvcNode, path: string, init: RequestInit = {}, base = BASE) =>
  node.handler(new Request(`${base}${path}`, init));

async function login(node: SvcNode, token: string, headers: Record<string, string> = {}): Promise<Response> {
  return await ask(node, "/ui/login", {
    method: "POST",
    headers: { ...FORM, origin: BASE, ...headers },
    body: new URLSearchParams({ token }).toString(),
  });
}

/** The `name=value` part of a Set-Cookie. */
const cookiePair = (res: Response) => res.headers.get("set-cookie")!.split(";")[0];

Deno.test("GET / is the app shell with a strict CSP; /ui/app.js and /ui/app.css revalidate by ETag; HEAD works", async () => {
  await withHandler({}, async (node) => {
    const shell = await ask(node, "/");
    assertEquals(shell.status, 200);
    assertEquals(shell.headers.get("content-type"), "text/html; charset=utf-8");
    assertEquals(shell.headers.get("content-security-policy"), UI_CSP);
    assertEquals(
      UI_CSP,
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    assertEquals(shell.headers.get("x-content-type-options"), "nosniff");
    assertEquals(shell.headers.get("referrer-policy"), "same-origin", "no-referrer would make forms post Origin: null");
    assertEquals(shell.headers.get("cache-control"), "no-store");
    assertEquals(shell.headers.get("x-svc-node"), "1");
    const html = await shell.text();
    assert(html.includes('<script src="/ui/app.js" defer></script>') && !html.includes("<script>"), "no inline script");
    assert(!html.includes("/ui/login"), "no login on a node without a token");

    const head = await ask(node, "/", { method: "HEAD" });
    assertEquals([head.status, head.headers.get("content-security-policy"), await head.text()], [200, UI_CSP, ""]);

    for (const [path, type] of [["/ui/app.js", "text/javascript"], ["/ui/app.css", "text/css"]]) {
      const res = await ask(node, path);
      assertEquals([res.status, res.headers.get("content-type")], [200, `${type}; charset=utf-8`], path);
      assertEquals(res.headers.get("cache-control"), "no-cache");
      assertEquals(res.headers.get("x-content-type-options"), "nosniff");
      assertEquals(res.headers.get("referrer-policy"), "no-referrer");
      const etag = res.headers.get("etag")!;
      assertMatch(etag, /^"[0-9a-f]{32}"$/);
      assert((await res.text()).length > 1000);
      const again = await ask(node, path, { headers: { "if-none-match": `W/${etag}` } });
      assertEquals([again.status, again.headers.get("etag"), await again.text()], [304, etag, ""]);
      const headAsset = await ask(node, path, { method: "HEAD" });
      assertEquals([headAsset.status, await headAsset.text()], [200, ""]);
    }
    new Function(await (await ask(node, "/ui/app.js")).text()); // valid JavaScript
  });
});

Deno.test("the API paths stay JSON beside the interface; other /ui paths are JSON 404s", async () => {
  await withHandler({}, async (node) => {
    const projects = await ask(node, "/projects", { headers: { accept: "text/html" } });
    assertEquals(projects.headers.get("content-type"), "application/json; charset=utf-8");
    assertEquals((await projects.json() as Json).projects.length, 2);
    for (const path of ["/ui", "/ui/", "/ui/nope", "/ui/app.js/x", "/index.html"]) {
      const res = await ask(node, path);
      assertEquals([res.status, res.headers.get("content-type")], [404, "application/json; charset=utf-8"], path);
      await res.body?.cancel();
    }
    const post = await ask(node, "/", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assertEquals([post.status, post.headers.get("allow")], [405, "GET, HEAD"]);
    await post.body?.cancel();
    const noLogin = await login(node, "anything");
    assertEquals(noLogin.status, 404, "no login on a node without a token");
    assertEquals((await noLogin.json() as Json).error, "this node has no token: there is no login");
  });
});

Deno.test("with a token: / is the login page; a wrong token answers it again with an error, the right one sets the cookie", async () => {
  await withHandler({ token: TOKEN }, async (node) => {
    const page = await ask(node, "/");
    assertEquals([page.status, page.headers.get("content-security-policy")], [200, UI_CSP]);
    const html = await page.text();
    assert(html.includes('<form method="post" action="/ui/login"') && !html.includes("/ui/app.js"), "login, no app");
    assert(!html.includes('role="alert"'));

    const wrong = await login(node, "not-the-token-at-all");
    assertEquals([wrong.status, wrong.headers.get("set-cookie")], [401, null]);
    assertEquals(wrong.headers.get("content-type"), "text/html; charset=utf-8");
    assert((await wrong.text()).includes("That is not this node's token."));

    const right = await login(node, ` ${TOKEN}\n`);
    assertEquals([right.status, right.headers.get("location")], [303, "/"]);
    assertEquals(right.headers.get("cache-control"), "no-store");
    const set = right.headers.get("set-cookie")!;
    assertMatch(set, /^svc_node_8686=\d+\.[0-9a-f]{64}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    assert(!set.includes(TOKEN), "the cookie does not hold the token");

    const typed = { cookie: cookiePair(right), "sec-fetch-site": "none" };
    const shell = await ask(node, "/", { headers: typed });
    assert((await shell.text()).includes('<table id="projects">'), "logged in, the address typed: the projects");
    const reloaded = await (await ask(node, "/p/cities/data?version=2&limit=2", { headers: typed })).text();
    assert(reloaded.includes('<table id="records"'), "a page reloaded or bookmarked: its data");
    const byHand = await (await ask(node, "/p/cities", { headers: { cookie: cookiePair(right) } })).text();
    assert(
      byHand.includes("<form") && !byHand.includes("World cities"),
      "a copied cookie without a browser: the login",
    );
    const copied = await ask(node, "/", { headers: { cookie: cookiePair(right) } });
    assert((await copied.text()).includes("<form"), "the cookie without a browser's word for it: the login form");

    const secure = await login(node, TOKEN, { "x-forwarded-proto": "https", origin: "https://127.0.0.1:8686" });
    assert(secure.headers.get("set-cookie")!.endsWith("; Secure"), "Secure when the request came over https");

    const out = await ask(node, "/ui/logout", { method: "POST", headers: { ...FORM, origin: BASE } });
    assertEquals([out.status, out.headers.get("location")], [303, "/"]);
    assertEquals(out.headers.get("set-cookie"), "svc_node_8686=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict");

    const json = await ask(node, "/ui/login", {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE },
      body: JSON.stringify({ token: TOKEN }),
    });
    assertEquals(json.status, 415);
    await json.body?.cancel();
    const big = await login(node, "x".repeat(5000));
    assertEquals(big.status, 413);
    await big.body?.cancel();
  });
});

Deno.test("the cookie stands for the token only from the node's own pages: not cross-site, not for another Host, not for CORS", async () => {
  let now = Date.parse("2026-11-22T03:00:00Z");
  await withHandler({ token: TOKEN, now: () => now }, async (node) => {
    const cookie = cookiePair(await login(node, TOKEN));
    const status = async (path: string, headers: Record<string, string>, init: RequestInit = {}, base = BASE) => {
      const res = await ask(node, path, { ...init, headers: { cookie, ...headers } }, base);
      await res.body?.cancel();
      return res;
    };
    const query = {
      method: "POST",
      body: JSON.stringify({ sql: "SELECT count(*) AS n FROM records" }),
    };
    const json = { "content-type": "application/json" };

    assertEquals((await status("/projects", { "sec-fetch-site": "same-origin" })).status, 200, "the node's page");
    assertEquals((await status("/projects", {})).status, 401, "a copied cookie, no Origin: not the node's page");
    assertEquals((await status("/projects", { "sec-fetch-site": "none" })).status, 401, "an API path by hand");
    const own = await ask(node, "/projects/cities/query", {
      ...query,
      headers: { cookie, ...json, origin: BASE, "sec-fetch-site": "same-origin" },
    });
    assertEquals([own.status, (await own.json() as Json).rows], [200, [[600]]]);
    assertEquals((await status("/healthz", {})).status, 200);
    const ownPage = { cookie, "sec-fetch-site": "same-origin" };
    const health: Json = await (await ask(node, "/healthz", { headers: ownPage })).json();
    assertEquals(health.auth, "token", "the full health answer with the cookie, from the node's page");
    const bare: Json = await (await ask(node, "/healthz", { headers: { cookie } })).json();
    assert(bare.auth !== "token", "not with the cookie alone");

    const evil = await status("/projects/cities/query", { ...json, origin: "https://evil.example" }, query);
    assertEquals(evil.status, 403, "a cross-site POST with the cookie");
    assertEquals(evil.headers.get("access-control-allow-origin"), null, "and no CORS for it");
    const form = await status("/ui/logout", { ...FORM, origin: "https://evil.example" }, { method: "POST" });
    assertEquals(form.status, 403, "a cross-site form POST");
    assertEquals((await status("/projects", { "sec-fetch-site": "cross-site" })).status, 403);
    assertEquals((await status("/projects", { "sec-fetch-site": "same-site" })).status, 403);

    for (const path of ["/ui/login", "/ui/logout"]) {
      const res = await ask(node, path, {
        method: "POST",
        headers: { ...FORM, cookie, origin: "http://127.0.0.1:5173" },
        body: `token=${TOKEN}`,
      });
      assertEquals(res.status, 403, `${path} from another loopback page`);
      assertEquals((await res.json() as Json).error, "log in and out from the node's own page");
    }

    const otherPage = await status("/projects", { origin: "http://127.0.0.1:5173", "sec-fetch-site": "same-site" });
    assertEquals(otherPage.status, 401, "another loopback page (same site, other port) gets nothing from the cookie");
    assertEquals(otherPage.headers.get("access-control-allow-credentials"), null);

    const rebound = await status("/projects", { "sec-fetch-site": "same-origin" }, {}, "http://rebind.example:8686");
    assertEquals(rebound.status, 401, "another authority with the cookie: it was made for another origin");
    const bearerRebound = await ask(
      node,
      "/projects",
      { headers: { authorization: `Bearer ${TOKEN}` } },
      "http://rebind.example:8686",
    );
    assertEquals(bearerRebound.status, 200, "while the bearer token vouches for any Host");
    await bearerRebound.body?.cancel();

    const bearerCors = await ask(node, "/projects", {
      headers: { authorization: `Bearer ${TOKEN}`, origin: "https://app.example" },
    });
    assertEquals(bearerCors.headers.get("access-control-allow-origin"), "https://app.example");
    await bearerCors.body?.cancel();
    const cookieCors = await status("/projects", { origin: "https://app.example" });
    assertEquals([cookieCors.status, cookieCors.headers.get("access-control-allow-origin")], [403, null]);

    now += 12 * 3600 * 1000;
    assertEquals((await status("/projects", {})).status, 401, "expired after 12 hours");
    const page = await ask(node, "/", { headers: { cookie } });
    assert((await page.text()).includes('action="/ui/login"'), "the login page again");
  });
});

Deno.test("on a node bound beyond loopback the cookie works the same for its own origin only", async () => {
  await withHandler({ token: TOKEN, host: "0.0.0.0" }, async (node) => {
    const base = "http://192.0.2.10:8686";
    const res = await ask(node, "/ui/login", {
      method: "POST",
      headers: { ...FORM, origin: base },
      body: `token=${TOKEN}`,
    }, base);
    const cookie = cookiePair(res);
    const own = await ask(node, "/projects", { headers: { cookie, origin: base } }, base);
    assertEquals(own.status, 200);
    await own.body?.cancel();
    const loopbackPage = await ask(node, "/projects", { headers: { cookie, origin: "http://localhost:5173" } }, base);
    assertEquals(loopbackPage.status, 403, "loopback pages are not trusted by a node beyond loopback");
    await loopbackPage.body?.cancel();
  });
});

Deno.test("a read-only node serves the same read-only interface", async () => {
  await withHandler({ readOnly: true }, async (node) => {
    const shell = await ask(node, "/");
    assertEquals(shell.status, 200);
    assert((await shell.text()).includes("/ui/app.js"));
    const health: Json = await (await ask(node, "/healthz")).json();
    assertEquals(health.readOnly, true, "the app shows a read-only badge from /healthz");
  });
});

Deno.test("a link from another site opens a page of the interface; nothing else passes the cross-site guard", async () => {
  await withHandler({}, async (node) => {
    const navigate = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
    for (const path of ["/", "/p/cities", "/p/cities/data?version=2&sort=name", "/ui/mcp"]) {
      const page = await ask(node, path, { headers: navigate });
      assertEquals(page.status, 200, path);
      assertEquals(page.headers.get("content-security-policy"), UI_CSP);
      await page.body?.cancel();
    }
    for (
      const [path, headers] of [
        ["/projects", navigate],
        ["/projects/cities/data", navigate],
        ["/", { ...navigate, "sec-fetch-dest": "iframe" }],
        ["/", { ...navigate, "sec-fetch-mode": "cors" }],
        ["/ui/app.js", { ...navigate, "sec-fetch-dest": "script", "sec-fetch-mode": "no-cors" }],
        ["/p/cities", { ...navigate, "sec-fetch-mode": "cors" }],
      ] as const
    ) {
      const res = await ask(node, path, { headers });
      assertEquals(res.status, 403, `${path} ${JSON.stringify(headers)}`);
      await res.body?.cancel();
    }
    const post = await ask(node, "/", { method: "POST", headers: navigate });
    assertEquals(post.status, 403);
    await post.body?.cancel();
  });
});

Deno.test("a login cookie is bound to its node: renamed for another node's port with the same token, it is refused", async () => {
  await withNode({ token: TOKEN }, async (a) => {
    await withNode({ token: TOKEN }, async (b) => {
      const form = (port: number) => ({
        method: "POST",
        headers: { ...FORM, origin: `http://127.0.0.1:${port}`, "sec-fetch-site": "same-origin" },
        body: `token=${TOKEN}`,
        redirect: "manual" as const,
      });
      const set = (await fetch(`${a.url}/ui/login`, form(a.port))).headers.get("set-cookie")!;
      const value = set.split(";")[0].split("=")[1];
      const page = (port: number, cookie: string) =>
        fetch(`http://127.0.0.1:${port}/projects`, { headers: { cookie, "sec-fetch-site": "same-origin" } });
      const own = await page(a.port, `svc_node_${a.port}=${value}`);
      assertEquals(own.status, 200, "on its own node");
      await own.body?.cancel();
      const moved = await page(b.port, `svc_node_${b.port}=${value}`);
      assertEquals(moved.status, 401, "renamed for the other node's port");
      await moved.body?.cancel();
    });
  });
});

Deno.test("a browser that opens an address the node refuses gets a page with a way back; programs get JSON", async () => {
  await withHandler({ token: TOKEN }, async (node) => {
    const opened = {
      headers: { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate", "sec-fetch-site": "none" },
    };
    const missing = await ask(node, "/nope", opened);
    assertEquals([missing.status, missing.headers.get("content-type")], [404, "text/html; charset=utf-8"]);
    assertEquals(missing.headers.get("content-security-policy"), UI_CSP);
    const page = await missing.text();
    assertMatch(page, /<p class="error" role="alert" id="error-message">not found: GET \/nope<\/p>/);
    assertMatch(page, /<a href="\/" id="home">/);
    const locked = await ask(node, "/projects", opened);
    assertEquals([locked.status, locked.headers.get("www-authenticate")], [401, 'Bearer realm="svc-node"']);
    assertMatch(await locked.text(), /needs its token[^]*<a href="\/" id="home">/);
    const hostile = await ask(node, "/<script>alert(1)</script>", opened);
    assert(!(await hostile.text()).includes("<script>alert"), "the message is text, not markup");
    const program = await ask(node, "/nope");
    assertEquals([program.status, await program.json()], [404, { error: "not found: GET /nope" }]);
  });
});
