/**
 * Fields several operations share: a project's slug, a version, a page's
 * size and offset.
 *
 * @module
 */
import { WIRE_LIMITS } from "../wire/mod.ts";
import type { IntegerField, StringField } from "./schema.ts";

/** A project's slug (a path parameter). */
export const SLUG: StringField = {
  type: "string",
  about: "Project slug, as `list_datasets` gives it (e.g. `cities`, the example project of the README).",
};

/** A version of a project; the newest whole one when left out. */
export const VERSION = {
  type: "integer",
  min: 1,
  optional: true,
  about: "Version number; the newest whole version when left out.",
} as const satisfies IntegerField;

/** How many records a page holds. */
export const PAGE_LIMIT = {
  type: "integer",
  ...WIRE_LIMITS.page,
  about: (f: IntegerField): string => `Records in the page, ${f.min}-${f.max} (default ${f.default}).`,
} as const;

/** Records skipped before a page. */
export const OFFSET = {
  type: "integer",
  min: 0,
  default: 0,
  about: "Records to skip (default 0).",
} as const satisfies IntegerField;
