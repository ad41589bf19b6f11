import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { rawRequest } from "../support/raw_http.ts";

const TOKEN = "node-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

function raw(port: number, method: string, headers: Record<string, string>, host = `127.0.0.1:${port}`) {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  return rawRequest(port, `${method} /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${lines}\r\n`);
}

Deno.test("/healthz over a socket (the quick lane) answers what the handler answers, with and without the token", async () => {
  await withNode({ token: TOKEN }, async ({ url, serving }) => {
    for (const headers of [AUTH, {}] as Record<string, string>[]) {
      const quick = await fetch(`${url}/healthz`, { headers });
      const full = await serving.node.handler(new Request(`${url}/healthz`, { headers }));
      for (const name of ["content-type", "cache-control", "x-svc-node"]) {
        assertEquals(quick.headers.get(name), full.headers.get(name), name);
      }
      // What is resident, and what holds it, changes between two answers; the rest is the same.
      const still = (health: Json) => {
        if (health.memory) {
          assert(health.memory.resident.node > 0 && health.memory.held.jsHeap > 0);
          delete health.memory.resident;
          delete health.memory.held;
        }
        return health;
      };
      const [a, b] = [still(await quick.json()), still(await full.json())];
      assertEquals(a, b);
      const lane = await serving.node.quick(
        { method: "GET", url: `${url}/healthz`, headers: new Headers(headers) },
        {},
      );
      assert(lane !== null, "the quick lane takes it");
      assertEquals(still(JSON.parse(new TextDecoder().decode(lane.body))), a);
      assertEquals(a.ok, true);
      assertEquals("versions" in a, headers === AUTH, "the summary only with the token");
    }
  });
});

Deno.test("/healthz: a foreign Host or a cross-site page is refused, a loopback page gets CORS, HEAD has no body", async () => {
  await withNode({}, async ({ port }) => {
    const foreign = await raw(port, "GET", {}, "evil.example");
    assertEquals(foreign.status, 403);
    assertMatch(JSON.parse(foreign.body).error, /answers only to its own address/);
    const crossSite = await raw(port, "GET", { origin: "https://evil.example" });
    assertEquals(crossSite.status, 403);
    assertMatch(JSON.parse(crossSite.body).error, /cross-site requests are refused/);
    const fetchSite = await raw(port, "GET", { "sec-fetch-site": "cross-site" });
    assertEquals(fetchSite.status, 403);
    const page = await raw(port, "GET", { origin: "http://localhost:5173" });
    assertEquals(page.status, 200);
    assertEquals(page.headers["access-control-allow-origin"], "http://localhost:5173");
    assertEquals(JSON.parse(page.body).node, true);
    const other = await raw(port, "GET", {}).then(() =>
      rawRequest(port, `GET /healthz/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
    );
    assertEquals(other.status, 404, "only /healthz itself");
    const head = await raw(port, "HEAD", {});
    assertEquals(head.status, 200);
    assertEquals(head.body, "");
    assertEquals(head.headers["content-type"], "application/json; charset=utf-8");
  });
});

Deno.test("/healthz with the token is answered for any Host; the quick lane logs its line like the handler", async () => {
  await withNode({ token: TOKEN }, async ({ port, log }) => {
    const any = await raw(port, "GET", AUTH, "node.example:443");
    assertEquals(any.status, 200);
    assertEquals(JSON.parse(any.body).auth, "token");
    const lines = log.filter((l) => / GET \/healthz 200 /.test(l));
    assert(lines.length === 1, `one log line: ${JSON.stringify(log)}`);
    assertMatch(lines[0], /^\d{4}-\d\d-\d\dT\S+ 127\.0\.0\.1 GET \/healthz 200 \d+\.\dms$/);
  });
});

Deno.test("/readyz over a socket (the quick lane) answers what the handler answers: 200 ready, 503 stopping", async () => {
  await withNode({ token: TOKEN }, async ({ url, serving }) => {
    for (const headers of [AUTH, {}] as Record<string, string>[]) {
      const lane = await serving.node.quick(
        { method: "GET", url: `${url}/readyz`, headers: new Headers(headers) },
        {},
      );
      assert(lane !== null, "the quick lane takes it");
      const full = await serving.node.handler(new Request(`${url}/readyz`, { headers }));
      assertEquals([lane.status, JSON.parse(new TextDecoder().decode(lane.body))], [full.status, await full.json()]);
      const quick = await fetch(`${url}/readyz`, { headers });
      assertEquals([quick.status, await quick.json(), quick.headers.get("cache-control")], [
        200,
        { ready: true },
        "no-store",
      ]);
    }
    serving.node.drain();
    const stopping = await fetch(`${url}/readyz`);
    assertEquals([stopping.status, await stopping.json()], [503, { ready: false, reason: "the node is stopping" }]);
  });
});
