/**
 * The fields of a project created on a node (`POST /projects`), checked with
 * the origin's limits; the client runs the same check before sending.
 *
 * @module
 */
import { SLUG_PATTERN } from "./slug.ts";
import type { SchemaDef, SchemaField } from "./types.ts";

/** A valid creation request, defaults filled in. */
export interface NewProject {
  /** Project slug. */
  slug: string;
  /** 4-140 characters. */
  title: string;
  /** 20-20,000 characters. */
  readme: string;
  /** 1-40 typed fields. */
  schemaDef: SchemaDef;
  /** Any string up to 60 characters; default `platform-standard`. */
  license: string;
  /** Up to 8 tags. */
  tags: string[];
  /** Always `public` on a node. */
  access: "public";
  /** `public` or `private`; default `private`. */
  visibility: "public" | "private";
}

const KEYS = ["slug", "title", "readme", "schemaDef", "license", "tags", "access", "visibility"];
const FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9_]{0,60}$/;
const TAG = /^[a-z0-9-]{2,30}$/;
const TYPES = ["string", "number", "integer", "boolean"];

/**
 * The first two of `names` that differ only in case, or null: DuckDB, and so
 * the node's SQL and its Parquet reader, take them for one column.
 *
 * @example
 * ```ts
 * import { namedAlikeButForCase } from "./new_project.ts";
 * namedAlikeButForCase(["id", "name", "Name"]); // ["name", "Name"]
 * namedAlikeButForCase(["id", "name"]); // null
 * ```
 */
export function namedAlikeButForCase(names: readonly string[]): [string, string] | null {
  const seen = new Map<string, string>();
  for (const name of names) {
    const first = seen.get(name.toLowerCase());
    if (first !== undefined && first !== name) return [first, name];
    seen.set(name.toLowerCase(), name);
  }
  return null;
}

/** Problems found so far, each the origin's message. */
type Problems = string[];

function text(body: Record<string, unknown>, key: string, min: number, max: number, problems: Problems): string {
  const v = body[key];
  if (typeof v !== "string" || [...v].length < min || [...v].length > max) {
    problems.push(`body/${key} must be a string of ${min}-${max} characters`);
    return "";
  }
  return v;
}

function schemaField(f: unknown, i: number, names: Map<string, string>, problems: Problems): SchemaField | null {
  if (!f || typeof f !== "object" || Array.isArray(f)) {
    problems.push(`body/schemaDef/fields/${i} must be an object`);
    return null;
  }
  const before = problems.length;
  const { name, type, required, ...more } = f as Record<string, unknown>;
  const extra = Object.keys(more);
  if (extra.length > 0) problems.push(`body/schemaDef/fields/${i} must NOT have additional property '${extra[0]}'`);
  if (typeof name !== "string" || !FIELD_NAME.test(name)) {
    problems.push(`body/schemaDef/fields/${i}/name must match ${FIELD_NAME.source}`);
  } else {
    const first = names.get(name.toLowerCase());
    if (first === name) problems.push(`body/schemaDef/fields: "${name}" is named twice`);
    else if (first !== undefined) {
      problems.push(
        `body/schemaDef/fields: "${first}" and "${name}" differ only in case (SQL column names ignore case)`,
      );
    } else names.set(name.toLowerCase(), name);
  }
  if (typeof type !== "string" || !TYPES.includes(type)) {
    problems.push(`body/schemaDef/fields/${i}/type must be one of ${TYPES.join(", ")}`);
  }
  if (required !== undefined && typeof required !== "boolean") {
    problems.push(`body/schemaDef/fields/${i}/required must be boolean`);
  }
  if (problems.length > before) return null;
  return required === false ? { name: name as string, type: type as string, required: false } : {
    name: name as string,
    type: type as string,
  };
}

function schemaDef(value: unknown, problems: Problems): SchemaDef {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    problems.push("body/schemaDef must be an object");
    return { fields: [], allowExtra: false };
  }
  const { fields, allowExtra, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) problems.push(`body/schemaDef must NOT have additional property '${unknown[0]}'`);
  const out: SchemaField[] = [];
  if (!Array.isArray(fields) || fields.length < 1 || fields.length > 40) {
    problems.push("body/schemaDef/fields must have 1-40 fields");
  } else {
    const names = new Map<string, string>();
    fields.forEach((f, i) => {
      const field = schemaField(f, i, names, problems);
      if (field) out.push(field);
    });
  }
  if (allowExtra !== undefined && typeof allowExtra !== "boolean") {
    problems.push("body/schemaDef/allowExtra must be boolean");
  }
  return { fields: out, allowExtra: allowExtra === true };
}

/** The request checked: every problem found (the origin's messages, in the order of its fields) and the project. */
function checked(body: unknown): { problems: string[]; project: NewProject | null } {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return { problems: ["body must be a JSON object"], project: null };
  }
  const problems: Problems = [];
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) problems.push(`body must NOT have additional property '${unknown[0]}'`);
  if (typeof b.slug !== "string" || !SLUG_PATTERN.test(b.slug)) {
    problems.push(`body/slug must match pattern "${SLUG_PATTERN.source}"`);
  }
  const license = b.license === undefined ? "platform-standard" : text(b, "license", 1, 60, problems);
  const tags = b.tags ?? [];
  if (!Array.isArray(tags) || tags.length > 8 || !tags.every((t) => typeof t === "string" && TAG.test(t))) {
    problems.push(`body/tags must be up to 8 tags matching ${TAG.source}`);
  }
  if (b.access !== undefined && b.access !== "public") problems.push("body/access must be public on a node");
  const visibility = b.visibility ?? "private";
  if (visibility !== "public" && visibility !== "private") problems.push("body/visibility must be public or private");
  const project: NewProject = {
    slug: b.slug as string,
    title: text(b, "title", 4, 140, problems),
    readme: text(b, "readme", 20, 20_000, problems),
    schemaDef: schemaDef(b.schemaDef, problems),
    license,
    tags: tags as string[],
    access: "public",
    visibility: visibility as "public" | "private",
  };
  return { problems, project: problems.length === 0 ? project : null };
}

/**
 * Every problem of a creation request, in the origin's words (`body/title
 * must be a string of 4-140 characters`), empty when it is valid: what a
 * client reports at once rather than one a try.
 *
 * @example
 * ```ts
 * import { newProjectProblems } from "./new_project.ts";
 * newProjectProblems({ slug: "Notes", title: "x", readme: "short", schemaDef: { fields: [] } }).length; // 4
 * ```
 */
export function newProjectProblems(body: unknown): string[] {
  return checked(body).problems;
}

/**
 * Checks a creation request and fills in defaults; throws `RangeError` with
 * the origin's message for the first problem (see
 * {@linkcode newProjectProblems} for all of them).
 *
 * @example
 * ```ts
 * import { checkNewProject } from "./new_project.ts";
 * checkNewProject({
 *   slug: "notes", title: "My notes", readme: "Notes an agent keeps while it works.",
 *   schemaDef: { fields: [{ name: "text", type: "string" }] },
 * }).visibility; // "private"
 * ```
 */
export function checkNewProject(body: unknown): NewProject {
  const { problems, project } = checked(body);
  if (project === null) throw new RangeError(problems[0]);
  return project;
}
