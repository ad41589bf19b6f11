/**
 * Fixtures for promote and load --push tests: a local project `notes`
 * created on a real node and written through the node's own write path.
 *
 * @module
 */
import { batch, NOTES, post } from "./local_project.ts";
import { withNode } from "./node.ts";

/**
 * Runs `fn` with a real node whose store holds the local project `notes`
 * with `batches` contributions of 10 records (ids 0 onwards).
 */
export async function withLocalNotes(
  batches: number,
  fn: (node: { url: string; store: string }) => Promise<void>,
): Promise<void> {
  await withNode({ token: null }, async (node) => {
    const created = await post(node.url, "/projects", NOTES);
    if (created.status !== 201) throw new Error(`cannot create notes: ${created.text}`);
    for (let i = 0; i < batches; i++) {
      const r = await post(node.url, "/projects/notes/contribute", batch(i));
      if (r.body.status !== "merged") throw new Error(`batch ${i} not merged: ${r.text}`);
    }
    await fn(node);
  });
}
