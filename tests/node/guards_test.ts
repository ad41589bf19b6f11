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
      assertEquals(res.headers.get("www-authenticate"), "Bearer");
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

Deno.test("a Host that is not the node's own address is refused (DNS rebinding)", async () => {
  await withNode({}, async ({ port }) => {
    for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1.nip.io", "a@127.0.0.1", "", "[::1"]) {
      const r = await get(port, "/projects", {}, host);
      assert(r.status === 403 || (host === "" && r.status === 400), `${host}: ${r.status}`);
      if (r.status === 403) assertMatch(JSON.parse(r.body).error, /own address/);
    }
    const noHost = await rawRequest(port, "GET /projects HTTP/1.0\r\n\r\n");
    assertEquals(noHost.status, 403);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "LOCALHOST", "127.0.0.2:1", "app.localhost"]) {
      assertEquals((await get(port, "/projects", {}, host)).status, 200, host);
    }
  });
});

Deno.test("a node bound beyond loopback answers IP literals and allowed names only", async () => {
  await withNode({ host: "0.0.0.0", token: TOKEN, allowedHosts: ["data.example.org"] }, async ({ port }) => {
    for (
      const host of ["10.1.2.3:8686", "[fe80::1]:80", `127.0.0.1:${port}`, "data.example.org", "DATA.example.org:443"]
    ) {
      assertEquals((await get(port, "/projects", AUTH, host)).status, 200, host);
    }
    assertEquals((await get(port, "/projects", AUTH, "rebind.example")).status, 403);
  });
});

Deno.test("cross-site requests without the token are refused; same-origin ones pass", async () => {
  await withNode({}, async ({ url, port }) => {
    const refused: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: `http://127.0.0.1:${port + 1}` },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site", origin: url },
    ];
    for (const headers of refused) {
      const r = await get(port, "/projects", headers);
      assertEquals(r.status, 403, JSON.stringify(headers));
      assertMatch(JSON.parse(r.body).error, /cross-site/);
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
  });
  await withNode({ token: TOKEN }, async ({ port }) => {
    const foreign = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    assertEquals((await get(port, "/projects", foreign)).status, 403, "no token: refused as cross-site");
    assertEquals((await get(port, "/projects", { ...foreign, ...AUTH })).status, 200, "with the token: allowed");
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
