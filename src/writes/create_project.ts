/**
 * Creating a local project: its folder and `project.json` (with `local:
 * true`), under the project's write lock so two creations of one slug
 * cannot both succeed.
 *
 * @module
 */
import { mkdir } from "node:fs/promises";
import { projectDir, projectFile, withProjectLock, writeFileAtomic } from "../store/mod.ts";
import type { NewProject } from "../wire/mod.ts";
import { NodeError } from "../errors/mod.ts";
import type { WriteTarget } from "./target.ts";

/**
 * Creates the local project `input` and returns its `project.json`.
 */
export async function createLocalProject(
  ctx: Pick<WriteTarget, "store" | "follow" | "now">,
  input: NewProject,
): Promise<Record<string, unknown>> {
  const followed = ctx.follow?.status()[input.slug];
  if (followed) {
    throw new NodeError(
      "conflict",
      `project ${input.slug} is followed from ${followed.from}; it cannot be created here`,
    );
  }
  await mkdir(projectDir(ctx.store.root, input.slug), { recursive: true });
  return await withProjectLock(ctx.store.root, input.slug, async () => {
    if (await ctx.store.project(input.slug)) {
      throw new NodeError("conflict", `project ${input.slug} already exists on this node`);
    }
    const meta = {
      ...input,
      id: null,
      local: true,
      status: "open",
      createdAt: new Date(ctx.now()).toISOString(),
      latestVersion: 0,
    };
    await writeFileAtomic(projectFile(ctx.store.root, input.slug), JSON.stringify(meta, null, 2) + "\n");
    return meta;
  });
}
