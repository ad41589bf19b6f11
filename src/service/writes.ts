/**
 * A node's writes, as `POST /projects`, `POST /projects/{slug}/contribute`
 * and `GET /projects/{slug}/contributions/{id}` and MCP's `create_dataset`,
 * `contribute_records` and `contribution_status` do them: the checks a
 * request must pass, then the write itself (see `src/writes/`).
 *
 * @module
 */
import type { ServiceTable } from "./service_table.ts";
import { Buffer } from "node:buffer";
import { NodeError } from "../errors/mod.ts";
import { type ContributionView, isContributionId, LockTimeout, projectLinks, readContribution } from "../store/mod.ts";
import {
  checkNewProject,
  type ExactJson,
  isSlug,
  JSON_MAX_DEPTH,
  namedAlikeButForCase,
  nestsDeeperThan,
  type SchemaDef,
  stableStringify,
  WIRE_LIMITS,
} from "../wire/mod.ts";
import { contribute, type ContributionOutcome, createLocalProject } from "../writes/mod.ts";
import type { NodeState } from "./state.ts";
import { requireProject } from "./versions.ts";

/** Most records in one contribution. */
export const MAX_RECORDS: number = WIRE_LIMITS.records;
/** Most bytes of records in one contribution. */
export const MAX_BATCH_BYTES: number = WIRE_LIMITS.batchBytes;

/** A contribution's records and source, checked. */
export interface ContributionBody {
  /** 1 to {@linkcode MAX_RECORDS} records, each an object. */
  records: ExactJson[];
  /** Where they come from, up to 500 characters, or null. */
  sourceDeclaration: string | null;
}

/**
 * Refuses any write on a read-only node (method-not-allowed).
 *
 * @example
 * ```ts
 * import { refuseOnReadOnly } from "./writes.ts";
 * refuseOnReadOnly({ readOnly: false }); // nothing
 * ```
 */
export function refuseOnReadOnly(state: Pick<NodeState, "readOnly">): void {
  if (state.readOnly) throw new NodeError("method-not-allowed", "this node is read-only: it takes no writes");
}

/**
 * Creates the local project that `input` (a request body) describes; its
 * answer as `POST /projects` gives it.
 */
export async function createProject(state: NodeState, input: unknown): Promise<Record<string, unknown>> {
  refuseOnReadOnly(state);
  let project;
  try {
    project = checkNewProject(input);
  } catch (e) {
    if (e instanceof RangeError) throw new NodeError("bad-request", e.message);
    throw e;
  }
  await createLocalProject(state, project);
  return { id: null, slug: project.slug, visibility: project.visibility, local: true };
}

/**
 * Checks a contribution's body: an object with 1-500 records (objects, at
 * most 512 KiB together) and an optional source of up to 500 characters.
 *
 * @example
 * ```ts
 * import { checkContribution } from "./writes.ts";
 * checkContribution({ records: [{ id: 1 }] }).records.length; // 1
 * ```
 */
export function checkContribution(body: ExactJson): ContributionBody {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new NodeError("bad-request", "body must be a JSON object");
  }
  // A body parsed by the HTTP route is already held to this; an MCP tool's arguments come through JSON.parse.
  if (nestsDeeperThan(body, JSON_MAX_DEPTH)) {
    throw new NodeError("bad-request", `body nests JSON deeper than ${JSON_MAX_DEPTH} levels, the limit`);
  }
  const { records, sourceDeclaration, ...rest } = body;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new NodeError("bad-request", `body must NOT have additional property '${unknown[0]}'`);
  if (!Array.isArray(records) || records.length < 1 || records.length > MAX_RECORDS) {
    throw new NodeError("bad-request", `body/records must be an array of 1-${MAX_RECORDS} records`);
  }
  const notObject = records.findIndex((r) => r === null || typeof r !== "object" || Array.isArray(r));
  if (notObject >= 0) throw new NodeError("bad-request", `body/records/${notObject} must be a JSON object`);
  if (Buffer.byteLength(stableStringify(records)) > MAX_BATCH_BYTES) {
    throw new NodeError("too-large", "records are over 512 KiB: send them in smaller batches");
  }
  if (sourceDeclaration !== undefined && sourceDeclaration !== null) {
    if (typeof sourceDeclaration !== "string" || [...sourceDeclaration].length > 500) {
      throw new NodeError("bad-request", "body/sourceDeclaration must be a string of at most 500 characters");
    }
  }
  return { records, sourceDeclaration: (sourceDeclaration as string | undefined) ?? null };
}

