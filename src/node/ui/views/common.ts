/**
 * What the views share: the node's facts as its pages use them, the API
 * paths they read, a failed read, tables of values, and the tabs of a
 * version.
 *
 * @module
 */
import type { DataPage, Health, ProjectDetail } from "../../../wire/mod.ts";
import { h, type VNode } from "./html.ts";
import { count } from "./format.ts";
import { tabHref } from "./state.ts";

/** What `GET /healthz` said of the node: all of it for a token holder, less for others. */
export type NodeFacts = Partial<Health>;

/** A project slug, as the node's routes take it. */
export const SLUG = /^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$/;

/**
 * A read of the node's API that did not answer 2xx (status 0: no answer).
 *
 * @example
 * ```ts
 * import { ApiError } from "./common.ts";
 * new ApiError(404, 'project "x" not found on this node').status; // 404
 * ```
 */
export class ApiError extends Error {
  /** The HTTP status, or 0 when the node did not answer. */
  status: number;
  /** @param status the HTTP status @param message the node's `error` */
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Reads the node's API: the JSON at `path`, or an {@linkcode ApiError}. */
export type Api = <T>(path: string) => Promise<T>;

/**
 * The API path of project `slug`, then `rest`.
 *
 * @example
 * ```ts
 * import { projectPath } from "./common.ts";
 * projectPath("cities", "/statistics?version=2"); // "/projects/cities/statistics?version=2"
 * ```
 */
export function projectPath(slug: string, rest?: string): string {
  return "/projects/" + encodeURIComponent(slug) + (rest || "");
}

/** The integer parameter `name` of `params` within `min`..`max`, else `fallback`. */
export function intParam<F extends number | null>(
  params: URLSearchParams,
  name: string,
  fallback: F,
  min: number,
  max: number,
): number | F {
  const raw = params.get(name);
  if (raw === null || !/^\d{1,15}$/.test(raw)) return fallback;
  return Math.min(max, Math.max(min, Number(raw)));
}

/** An alert box for `e` (its status first), with a way back to the login page on a 401. */
export function errorBox(e: unknown): VNode {
  const status = e instanceof ApiError && e.status ? e.status + ": " : "";
  const message = e instanceof Error && e.message ? e.message : String(e);
  return h("div", { class: "error-box" }, [
    h("p", { class: "error", role: "alert", text: status + message }),
    e instanceof ApiError && e.status === 401 ? h("p", {}, [h("a", { href: "/", text: "Log in again" })]) : null,
  ]);
}

const NUMERIC_TYPE = /^(integer|number|u?(tiny|small|big|huge)?int(eger)?|double|float|real|decimal.*)$/i;

/** Whether `type` (a schema or DuckDB type) holds numbers. */
export function numericType(type: string | undefined): boolean {
  return NUMERIC_TYPE.test(type || "");
}

/**
 * The value of `record`'s own field `name`: a page leaves null fields out,
 * and a column may be named like a member of Object (`toString`).
 *
 * @example
 * ```ts
 * import { fieldOf } from "./common.ts";
 * fieldOf({ a: 1 }, "toString"); // undefined
 * ```
 */
export function fieldOf(record: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

/** A table cell showing `value` (of DuckDB or schema type `type`) as it is. */
export function cell(value: unknown, type: string | undefined): VNode {
  if (value === null || value === undefined) return h("td", { class: "null", text: "null" });
  if (typeof value === "object") return h("td", { class: "mono", text: JSON.stringify(value) });
  const numeric = typeof value === "number" || numericType(type);
  return h("td", { class: numeric ? "num" : null, text: String(value) });
}

/** A table `id` of `rows`, headed by `columns` with their `types`. */
export function table(id: string, columns: string[], types: string[], rows: unknown[][]): VNode {
  const head = h(
    "tr",
    {},
    columns.map((c, i) => h("th", { scope: "col" }, [c, h("span", { class: "type", text: types[i] })])),
  );
  const body = rows.map((row) => h("tr", {}, row.map((v, i) => cell(v, types[i]))));
  return h("div", { class: "table-wrap" }, [h("table", { id }, [h("thead", {}, [head]), h("tbody", {}, body)])]);
}

/**
 * The tabs of version `version` of project `slug`, `current` marked: its
 * page, its records, its statistics and the SQL box.
 */
export function tabs(slug: string, version: number | null, current: string): VNode {
  const items: [string, string, string][] = [
    ["project", "", "Project"],
    ["data", "data", "Records"],
    ["statistics", "statistics", "Statistics"],
    ["sql", "sql", "SQL"],
  ];
  return h(
    "nav",
    { class: "tabs", "aria-label": "Views of this version" },
    items.map(([name, tab, text]) =>
      h("a", {
        href: tabHref(slug, tab, version),
        "data-tab": name,
        "aria-current": name === current ? "page" : null,
        text,
      })
    ),
  );
}

/** How many records version `n` of `p` holds, or null when its manifest does not say. */
export function versionRecords(p: ProjectDetail, n: number): number | null {
  const v = p.versions.find((x) => x.version === n);
  const totals = v && v.manifest && v.manifest.totals as { records?: unknown } | undefined;
  return totals && typeof totals.records === "number" ? totals.records : null;
}

/** The columns of a page: the schema's, then any extra key a record has. */
export function pageColumns(
  p: ProjectDetail,
  page: { records: DataPage["records"] },
): { names: string[]; types: string[] } {
  const fields = (p.schemaDef && p.schemaDef.fields) || [];
  const names = fields.map((f) => f.name);
  const types = fields.map((f) => f.type);
  for (const r of page.records) {
    for (const k of Object.keys(r)) {
      if (!names.includes(k)) {
        names.push(k);
        types.push("extra");
      }
    }
  }
  return { names, types };
}

/** `n` records, counted: `1 record`, `24,323 records`. */
export function records(n: number): string {
  return count(n) + (n === 1 ? " record" : " records");
}
