import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { rawRequest } from "../support/raw_http.ts";

const TOKEN = "node-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

function get(port: number, path: string, headers: Record<string, string>, host = `127.0.0.1:${port}`) {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  return rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${lines}\r\n`);
}

Deno.test("with a token every route needs Authorization: Bearer, compared exactly", async () => {
  await withNode({ token: TOKEN }, async ({ url }) => {
    const cases: Record<string, string>[] = [{}, { authorization: "Bearer wrong" }, {
      authorization: `Bearer ${TOKEN}x`,
    }, { authorization: TOKEN }];
    for (const headers of cases) {
      const res = await fetch(`${url}/projects`, { headers });
      assertEquals(res.status, 401, JSON.stringify(headers));
      assertEquals(res.headers.get("www-authenticate"), 'Bearer realm="svc-node"');
      assertEquals(await res.json(), { error: "this node needs its token: Authorization: Bearer <token>" });
    }
    for (const path of ["/projects", "/projects/cities", "/projects/cities/data", "/projects/cities/manifest"]) {
      const res = await fetch(`${url}${path}`, { headers: AUTH });
      assertEquals(res.status, 200, path);
      await res.body?.cancel();
    }
    const lower = await fetch(`${url}/projects`, { headers: { authorization: `bearer ${TOKEN}` } });
    assertEquals(lower.status, 200);
    await lower.body?.cancel();
  });
});

Deno.test("/healthz answers only {ok: true} without the token, the full summary with it", async () => {
  await withNode({ token: TOKEN }, async ({ url }) => {
    assertEquals(await (await fetch(`${url}/healthz`)).json(), { ok: true });
    assertEquals(await (await fetch(`${url}/healthz`, { headers: { authorization: "Bearer nope" } })).json(), {
      ok: true,
    });
    const full: Json = await (await fetch(`${url}/healthz`, { headers: AUTH })).json();
    assertEquals([full.node, full.auth, full.projects], [true, "token", 2]);
  });
});

Deno.test("with a token, manifest part URLs are signed for one hour and parts need no token", async () => {
  let now = Date.parse("2026-11-22T03:00:00Z");
  await withNode({ token: TOKEN, now: () => now }, async ({ url }) => {
    const manifest: Json = await (await fetch(`${url}/projects/cities/manifest`, { headers: AUTH })).json();
    const exp = now / 1000 + 3600;
    assertEquals(manifest.urlExpiresAt, "2026-11-22T04:00:00+00:00");
    const partUrl = new URL(manifest.parts[0].url);
    assertEquals(partUrl.searchParams.get("exp"), String(exp));
    assertMatch(partUrl.searchParams.get("sig")!, /^[0-9a-f]{64}$/);

    const ok = await fetch(partUrl);
    assertEquals(ok.status, 200, "a signed URL needs no token");
    assertEquals((await ok.arrayBuffer()).byteLength, manifest.parts[0].bytes);
    assertEquals(ok.headers.get("cache-control"), "private, max-age=31536000, immutable");

    const bare = `${partUrl.origin}${partUrl.pathname}`;
    const sig = partUrl.searchParams.get("sig")!;
    const otherSha = manifest.parts[1].sha256;
    const refused = [
      bare,
      `${bare}?exp=${exp}`,
      `${bare}?exp=${exp}&sig=${sig.replace(/^./, sig[0] === "a" ? "b" : "a")}`,
      `${bare}?exp=${exp + 1}&sig=${sig}`,
      `${partUrl.origin}/parts/cities/${otherSha}.parquet?exp=${exp}&sig=${sig}`,
      `${bare}?exp=${exp}&sig=${sig.toUpperCase()}`,
      `${bare}?exp=-1&sig=${sig}`,
    ];
    for (const u of refused) {
      const res = await fetch(u);
      assertEquals(res.status, 403, u);
      assertEquals(await res.json(), {
        error: "part URL signature is missing, wrong or expired — ask for the manifest again",
      });
    }
    const withToken = await fetch(bare, { headers: AUTH });
    assertEquals(withToken.status, 200, "the node token also opens parts");
    await withToken.body?.cancel();

    now += 3601 * 1000;
    const expired = await fetch(partUrl);
    assertEquals(expired.status, 403, "an hour later the URL has expired");
    await expired.body?.cancel();
  });
});

Deno.test("a Host that is not the node's own address and port is refused (DNS rebinding)", async () => {
  await withNode({}, async ({ port }) => {
    for (
      const host of [
        "evil.example",
        `evil.example:${port}`,
        "127.0.0.1.nip.io",
        `127.0.0.1:${port === 9999 ? 9998 : 9999}`,
        "127.0.0.1",
        "LOCALHOST",
        `0.0.0.0:${port}`,
        `192.168.1.5:${port}`,
      ]
    ) {
      const r = await get(port, "/projects", {}, host);
      assertEquals(r.status, 403, host);
      assertMatch(JSON.parse(r.body).error, /own address/);
    }
    for (const host of ["a@127.0.0.1", "", "[::1", "127.0.0.1:80/x", "127.0.0.1 :80"]) {
      const r = await get(port, "/projects", {}, host);
      assertEquals(r.status, 400, `${JSON.stringify(host)} is malformed`);
    }
    // HTTP/1.0 without Host is for the address the node is bound to (a health checker's request; browsers always
    // name the host, so DNS rebinding cannot use it); HTTP/1.1 without Host stays malformed.
    const oldNoHost = await rawRequest(port, "GET /projects HTTP/1.0\r\n\r\n");
    assertEquals(oldNoHost.status, 200);
    const noHost = await rawRequest(port, "GET /projects HTTP/1.1\r\nConnection: close\r\n\r\n");
    assertEquals([noHost.status, JSON.parse(noHost.body).error], [400, "HTTP/1.1 requests need a Host header"]);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `app.localhost:${port}`]) {
      assertEquals((await get(port, "/projects", {}, host)).status, 200, host);
    }
  });
});

Deno.test("an absolute-form target is the request's authority: checked by the guard, used for part URLs", async () => {
  await withNode({}, async ({ port }) => {
    const foreign = await rawRequest(
      port,
      `GET http://evil.example:4444/projects/cities/manifest HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    assertEquals(foreign.status, 403, "the foreign authority is refused although Host is good");
    const own = await rawRequest(
      port,
      `GET http://localhost:${port}/projects/cities/manifest HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    assertEquals(own.status, 200);
    for (const part of JSON.parse(own.body).parts) {
      assert(part.url.startsWith(`http://localhost:${port}/parts/cities/`), part.url);
    }
  });
  await withNode({ token: TOKEN }, async ({ port }) => {
    const r = await rawRequest(
      port,
      `GET http://evil.example:4444/projects/cities/manifest HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
    );
    assertEquals(r.status, 200, "with the token any authority is the client's own choice");
    for (const part of JSON.parse(r.body).parts) {
      assert(part.url.startsWith("http://evil.example:4444/parts/cities/"), "URLs follow the one authority");
    }
  });
});

Deno.test("a node with a token answers any Host: 401 without the token, public routes public, the token for the rest", async () => {
  await withNode({ host: "0.0.0.0", token: TOKEN }, async ({ port }) => {
    for (const host of [`10.1.2.3:${port}`, "rebind.example", "127.0.0.1:18686", "node.example:443"]) {
      assertEquals((await get(port, "/projects", AUTH, host)).status, 200, host);
      const without = await get(port, "/projects", {}, host);
      assertEquals(without.status, 401, `${host}: needs its token`);
      assertEquals(without.headers["www-authenticate"], 'Bearer realm="svc-node"');
      const health = await get(port, "/healthz", {}, host);
      assertEquals([health.status, JSON.parse(health.body)], [200, { ok: true }], `${host}: the public summary`);
      const page = await get(port, "/", {}, host);
      assertEquals(page.status, 200, `${host}: the login page`);
      assertMatch(page.body, /action="\/ui\/login"/);
    }
  });
});

Deno.test("a node without a token keeps the Host guard; --allow-host takes a name for any port or a name:port", async () => {
  const allowedHosts = ["data.example.org", "127.0.0.1:18686", "[::1]:18687"];
  await withNode({ host: "127.0.0.1", allowedHosts }, async ({ port }) => {
    for (const host of [`127.0.0.1:${port}`, "DATA.example.org:443", "127.0.0.1:18686", "[::1]:18687"]) {
      assertEquals((await get(port, "/projects", {}, host)).status, 200, host);
    }
    for (const host of ["rebind.example", `rebind.example:${port}`, "127.0.0.1:18688", "[::1]:18686"]) {
      const r = await get(port, "/healthz", {}, host);
      assertEquals(r.status, 403, host);
    }
  });
});

Deno.test("X-Forwarded-Proto: https makes part URLs https", async () => {
  await withNode({ token: TOKEN }, async ({ port }) => {
    const r = await get(port, "/projects/cities/manifest", { ...AUTH, "x-forwarded-proto": "https" }, "data.example");
    const urls: string[] = JSON.parse(r.body).parts.map((p: Json) => p.url);
    assert(urls.length > 0 && urls.every((u) => u.startsWith("https://data.example/parts/cities/")), urls[0]);
    const signed = new URL(urls[0]);
    const part = await get(port, `${signed.pathname}${signed.search}`, {}, "data.example");
    assertEquals(part.status, 200, "a signed part URL vouches for its authority as the token would");
  });
});

Deno.test("cross-site requests without the token are refused; same-origin and loopback pages pass", async () => {
  await withNode({}, async ({ url, port }) => {
    const refused: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "http://localhost.evil.example:5173" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    ];
    for (const headers of refused) {
      const r = await get(port, "/projects", headers);
      assertEquals(r.status, 403, JSON.stringify(headers));
      assertMatch(JSON.parse(r.body).error, /cross-site/);
      assertEquals(r.headers["access-control-allow-origin"], undefined);
    }
    const post = await rawRequest(
      port,
      `POST /projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: https://evil.example\r\n` +
        `Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    assertEquals(post.status, 403, "a cross-site POST is refused before any route sees it");
    const allowed: Record<string, string>[] = [{ origin: url }, { "sec-fetch-site": "same-origin" }, {
      "sec-fetch-site": "none",
    }, {}];
    for (const headers of allowed) {
      assertEquals((await get(port, "/projects", headers)).status, 200, JSON.stringify(headers));
    }
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:3000", `http://127.0.0.1:${port + 1}`]) {
      const r = await get(port, "/projects", { origin, "sec-fetch-site": "cross-site" });
      assertEquals(r.status, 200, origin);
      assertEquals(r.headers["access-control-allow-origin"], origin, "a local browser tool may read the answer");
      const pre = await rawRequest(
        port,
        `OPTIONS /projects/cities/query HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\n` +
          `Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n`,
      );
      assertEquals(pre.status, 204, `preflight from ${origin}`);
      assertEquals(pre.headers["access-control-allow-origin"], origin);
      assertMatch(pre.headers["access-control-allow-headers"], /content-type/);
    }
    const foreignPreflight = await rawRequest(
      port,
      `OPTIONS /projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: https://evil.example\r\n` +
        `Access-Control-Request-Method: POST\r\nConnection: close\r\n\r\n`,
    );
    assertEquals(foreignPreflight.status, 403);
  });
  await withNode({ token: TOKEN }, async ({ port }) => {
    const foreign = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    assertEquals((await get(port, "/projects", foreign)).status, 403, "no token: refused as cross-site");
    const withToken = await get(port, "/projects", { ...foreign, ...AUTH });
    assertEquals(withToken.status, 200, "with the token: allowed");
    assertEquals(withToken.headers["access-control-allow-origin"], "https://evil.example");
  });
});