/**
 * The local project `slug`'s schema, refusing writes on a read-only node and
 * to a copy of an origin project.
 */
async function writableSchema(state: NodeState, slug: string): Promise<SchemaDef> {
  refuseOnReadOnly(state);
  const link = isSlug(slug) ? projectLinks(state.store.root, slug) : null;
  if (link !== null) throw new NodeError("internal", `${link} is a symbolic link: writes to ${slug} refused`);
  const meta = await state.store.meta(slug);
  if (!meta) await requireProject(state, slug);
  if (meta?.local !== true) {
    throw new NodeError(
      "method-not-allowed",
      `project ${slug} is a copy of an origin project: copies take no writes on a node`,
    );
  }
  const schema = meta.schemaDef as SchemaDef;
  const alike = namedAlikeButForCase(schema.fields.map((f) => f.name));
  if (alike !== null) {
    // Made before such schemas were refused: its records cannot be stored.
    throw new NodeError(
      "conflict",
      `project ${slug}'s schema names "${alike[0]}" and "${alike[1]}", which differ only in case: SQL takes them for ` +
        `one column, so it takes no records; make a project whose field names differ otherwise`,
    );
  }
  return schema;
}

/** Who sends a contribution and under which Idempotency-Key. */
export interface ContributionSender {
  /** The Idempotency-Key (1-200 characters), or null. */
  idempotencyKey: string | null;
  /** Who sends it, for provenance (`node-token`, `key-<16 hex>`, `anonymous`). */
  agentId: string;
}

/**
 * Contributes the body `readBody` gives (read once the project is known to
 * take writes, so a refusal does not wait on a body) to the local project
 * `slug`: the final answer, merged or rejected, and whether it replays an
 * earlier one.
 */
export async function contributeRecords(
  state: NodeState,
  slug: string,
  readBody: () => Promise<ExactJson>,
  sender: ContributionSender,
): Promise<ContributionOutcome> {
  const schema = await writableSchema(state, slug);
  const key = sender.idempotencyKey;
  if (key !== null && (key.length < 1 || key.length > 200)) {
    throw new NodeError("bad-request", "Idempotency-Key must be 1-200 characters");
  }
  const checked = checkContribution(await readBody());
  try {
    const outcome = await contribute(state, slug, schema, { ...checked, idempotencyKey: key, agentId: sender.agentId });
    if (!outcome.replayed) state.metrics?.contribution(outcome.view);
    return outcome;
  } catch (e) {
    if (e instanceof LockTimeout) throw new NodeError("unavailable", e.message, { "retry-after": "1" });
    throw e;
  }
}

/**
 * A contribution's answer by its id; not found when this node has none.
 */
export async function contributionStatus(
  state: Pick<NodeState, "store">,
  slug: string,
  id: string,
): Promise<ContributionView> {
  if (!isContributionId(id)) throw new NodeError("bad-request", "a contribution id is a UUID");
  await requireProject(state, slug);
  const view = await readContribution(state.store.root, slug, id) ?? await lastMerge(state, slug, id);
  if (!view) throw new NodeError("not-found", `contribution ${id.slice(0, 64)} is not on this node`);
  return view;
}

/** The answer of the merge that made the newest version, when it is `id` (its own file may not be written yet). */
async function lastMerge(state: Pick<NodeState, "store">, slug: string, id: string): Promise<ContributionView | null> {
  const origin = (await state.store.latest(slug))?.manifest.origin;
  return origin?.kind === "merge" && origin.contribution.id === id ? origin.contribution : null;
}

/** A contribution's answer asked again, answered by its service alone. */
export const CONTRIBUTION_SERVICES = {
  contribution: (state, input) => contributionStatus(state, input.slug, input.id),
} as const satisfies ServiceTable;
