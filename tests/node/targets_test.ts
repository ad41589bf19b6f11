/**
 * Request targets are routed as the client sent them: a path the router
 * does not know is 404, however a URL parser would have rewritten it
 * (backslashes, dot segments in any spelling), and methods are
 * case-sensitive.
 *
 * @module
 */
import { assertEquals, assertMatch } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { rawRequest } from "../support/raw_http.ts";

const TOKEN = "targets-token-0123456789";

function ask(port: number, method: string, target: string, body = ""): Promise<{ status: number; body: string }> {
  const fields = body === "" ? "" : `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n`;
  return rawRequest(
    port,
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n${fields}` +
      `Connection: close\r\n\r\n${body}`,
  );
}

Deno.test("paths a URL parser would rewrite reach no route: 404 with the path as sent, in the log too", async () => {
  await withNode({ token: TOKEN }, async ({ port, log }) => {
    assertEquals((await ask(port, "GET", "/projects/cities/data?limit=1")).status, 200);
    for (
      const target of [
        "/projects/bare/../cities/data?limit=1",
        "/projects/cities/./data",
        "/projects/%2e%2e/projects/cities/data",
        "/projects/cities/%2E/data",
        "/projects\\cities\\data",
        "/projects/cities\\data",
        "/./healthz",
        "/healthz/..",
        "/ui/../projects",
      ]
    ) {
      const answer = await ask(port, "GET", target);
      assertEquals(answer.status, 404, target);
      assertEquals(JSON.parse(answer.body), { error: `not found: GET ${target.split("?")[0]}` }, target);
    }
    assertMatch(log.join("\n"), / GET \/projects\\cities\\data 404 /);
  });
});

Deno.test("a write through a rewritten path is 404 and writes nothing; a lowercase method is refused 400", async () => {
  await withNode({ token: TOKEN }, async ({ port }) => {
    const before = (await ask(port, "GET", "/projects/cities")).body;
    const batch = JSON.stringify({ records: [{ id: 1 }] });
    const rewritten = await ask(port, "POST", "/projects\\cities\\contribute", batch);
    assertEquals(rewritten.status, 404);
    const lower = await ask(port, "post", "/projects/cities/contribute", batch);
    assertEquals(lower.status, 400);
    assertMatch(JSON.parse(lower.body).error, /unknown method post \(methods are case-sensitive\)/);
    const trace = await ask(port, "TRACE", "/projects");
    assertEquals([trace.status, JSON.parse(trace.body).error], [501, "TRACE is not served here"]);
    assertEquals((await ask(port, "GET", "/projects/cities")).body, before, "the project is as it was");
  });
});
