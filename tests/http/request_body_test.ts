import { assertEquals, assertRejects, assertThrows } from "../support/assert.ts";
import { checkBodyHeaders, MAX_BODY_BYTES, readJsonBody } from "../../src/http/request_body.ts";

import type { NodeError } from "../../src/errors/mod.ts";
import { parseExactJson } from "../../src/wire/json_parse.ts";

function post(body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) {
  return new Request("http://127.0.0.1/", { method: "POST", body, headers });
}

Deno.test("readJsonBody stops reading at the cap even when no length was declared", async () => {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(c) {
      pulled += 64 * 1024;
      c.enqueue(new Uint8Array(64 * 1024).fill(32));
    },
  });
  const e = await assertRejects(() => readJsonBody(post(endless)), /over 1048576 bytes/);
  assertEquals((e as NodeError).status, 413);
  assertEquals(pulled <= MAX_BODY_BYTES + 2 * 64 * 1024, true, "it stops pulling near the cap");
});

Deno.test("readJsonBody parses JSON and refuses what is not JSON or not UTF-8", async () => {
  assertEquals(await readJsonBody(post('{"sql": "SELECT 1"}')), { sql: "SELECT 1" });
  for (const bad of ["{", "", "{'a': 1}", new Uint8Array([0x7b, 0xff, 0x7d])]) {
    const e = await assertRejects(() => readJsonBody(post(bad)), /not valid JSON/);
    assertEquals((e as NodeError).status, 400);
  }
});

Deno.test("checkBodyHeaders refuses declared sizes and media types before reading", () => {
  const status = (req: Request) => {
    try {
      checkBodyHeaders(req);
      return 0;
    } catch (e) {
      return (e as NodeError).status;
    }
  };
  assertEquals(status(post("{}")), 0);
  assertEquals(status(post("{}", { "content-type": "Application/JSON; charset=utf-8" })), 0);
  assertEquals(status(post("{}", { "content-type": "text/json" })), 415);
  assertEquals(status(post("{}", { "content-type": "application/jsonx" })), 415);
  assertEquals(status(new Request("http://x/", { method: "GET" })), 0, "GET needs no media type");
  const declared = post("{}", { "content-type": "application/json", "content-length": "2" });
  assertThrows(() => checkBodyHeaders(declared, 1), /over 1 bytes/);
  assertEquals(status(post("{}", { "content-type": "application/json", "content-length": "-2" })), 400);
});

Deno.test("JSON nested past the reader's limit is reported as such, not as invalid JSON", async () => {
  const deep = (n: number) => `{"records":[{"id":1,"x":${"[".repeat(n)}${"]".repeat(n)}}]}`;
  const ask = (body: string) =>
    readJsonBody(new Request("http://x/", { method: "POST", body }), undefined, parseExactJson).then(
      () => "read",
      (e) => `${e.status}: ${e.message}`,
    );
  assertEquals(await ask(deep(150)), "read");
  for (const n of [199, 5000]) {
    assertEquals(await ask(deep(n)), "400: body nests JSON deeper than 200 levels, the limit");
  }
  assertEquals(await ask(`{"records":[}`), "400: body is not valid JSON");
});
