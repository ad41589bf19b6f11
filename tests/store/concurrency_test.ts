/**
 * Fifty contributors at once, spread over two node processes serving one
 * store: every contribution merges, versions stay consecutive, no update is
 * lost.
 */
import { assertEquals, type Json } from "../support/assert.ts";
import { startServe } from "../support/cli_process.ts";
import { tempDir } from "../support/store_fixture.ts";

Deno.test("50 concurrent contributors on two node processes sharing one store lose no update", async () => {
  const dir = await tempDir();
  const nodes = [
    await startServe(["--store", dir.path, "--quiet"]),
    await startServe(["--store", dir.path, "--quiet"]),
  ];
  try {
    const create = await fetch(`${nodes[0].url}/projects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        slug: "shared",
        title: "Shared notes",
        readme: "Two node processes write here at once.",
        schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "who", type: "string" }] },
      }),
    });
    assertEquals(create.status, 201);
    await create.body?.cancel();
    const answers: Json[] = await Promise.all(Array.from({ length: 50 }, async (_, c) => {
      const res = await fetch(`${nodes[c % 2].url}/projects/shared/contribute`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ records: Array.from({ length: 10 }, (_, i) => ({ id: c * 10 + i, who: `c${c}` })) }),
      });
      return { http: res.status, ...(await res.json()) };
    }));
    assertEquals(answers.filter((a) => a.http !== 201 || a.status !== "merged").map((a) => a.error ?? a.verdict), []);
    assertEquals(answers.map((a) => a.acceptedCount), Array(50).fill(10));
    const versions = answers.map((a) => a.mergedVersion).sort((a, b) => a - b);
    assertEquals(versions, Array.from({ length: 50 }, (_, i) => i + 1), "each merge made its own version");
    for (const node of nodes) {
      const page: Json = await (await fetch(`${node.url}/projects/shared/data?limit=1000`)).json();
      assertEquals(page.version, 50);
      assertEquals(
        page.records.map((r: Json) => r.id).sort((a: number, b: number) => a - b),
        Array.from({ length: 500 }, (_, i) => i),
      );
    }
  } finally {
    for (const node of nodes) {
      node.child.kill("SIGTERM");
      await node.status;
    }
    await dir.cleanup();
  }
});
