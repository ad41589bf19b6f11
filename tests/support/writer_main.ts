/**
 * A writer process for the crash tests: creates the project `notes` in the
 * store if needed, then contributes batches of five records until killed,
 * printing `merged <contribution id> <version> <batch>` after each answer.
 *
 * Usage: `deno run -A tests/support/writer_main.ts STORE FIRST_BATCH [BATCHES]`
 *
 * @module
 */
import { createNode } from "../../server.ts";

const [store, first, count] = Deno.args;
const node = await createNode({ store, host: "127.0.0.1", token: null });
const post = (path: string, body: unknown) =>
  node.handler(
    new Request(`http://127.0.0.1:8686${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
await post("/projects", {
  slug: "notes",
  title: "Crash notes",
  readme: "Written by a process that is killed at random.",
  schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }] },
});
const last = count === undefined ? Infinity : Number(first) + Number(count);
for (let batch = Number(first); batch < last; batch++) {
  const records = Array.from({ length: 5 }, (_, i) => ({ id: batch * 5 + i, text: `batch ${batch} record ${i}` }));
  const res = await post("/projects/notes/contribute", { records });
  const view = await res.json();
  if (view.status !== "merged") throw new Error(`batch ${batch}: ${JSON.stringify(view)}`);
  console.log(`merged ${view.id} ${view.mergedVersion} ${batch}`);
}
await node.close();
