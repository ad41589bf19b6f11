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

function text(body: Record<string, unknown>, key: string, min: number, max: number): string {
  const v = body[key];
  if (typeof v !== "string" || [...v].length < min || [...v].length > max) {
    throw new RangeError(`body/${key} must be a string of ${min}-${max} characters`);
  }
  return v;
}

function schemaDef(value: unknown): SchemaDef {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new RangeError("body/schemaDef must be an object");
  }
  const { fields, allowExtra, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new RangeError(`body/schemaDef must NOT have additional property '${unknown[0]}'`);
  if (!Array.isArray(fields) || fields.length < 1 || fields.length > 40) {
    throw new RangeError("body/schemaDef/fields must have 1-40 fields");
  }
  const names = new Set<string>();
  const out: SchemaField[] = fields.map((f, i) => {
    if (!f || typeof f !== "object" || Array.isArray(f)) {
      throw new RangeError(`body/schemaDef/fields/${i} must be an object`);
    }
    const { name, type, required, ...more } = f as Record<string, unknown>;
    const extra = Object.keys(more);
    if (extra.length > 0) {
      throw new RangeError(`body/schemaDef/fields/${i} must NOT have additional property '${extra[0]}'`);
    }
    if (typeof name !== "string" || !FIELD_NAME.test(name)) {
      throw new RangeError(`body/schemaDef/fields/${i}/name must match ${FIELD_NAME.source}`);
    }
    if (names.has(name)) throw new RangeError(`body/schemaDef/fields: "${name}" is named twice`);
    names.add(name);
    if (typeof type !== "string" || !TYPES.includes(type)) {
      throw new RangeError(`body/schemaDef/fields/${i}/type must be one of ${TYPES.join(", ")}`);
    }
    if (required !== undefined && typeof required !== "boolean") {
      throw new RangeError(`body/schemaDef/fields/${i}/required must be boolean`);
    }
    return required === false ? { name, type, required: false } : { name, type };
  });
  if (allowExtra !== undefined && typeof allowExtra !== "boolean") {
    throw new RangeError("body/schemaDef/allowExtra must be boolean");
  }
  return { fields: out, allowExtra: allowExtra === true };
}

/**
 * Checks a creation request and fills in defaults; throws `RangeError` with
 * the origin's message for the first problem.
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
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new RangeError("body must be a JSON object");
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) throw new RangeError(`body must NOT have additional property '${unknown[0]}'`);
  if (typeof b.slug !== "string" || !SLUG_PATTERN.test(b.slug)) {
    throw new RangeError(`body/slug must match pattern "${SLUG_PATTERN.source}"`);
  }
  const license = b.license === undefined ? "platform-standard" : text(b, "license", 1, 60);
  const tags = b.tags ?? [];
  if (!Array.isArray(tags) || tags.length > 8 || !tags.every((t) => typeof t === "string" && TAG.test(t))) {
    throw new RangeError(`body/tags must be up to 8 tags matching ${TAG.source}`);
  }
  if (b.access !== undefined && b.access !== "public") throw new RangeError("body/access must be public on a node");
  const visibility = b.visibility ?? "private";
  if (visibility !== "public" && visibility !== "private") {
    throw new RangeError("body/visibility must be public or private");
  }
  return {
    slug: b.slug,
    title: text(b, "title", 4, 140),
    readme: text(b, "readme", 20, 20_000),
    schemaDef: schemaDef(b.schemaDef),
    license,
    tags: tags as string[],
    access: "public",
    visibility,
  };
}