Deno.test("request bodies: malformed or negative Content-Length 400, over 1 MiB 413, not JSON 415", async () => {
  await withNode({}, async ({ port }) => {
    const host = `Host: 127.0.0.1:${port}\r\nConnection: close\r\n`;
    const post = (headers: string, body = "") =>
      rawRequest(port, `POST /projects HTTP/1.1\r\n${host}${headers}\r\n${body}`);
    assertEquals((await post("Content-Type: application/json\r\nContent-Length: -5\r\n")).status, 400);
    assertEquals((await post("Content-Type: application/json\r\nContent-Length: 12abc\r\n")).status, 400);
    assertEquals((await rawRequest(port, `GET /projects HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n`)).status, 400);
    const big = await post("Content-Type: application/json\r\nContent-Length: 1048577\r\n", "{}");
    assertEquals(big.status, 413);
    assertMatch(JSON.parse(big.body).error, /over 1048576 bytes/);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      const r = await post(`${type ? `Content-Type: ${type}\r\n` : ""}Content-Length: 2\r\n`, "{}");
      assertEquals(r.status, 415, type);
      assertMatch(JSON.parse(r.body).error, /application\/json/);
    }
    const json = await post("Content-Type: application/json; charset=utf-8\r\nContent-Length: 2\r\n", "{}");
    assertEquals(json.status, 400, "a well-formed JSON body reaches the route, which checks its fields");
    assertMatch(JSON.parse(json.body).error, /^body\/slug must match pattern/);
  });
});

Deno.test("path traversal and odd paths never leave the store", async () => {
  await withNode({}, async ({ port }) => {
    const paths = [
      "/projects/../../etc/passwd",
      "/projects/..%2f..%2fetc%2fpasswd/data",
      "/parts/cities/..%2f..%2f..%2fetc%2fpasswd",
      "/parts/cities/../../project.json",
      "/parts/..%2fcities/x.parquet",
      "/parts/cities/%2e%2e%2fproject.json",
      "/projects/%2e%2e/data",
      "/projects/cities%00/data",
      "/projects/" + "a".repeat(61) + "/data",
      "//etc/passwd",
    ];
    for (const path of paths) {
      const r = await get(port, path, {});
      assertEquals(r.status, 404, path);
      const body = JSON.parse(r.body);
      assert(typeof body.error === "string");
      assert(!r.body.includes("root:"), path);
    }
  });
});
