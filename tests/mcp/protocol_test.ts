/**
 * `POST /mcp` spoken with raw requests, as clients other than the SDK's
 * speak it: Accept headers, JSON-RPC error codes, notifications, batches and
 * protocol versions, as the reference node 0.28 answers them.
 */
import { toolOperations } from "../../src/catalog/mod.ts";
import { assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { rawRequest } from "../support/raw_http.ts";

/** The tools a node lists: the catalog's. */
const TOOLS = toolOperations().length;

const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

interface Answer {
  status: number;
  type: string | null;
  text: string;
  body: Json;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type"), text, body: text ? JSON.parse(text) : null };
}

function initialize(protocolVersion: string, id: number | string = 1) {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
}

function call(name: string, args?: unknown, id = 7) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: args === undefined ? { name } : { name, arguments: args },
  };
}

Deno.test("MCP: Accept application/json alone, */* or none gets a JSON answer; one that rules JSON out gets 406", async () => {
  await withNode({}, async ({ url, port }) => {
    for (const accept of ["application/json", "*/*", "application/*", "text/html, application/json;q=0.5", ""]) {
      const r = await post(url, initialize("2025-06-18"), { accept });
      assertEquals([r.status, r.type, r.body.result.protocolVersion], [200, "application/json", "2025-06-18"], accept);
    }
    const body = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    const raw = await rawRequest(
      port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assertEquals(raw.status, 200, "no Accept header at all");
    assertEquals(JSON.parse(raw.body).result.tools.length, TOOLS, "every tool of the catalog");
    for (const accept of ["text/html", "text/event-stream", "application/json;q=0"]) {
      const r = await post(url, initialize("2025-06-18"), { accept });
      assertEquals([r.status, r.body.error.code], [406, -32000], accept);
      assertMatch(r.body.error.message, /answers application\/json/);
    }
  });
});

Deno.test("MCP: JSON-RPC error codes: -32700, -32600, -32601, -32602 with short messages", async () => {
  await withNode({}, async ({ url }) => {
    const parse = await post(url, "{nope");
    assertEquals([parse.status, parse.body.id, parse.body.error.code], [400, null, -32700]);

    for (const invalid of [{ hello: "world" }, { jsonrpc: "1.0", id: 1, method: "ping" }, 42, [], [{ id: 1 }]]) {
      const r = await post(url, invalid);
      assertEquals([r.status, r.body.error.code], [400, -32600], JSON.stringify(invalid));
    }

    for (const params of [[1], "x", 5, null]) {
      const r = await post(url, { jsonrpc: "2.0", id: 9, method: "tools/call", params });
      assertEquals([r.status, r.body.id, r.body.error], [200, 9, {
        code: -32602,
        message: "tools/call: params must be an object",
      }], JSON.stringify(params));
    }

    const method = await post(url, { jsonrpc: "2.0", id: 4, method: "resources/list" });
    assertEquals([method.status, method.body.id, method.body.error.code], [200, 4, -32601]);

    const cases: [unknown, string][] = [
      [
        call("nope", {}),
        `unknown tool "nope"; tools: ${toolOperations().map((o) => o.tool.name).join(", ")}`,
      ],
      [call("dataset_info", {}), "dataset_info: missing argument slug"],
      [call("dataset_info"), "dataset_info: missing argument slug"],
      [
        call("dataset_info", { slug: "cities", colour: "red" }),
        "dataset_info: unknown argument colour (dataset_info takes slug)",
      ],
      [call("read_dataset", { slug: 5 }), "read_dataset: argument slug must be a string"],
      [call("read_dataset", { slug: "cities", limit: 2.5 }), "read_dataset: argument limit must be an integer"],
      [
        call("query_dataset", { slug: "cities", sql: "" }),
        "query_dataset: argument sql must be at least 1 characters long",
      ],
      [
        call("create_dataset", {
          slug: "x-y-z",
          title: "Tt",
          readme: "r",
          schemaDef: { fields: [{ name: "a", type: "date" }] },
        }),
        'create_dataset: argument schemaDef.fields[0].type must be one of "string", "number", "integer", "boolean"',
      ],
      [{ jsonrpc: "2.0", id: 7, method: "tools/call" }, "tools/call: missing params"],
      [{ jsonrpc: "2.0", id: 7, method: "tools/call", params: { arguments: {} } }, "tools/call: missing params.name"],
      [call("dataset_info", ["cities"]), "tools/call: params.arguments must be an object"],
      [
        { jsonrpc: "2.0", id: 7, method: "initialize", params: {} },
        "initialize: missing params.protocolVersion; " +
        "missing params.capabilities; missing params.clientInfo",
      ],
    ];
    for (const [message, text] of cases) {
      const r = await post(url, message);
      assertEquals([r.status, r.body.id, r.body.error?.code, r.body.error?.message], [200, 7, -32602, text]);
    }
  });
});

Deno.test("MCP: a member named `constructor` (null) is a plain key: refused as an unknown argument, else ignored", async () => {
  // zod 3.25's v4 core, under the SDK, threw on such an object (a 500 with no JSON-RPC answer).
  await withNode({}, async ({ url }) => {
    const unknown = await post(url, call("dataset_info", { slug: "cities", constructor: null }));
    assertEquals([unknown.status, unknown.body.error], [200, {
      code: -32602,
      message: "dataset_info: unknown argument constructor (dataset_info takes slug)",
    }]);
    const meta = await post(url, {
      ...call("list_datasets", {}, 8),
      params: { name: "list_datasets", arguments: {}, _meta: { constructor: null } },
    });
    assertEquals([meta.status, meta.body.id, Array.isArray(JSON.parse(meta.body.result.content[0].text).projects)], [
      200,
      8,
      true,
    ]);
    const init = initialize("2025-06-18", 9);
    const hello = await post(url, {
      ...init,
      params: { ...init.params, capabilities: { constructor: null }, clientInfo: { ...init.params.clientInfo } },
    });
    assertEquals([hello.status, hello.body.result.protocolVersion], [200, "2025-06-18"]);
  });
});

Deno.test("MCP: a notification (or a client's response) is 202 with no body", async () => {
  await withNode({}, async ({ url }) => {
    for (
      const message of [
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
        { jsonrpc: "2.0", id: 9, result: {} },
      ]
    ) {
      const r = await post(url, message, { "mcp-protocol-version": "2025-06-18" });
      assertEquals([r.status, r.text], [202, ""], JSON.stringify(message));
    }
  });
});

Deno.test("MCP: protocol versions are negotiated; a version the node does not speak gets the newest", async () => {
  await withNode({}, async ({ url }) => {
    for (const version of VERSIONS) {
      const r = await post(url, initialize(version));
      assertEquals(r.body.result.protocolVersion, version);
      const list = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, {
        "mcp-protocol-version": version,
      });
      assertEquals([list.status, list.body.result.tools.length], [200, TOOLS], version);
    }
    for (const asked of ["2024-10-07", "2026-01-01", "draft"]) {
      assertEquals((await post(url, initialize(asked))).body.result.protocolVersion, "2025-11-25", asked);
    }
    const old = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, {
      "mcp-protocol-version": "2024-10-07",
    });
    assertEquals([old.status, old.body.error.code], [400, -32000]);
    assertMatch(
      old.body.error.message,
      /2024-10-07 \(supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05\)/,
    );
  });
});

Deno.test("MCP: batches are answered under 2025-03-26 and refused (-32600) where the protocol has none", async () => {
  await withNode({}, async ({ url }) => {
    const batch = [{ jsonrpc: "2.0", id: 1, method: "ping" }, call("dataset_info", {}, 2)];
    const old = await post(url, batch, { "mcp-protocol-version": "2025-03-26" });
    assertEquals(old.status, 200);
    const byId = Object.fromEntries((old.body as Json[]).map((a) => [a.id, a]));
    assertEquals(byId[1].result, {});
    assertEquals(byId[2].error, { code: -32602, message: "dataset_info: missing argument slug" });
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const r = await post(url, batch, { "mcp-protocol-version": version });
      assertEquals([r.status, r.body.error.code], [400, -32600], version);
      assertMatch(r.body.error.message, /has no batches/);
    }
    const init = await post(url, [initialize("2025-03-26")]);
    assertEquals([init.status, init.body.error.code], [400, -32600], "initialize is never batched");
    assertMatch(init.body.error.message, /initialize/);
  });
});
