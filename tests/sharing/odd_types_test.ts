/**
 * A version whose columns have no Spark type of their own (a DuckDB
 * `UNION`, which Parquet holds as a group with a child named "", a `TIME`,
 * an `INTERVAL`) is still shared: its metadata and query answers carry a
 * schema (`string` for those columns), hints on them are answered, and the
 * files listed are the version's.
 */
import { assertEquals } from "../support/assert.ts";
import { DeltaSharingClient } from "../support/delta_sharing_client.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import { serveNode } from "../../server.ts";

const ODD = `SELECT i::INTEGER AS id,
    (CASE WHEN i % 2 = 0 THEN (i::INTEGER)::UNION(n INTEGER, s VARCHAR) ELSE 'x'::UNION(n INTEGER, s VARCHAR) END) AS u,
    TIME '00:00:00' + INTERVAL (i) SECOND AS t,
    INTERVAL (i) DAY AS span,
    [(i::INTEGER)::UNION(n INTEGER, s VARCHAR)] AS us
  FROM range(0, 20) r(i)`;

Deno.test("a version with UNION, TIME and INTERVAL columns is shared with string for them, hints and all", async () => {
  const dir = await tempDir("svc-ds-odd-");
  const writer = new StoreWriter(dir.path);
  try {
    await writer.version("odd", 1, { parts: [{ sql: ODD }, { sql: ODD.replace("range(0, 20)", "range(20, 30)") }] });
  } finally {
    writer.close();
  }
  const serving = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null, log: null });
  try {
    const client = new DeltaSharingClient({ shareCredentialsVersion: 1, endpoint: `${serving.url}/delta-sharing` });
    const meta = await client.metadata("svc", "default", "odd");
    const schema = JSON.parse(meta.metaData.schemaString as string);
    assertEquals(schema.fields.map((f: { name: string; type: unknown }) => [f.name, f.type]), [
      ["id", "integer"],
      ["u", "string"],
      ["t", "string"],
      ["span", "string"],
      ["us", { type: "array", elementType: "string", containsNull: true }],
    ]);
    const every = await client.query("svc", "default", "odd", {});
    assertEquals(every.files.length, 2);
    assertEquals(every.metaData.schemaString, meta.metaData.schemaString);
    const hinted = await client.query("svc", "default", "odd", {
      predicateHints: ["u = 1", "t > '00:00:05'"],
      jsonPredicateHints: JSON.stringify({
        op: "equal",
        children: [{ op: "column", name: "u", valueType: "int" }, { op: "literal", value: "1", valueType: "int" }],
      }),
    });
    assertEquals(hinted.files.length, 2, "a hint on a column without statistics leaves every file in");
    const changes = await client.raw("GET", "/shares/svc/schemas/default/tables/odd/changes?startingVersion=1");
    assertEquals(changes.status, 200, await changes.clone().text());
    await changes.body?.cancel();
  } finally {
    await serving.shutdown();
    await dir.cleanup();
  }
});
