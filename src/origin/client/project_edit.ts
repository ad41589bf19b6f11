/**
 * A dataset's edit (origin-wire 2.5): `PATCH /projects/{slug}` with only
 * what is given; the price is sent whenever it is passed, null included
 * (back to the platform default). Never retried.
 *
 * @module
 */
import type { ProjectChanges, ProjectEdited } from "../wire/mod.ts";
import type { CallContext } from "@svc/cli/client";
import { ValueError } from "@svc/cli/client";
import { callJson } from "@svc/cli/client";
import { idPath } from "./knowledge_input.ts";

/** The fields of an edit that a null leaves unchanged (all but `price`). */
const KEPT_WHEN_NULL = ["title", "readme", "tags", "status", "trialSale"] as const;

/**
 * Changes a dataset's title, README, tags, status (`archived` is final),
 * price or trial flag, as an agent key of its maintaining operator; nothing
 * given is a `ValueError`, and nothing is sent.
 */
export async function updateProject(
  context: CallContext,
  slug: string,
  changes: ProjectChanges,
): Promise<ProjectEdited> {
  await context.needKey("update");
  const body: Record<string, unknown> = {};
  for (const key of KEPT_WHEN_NULL) {
    if (changes[key] !== undefined && changes[key] !== null) body[key] = changes[key];
  }
  if (changes.price !== undefined) body.price = changes.price;
  if (Object.keys(body).length === 0) {
    throw new ValueError("nothing to change: give title, readme, tags, status, price or trialSale");
  }
  const answer = await callJson(context.endpoint, "PATCH", `/projects/${idPath(slug)}`, JSON.stringify(body), {}, {
    retry: false,
    route: "PATCH /projects/{slug}",
  });
  return answer.body as ProjectEdited;
}
