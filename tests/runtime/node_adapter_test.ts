import { assertEquals, type Json } from "../support/assert.ts";
import { createNode, type SvcNode } from "../../server.ts";
import { serveHttp } from "../../src/http/mod.ts";
import { errorResponse } from "../../src/node/mod.ts";
import { listenNode } from "../../src/runtime/node.ts";
import { rawRequest } from "../support/raw_http.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

Deno.test("the node:net listener serves the same handler, streams, and answers bad framing as JSON", async () => {
  const dir = await tempDir();
  try {
    await citiesStore(dir.path);
    let node: SvcNode | null = null;
    const server = await serveHttp(listenNode, (req, info) => node!.handler(req, info), {
      hostname: "127.0.0.1",
      port: 0,
      errorAnswer: errorResponse,
    });
    node = await createNode({ store: dir.path, host: "127.0.0.1", port: server.addr.port, token: null });
    const url = `http://127.0.0.1:${server.addr.port}`;
    try {
      const page: Json = await (await fetch(`${url}/projects/cities/data?limit=3&offset=597`)).json();
      assertEquals(page.records.map((r: Json) => r.id), [597, 598, 599]);
      const manifest: Json = await (await fetch(`${url}/projects/cities/manifest`)).json();
      const part = await fetch(manifest.parts[0].url);
      assertEquals((await part.arrayBuffer()).byteLength, manifest.parts[0].bytes);
      const evil = await rawRequest(
        server.addr.port,
        `GET /projects HTTP/1.1\r\nHost: evil.example:${server.addr.port}\r\nConnection: close\r\n\r\n`,
      );
      assertEquals(evil.status, 403);
      for (const length of ["-1", "abc"]) {
        const bad = await rawRequest(
          server.addr.port,
          `POST /projects HTTP/1.1\r\nHost: 127.0.0.1:${server.addr.port}\r\nContent-Length: ${length}\r\n\r\n`,
        );
        assertEquals(bad.status, 400, length);
        assertEquals(JSON.parse(bad.body), { error: "Content-Length must be a non-negative integer" });
        assertEquals(bad.headers["x-svc-node"], "1");
      }
      const body = await rawRequest(
        server.addr.port,
        `POST /projects HTTP/1.1\r\nHost: 127.0.0.1:${server.addr.port}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`,
      );
      assertEquals(body.status, 415);
    } finally {
      await server.shutdown();
      await node.close();
    }
  } finally {
    await dir.cleanup();
  }
});
