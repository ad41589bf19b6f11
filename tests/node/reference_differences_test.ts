/**
 * The node's deliberate differences from the reference's node (docs/api.md,
 * "Deliberate differences from the reference"), held by real requests over
 * sockets: a foreign Host on a node with a token hears 401, the connection
 * stays open after a 404, and `current_setting()` is refused.
 *
 * @module
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { openSocket, rawRequest } from "../support/raw_http.ts";

Deno.test("differences: on a node with a token, a foreign Host without it hears 401 and the challenge, not 403", async () => {
  await withNode({ token: "node-token-1234" }, async ({ port }) => {
    const asked = await rawRequest(
      port,
      "GET /projects/cities/manifest HTTP/1.1\r\nHost: mirror.example:8080\r\nConnection: close\r\n\r\n",
    );
    assertEquals(asked.status, 401);
    assertEquals(asked.headers["www-authenticate"], 'Bearer realm="svc-node"');
    const health = await rawRequest(
      port,
      "GET /healthz HTTP/1.1\r\nHost: mirror.example:8080\r\nConnection: close\r\n\r\n",
    );
    assertEquals([health.status, JSON.parse(health.body)], [200, { ok: true }], "public routes answer as they do");
  });
});

Deno.test("differences: the connection stays open after a 404, and the next request on it is answered", async () => {
  await withNode({}, async ({ port }) => {
    const socket = await openSocket(port);
    try {
      socket.send(`GET /projects/nowhere HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await socket.waitFor("not found on this node");
      assert(!socket.isClosed(), "still open after the 404");
      socket.send(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await socket.waitFor('"node":true');
      assertMatch(socket.received(), /^HTTP\/1\.1 404 [^]*HTTP\/1\.1 200 /);
      assert(!/connection: close/i.test(socket.received()), socket.received());
    } finally {
      socket.destroy();
    }
  });
});

Deno.test("differences: current_setting() is refused, as the other functions that describe the node are", async () => {
  await withNode({}, async ({ url }) => {
    const res = await fetch(`${url}/projects/cities/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: "SELECT current_setting('memory_limit') AS m" }),
    });
    assertEquals(res.status, 400);
    assertMatch((await res.json()).error, /current_setting/);
  });
});
