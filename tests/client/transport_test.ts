import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { callJson, type Endpoint } from "../../src/client/http.ts";
import {
  AuthError,
  ConflictError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
  SvcError,
  ValidationError,
} from "../../src/client/errors.ts";
import type { SvcDeprecationWarning } from "../../src/client/deprecation.ts";
import { startOrigin, type TestOrigin } from "../support/origin.ts";

async function withOrigin(fn: (origin: TestOrigin, endpoint: Endpoint, waits: number[]) => Promise<void>) {
  const origin = await startOrigin();
  const waits: number[] = [];
  const endpoint: Endpoint = {
    baseUrl: origin.url,
    apiKey: "agent-key",
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
  try {
    await fn(origin, endpoint, waits);
  } finally {
    await origin.close();
  }
}

Deno.test("transport: the agent key as a bearer token and the SDK's user agent", async () => {
  await withOrigin(async (origin, endpoint) => {
    const { body } = await callJson(endpoint, "GET", "/projects", null);
    assertEquals(body, { ok: true, path: "/projects" });
    assertEquals(origin.seen[0].headers.authorization, "Bearer agent-key");
    assertMatch(String(origin.seen[0].headers["user-agent"]), /^svc-sdk\/\d+\.\d+\.\d+$/);
  });
});

Deno.test("transport: unreachable, timeout, redirect and non-JSON answers are SvcError naming the base URL (origin-wire 1.5, 1.4)", async () => {
  const down = await assertRejects(() =>
    callJson({ baseUrl: "http://127.0.0.1:9", apiKey: null, retries: 0 }, "GET", "/x", null)
  );
  assert(down instanceof SvcError);
  assertEquals([down.code, down.status], ["network", null]);
  assertMatch(
    down.message,
    /^cannot reach http:\/\/127\.0\.0\.1:9: .+ — check the URL \(SVC_BASE_URL \/ SVC_PAY_URL\) and your network$/,
  );
  assertEquals(String(down), down.message, "no status, no (HTTP ...)");
  await withOrigin(async (origin, endpoint) => {
    origin.fault("/slow", { delayMs: 500 });
    const slow = await assertRejects(() => callJson({ ...endpoint, timeoutMs: 100, retries: 0 }, "GET", "/slow", null));
    assertEquals([(slow as SvcError).code, slow.message], ["timeout", `${origin.url} did not answer within 0.1s`]);
    origin.fault("/moved", { status: 302, headers: { location: "https://elsewhere.example/" } });
    const moved = await assertRejects(() => callJson(endpoint, "GET", "/moved", null));
    assertEquals([(moved as SvcError).code, (moved as SvcError).status], ["redirect", 302]);
    assertEquals(
      moved.message,
      `${origin.url} redirected to https://elsewhere.example/: set SVC_BASE_URL to that origin (usually https)`,
    );
    origin.fault("/text", { body: "hello", headers: { "content-type": "text/plain" } });
    const text = await assertRejects(() => callJson(endpoint, "GET", "/text", null));
    assertEquals((text as SvcError).code, "bad_answer");
    assertEquals(text.message, `${origin.url} answered with text/plain, not JSON — is this the SVC origin?`);
    origin.fault("/empty", { status: 204, body: "" });
    assertEquals((await callJson(endpoint, "GET", "/empty", null)).body, null, "204 or an empty body is null");
  });
});

Deno.test("transport: HTML error pages become status and reason; messages are cut at 300 characters", async () => {
  await withOrigin(async (origin, endpoint) => {
    origin.fault("/html", {
      status: 404,
      headers: { "content-type": "text/html" },
      body: "<html><body><h1>Not Found</h1>" + "x".repeat(5000),
    });
    const html = await assertRejects(() => callJson(endpoint, "GET", "/html", null));
    assertEquals(html.message, "Not Found");
    assertEquals(String(html), "Not Found (HTTP 404)");
    assertEquals((html as SvcError).asked, origin.url);
    assert(html instanceof NotFoundError);
    origin.fault("/long", { status: 400, body: JSON.stringify({ error: "e".repeat(1000) }) });
    const long = await assertRejects(() => callJson(endpoint, "GET", "/long", null));
    assertEquals(long.message, "e".repeat(297) + "...");
    origin.fault("/msg", { status: 400, body: JSON.stringify({ message: "from message", error: "from error" }) });
    assertEquals((await assertRejects(() => callJson(endpoint, "GET", "/msg", null))).message, "from message");
    origin.fault("/blank", {
      status: 400,
      body: JSON.stringify({ message: "  ", error: "said  in\n error", code: "bad" }),
    });
    const blank = await assertRejects(() => callJson(endpoint, "GET", "/blank", null));
    assertEquals(
      [blank.message, (blank as SvcError).code],
      ["said in error", "bad"],
      "blank message: error, collapsed",
    );
    origin.fault("/proxy", { status: 502, body: JSON.stringify({ error: "<html>bad gateway</html>" }) });
    const proxy = await assertRejects(() => callJson({ ...endpoint, retries: 0 }, "GET", "/proxy", null));
    assertEquals(proxy.message, "Bad Gateway", "a message starting with < is dropped for the reason phrase");
    origin.fault("/odd", { status: 599, body: "" });
    assertEquals((await assertRejects(() => callJson(endpoint, "GET", "/odd", null))).message, "HTTP 599");
  });
});

Deno.test("transport: error classes by status", async () => {
  await withOrigin(async (origin, endpoint) => {
    const cases: [number, unknown][] = [
      [400, ValidationError],
      [401, AuthError],
      [403, AuthError],
      [402, PaymentRequiredError],
      [404, NotFoundError],
      [409, ConflictError],
      [429, RateLimitError],
      [500, ServerError],
      [503, ServerError],
    ];
    for (const [status, kind] of cases) {
      origin.fault("/e", {
        status,
        body: JSON.stringify({ error: `status ${status}`, price: "$0.50", pay: "https://pay.example", retryAfter: 60 }),
      });
      const e = await assertRejects(() => callJson({ ...endpoint, retries: 0 }, "GET", "/e", null));
      assert(e instanceof (kind as typeof SvcError), `${status} is ${(kind as { name: string }).name}`);
      assertEquals((e as SvcError).status, status);
      assertEquals((e as SvcError).message, `status ${status}`);
      if (e instanceof PaymentRequiredError) assertEquals([e.price, e.payUrl], ["$0.50", "https://pay.example"]);
      if (e instanceof RateLimitError) assertEquals(e.retryAfter, 60);
    }
  });
});

Deno.test("retries: twice by default on 429/502/503/504 and network errors, waiting 0.3 s doubling or Retry-After", async () => {
  await withOrigin(async (origin, endpoint, waits) => {
    origin.fault("/r", { status: 503 }, { status: 502 });
    assertEquals((await callJson(endpoint, "GET", "/r", null)).status, 200);
    assertEquals(waits, [300, 600]);
    waits.length = 0;
    origin.fault("/r", { status: 504 }, { status: 429 }, { status: 503 });
    const e = await assertRejects(() => callJson(endpoint, "GET", "/r", null));
    assertEquals((e as SvcError).status, 503, "after two retries the third failure is raised");
    assertEquals(origin.seen.filter((s) => s.path === "/r").length, 6, "3 tries each");
    waits.length = 0;
    origin.fault("/r", { status: 429, headers: { "retry-after": "2" } });
    await callJson(endpoint, "GET", "/r", null);
    assertEquals(waits, [2000]);
    waits.length = 0;
    origin.fault("/r", { status: 503, headers: { "retry-after": new Date(Date.now() + 5000).toUTCString() } });
    await callJson(endpoint, "GET", "/r", null);
    assert(waits[0] > 3000 && waits[0] <= 5000, `an HTTP date: ${waits[0]}`);
  });
  await withOrigin(async (origin, endpoint, waits) => {
    origin.fault("/fresh", { drop: true });
    assertEquals((await callJson(endpoint, "GET", "/fresh", null)).status, 200);
    assertEquals(waits, [300], "a connection dropped without an answer is retried");
  });
});

Deno.test("retries: never for 500 (but for part transfers), never beyond Retry-After 30 s, never for unsafe writes", async () => {
  await withOrigin(async (origin, endpoint, waits) => {
    origin.fault("/r", { status: 500 });
    await assertRejects(() => callJson(endpoint, "GET", "/r", null));
    assertEquals(waits, []);
    origin.fault("/part", { status: 500 });
    assertEquals((await callJson(endpoint, "GET", "/part", null, {}, { partTransfer: true })).status, 200);
    assertEquals(waits, [300]);
    waits.length = 0;
    origin.fault("/r", { status: 429, headers: { "retry-after": "31" } });
    const late = await assertRejects(() => callJson(endpoint, "GET", "/r", null));
    assert(late instanceof RateLimitError);
    assertEquals(waits, [], "Retry-After over 30 s fails at once");
    origin.fault("/w", { status: 503 });
    await assertRejects(() => callJson(endpoint, "POST", "/w", "{}"));
    assertEquals(origin.seen.filter((s) => s.path === "/w").length, 1, "a plain POST is sent once");
    origin.fault("/w", { status: 503 });
    await callJson(endpoint, "POST", "/w", "{}", { "idempotency-key": "k" }, { retry: true });
    assertEquals(
      origin.seen.filter((s) => s.path === "/w").length,
      3,
      "a POST marked safe (idempotency key) is retried",
    );
  });
});

Deno.test("deprecation: warns once per route, naming the sunset date and the deprecation link", async () => {
  await withOrigin(async (origin, endpoint) => {
    const warnings: SvcDeprecationWarning[] = [];
    const ep = { ...endpoint, onWarning: (w: SvcDeprecationWarning) => warnings.push(w) };
    const headers = {
      deprecation: "@1767225600",
      sunset: "Wed, 30 Jun 2027 23:59:59 GMT",
      link: '<https://docs.example/v2>; rel="successor-version", <https://docs.example/migrate>; rel="deprecation"',
    };
    origin.fault("/old", { headers }, { headers }, { headers });
    for (let i = 0; i < 3; i++) await callJson(ep, "GET", "/old", null, {}, { route: "GET /old" });
    assertEquals(warnings.length, 1);
    assertEquals(warnings[0].name, "SvcDeprecationWarning");
    assertEquals(
      warnings[0].message,
      "GET /old is deprecated since 2026-01-01 and goes away on 2027-06-30; see https://docs.example/migrate",
    );
    origin.fault("/other", { headers: { deprecation: "Thu, 01 Jan 2026 00:00:00 GMT" } });
    await callJson(ep, "GET", "/other", null);
    assertEquals(warnings.length, 2, "another route warns on its own");
    assertEquals(warnings[1].message, "GET /other is deprecated since 2026-01-01");
  });
});
