/**
 * The writes: a new local project, records sent to it (contributions), and
 * a contribution's answer asked again.
 *
 * @module
 */
import { type ContributionView, WIRE_LIMITS } from "../wire/mod.ts";
import { SLUG } from "./fields.ts";
import type { Operation } from "./operation.ts";
import type { Fields } from "./schema.ts";

const SCHEMA_FIELD: Fields = {
  name: { type: "string", about: "Field name: a letter, then letters, digits or `_` (at most 61 characters)." },
  type: { type: "string", enum: ["string", "number", "integer", "boolean"], about: "" },
  required: { type: "boolean", optional: true, about: "`false` lets records leave the field out (default true)." },
};

/** What `POST /projects` takes (the node checks lengths and patterns, as the reference node does). */
const NEW_PROJECT = {
  slug: { type: "string", about: "New slug: 3-60 of a-z, 0-9 and `-`, starting and ending with a letter or digit." },
  title: { type: "string", about: "Title, 4-140 characters." },
  readme: { type: "string", about: "README (Markdown), 20-20,000 characters: what the records are and where from." },
  schemaDef: {
    type: "object",
    about: "The records' schema.",
    fields: {
      fields: {
        type: "array",
        items: { type: "object", fields: SCHEMA_FIELD, about: "" },
        minItems: 1,
        maxItems: 40,
        about: "The record fields, 1-40.",
      },
      allowExtra: {
        type: "boolean",
        optional: true,
        about: "Whether records may carry fields not listed (default false).",
      },
    },
  },
  license: { type: "string", optional: true, about: "License, up to 60 characters (default `platform-standard`)." },
  tags: {
    type: "array",
    items: { type: "string", about: "" },
    maxItems: 8,
    optional: true,
    about: "Up to 8 tags of 2-30 of a-z, 0-9 and `-`.",
  },
  visibility: {
    type: "string",
    enum: ["public", "private"],
    optional: true,
    about: "Listed publicly or not (default `private`).",
  },
} as const satisfies Fields;

/** What `POST /projects` answers on a node. */
export interface ProjectCreated {
  /** Null on a node (the origin's id once promoted). */
  id: string | null;
  /** The new project's slug. */
  slug: string;
  /** `public` or `private`. */
  visibility: string;
  /** True: a project of this node. */
  local: boolean;
  /** Anything else the origin answers. */
  [field: string]: unknown;
}

/** The writes: a new local project, records sent to one, a contribution's answer. */
export const WRITE_OPERATIONS = {
  create_project: {
    name: "create_project",
    method: "POST",
    path: "/projects",
    about: "A new local project: slug, title, README and schema, then records by contributions.",
    input: NEW_PROJECT,
    answer: undefined as unknown as ProjectCreated,
    encoding: "json",
    costly: false,
    public: false,
    write: true,
    tool: {
      name: "create_dataset",
      title: "Create dataset",
      description: "Create an empty dataset project on this node, as `POST /projects` does: its slug, title " +
        "(4-140 characters), README (20-20,000 characters) and schema (1-40 typed fields). Records are then added " +
        "with `contribute_records`. A slug already on the node is refused (409) and changes nothing.",
      guide: "`create_dataset` makes a new project on this node; records are then added with `contribute_records`.",
    },
    command: { name: "create", about: "create a project on a node or the origin", group: "datasets" },
  },
  contribute: {
    name: "contribute",
    method: "POST",
    path: "/projects/{slug}/contribute",
    about: "Records appended to a local project: gated (schema, personal data, duplicates) and merged at once.",
    input: {
      slug: SLUG,
      records: {
        type: "array",
        items: { type: "record", about: "" },
        minItems: 1,
        maxItems: WIRE_LIMITS.records,
        about: "Records as objects matching the schema.",
      },
      sourceDeclaration: {
        type: "string",
        maxLength: 500,
        optional: true,
        about: "Where the records come from.",
      },
      wait: {
        type: "integer",
        min: 0,
        max: 20,
        optional: true,
        in: "query",
        about: "Seconds the origin may wait for screening; a node's answer is always final.",
      },
    },
    answer: undefined as unknown as ContributionView,
    encoding: "json",
    costly: true,
    public: false,
    write: true,
    tool: {
      name: "contribute_records",
      title: "Contribute records",
      description: `Append 1-${WIRE_LIMITS.records} records (at most ${WIRE_LIMITS.batchBytes / 1024} KiB) to a ` +
        "project created on this node. They pass the schema, personal-data and duplicate gates and merge into a " +
        "new version at once; the answer says merged (with the version) or rejected (with the gate and reason). " +
        "Give `idempotencyKey` to make a retry safe.",
      guide: `\`contribute_records\` appends 1-${WIRE_LIMITS.records} records (at most ` +
        `${WIRE_LIMITS.batchBytes / 1024} KiB) to a project created on this node; they pass the schema, ` +
        "personal-data and duplicate gates and merge into a new version at once. Give `idempotencyKey` to make a " +
        "retry safe. Projects copied from the origin take no writes.",
      prunes: true,
      omit: ["wait"],
      extra: {
        idempotencyKey: {
          type: "string",
          minLength: 1,
          maxLength: 200,
          optional: true,
          about: "The same key with the same records within 24 hours replays the first answer.",
        },
        wait: {
          type: "boolean",
          optional: true,
          about: "Accepted for the origin's clients; a node's answer is always final.",
        },
      },
    },
    command: { name: "contribute", about: "send a JSON-lines file of records to a project", group: "datasets" },
  },
  contribution: {
    name: "contribution",
    method: "GET",
    path: "/projects/{slug}/contributions/{id}",
    about: "A contribution's answer, by the id the contribution gave.",
    input: { slug: SLUG, id: { type: "string", maxLength: 100, about: "The contribution id (a UUID)." } },
    answer: undefined as unknown as ContributionView,
    encoding: "json",
    costly: false,
    public: false,
    write: false,
    tool: {
      name: "contribution_status",
      title: "Contribution status",
      description: "A contribution's answer, by the id `contribute_records` gave.",
      writeSide: true,
    },
  },
} as const satisfies Record<string, Operation>;
