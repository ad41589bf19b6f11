/**
 * A view of a version as the browser interface keeps it in the page's
 * address, named the way the data API names it (Datasette's names):
 * `version`, `COLUMN__OP=VALUE` filters, `q`, `sort` or `sort_desc`,
 * `facet` (repeatable), `limit` and `offset`.
 *
 * `/p/cities/data?version=2&population__gte=1000&q=par&sort_desc=score&facet=note&limit=100&offset=200`
 *
 * Every page address and API path here is built with `URLSearchParams`, so
 * a column name or value never reaches a URL but as an encoded parameter.
 *
 * @module
 */
import { WIRE_LIMITS } from "../../../wire/mod.ts";

/** One filter: `COLUMN__OP=VALUE`. */
export interface Filter {
  /** The column. */
  column: string;
  /** The operator (`exact`, `gte`, ...). */
  op: string;
  /** The value (comma-separated for `in`; ignored for `isnull` and `notnull`). */
  value: string;
}

/** A view of a version and the page of it shown. */
export interface ViewState {
  /** The version, or null for the newest. */
  version: number | null;
  /** Filters, all of which must hold. */
  filters: Filter[];
  /** Text searched in the string columns, `""` for none. */
  q: string;
  /** The sort, or null for the version's order. */
  sort: { column: string; desc: boolean } | null;
  /** Columns faceted by. */
  facets: string[];
  /** Records per page. */
  limit: number;
  /** Offset of the page (of the record, on a record's page). */
  offset: number;
}

/** Records per page unless the fragment says otherwise. */
export const PAGE: number = WIRE_LIMITS.browserPage.default;

/** Most records per page (the API's limit). */
export const MAX_PAGE: number = WIRE_LIMITS.browserPage.max;

/** Most facets of one view (the API's limit). */
export const MAX_FACETS: number = WIRE_LIMITS.facets;

/** The operators, as the API names them, with what the page shows. */
export const OPS: readonly { op: string; label: string }[] = [
  { op: "exact", label: "=" },
  { op: "not", label: "≠" },
  { op: "gt", label: ">" },
  { op: "gte", label: "≥" },
  { op: "lt", label: "<" },
  { op: "lte", label: "≤" },
  { op: "contains", label: "contains" },
  { op: "startswith", label: "starts with" },
  { op: "isnull", label: "is null" },
  { op: "notnull", label: "is not null" },
  { op: "in", label: "in (a,b,…)" },
];

/** Whether `op` ignores its value. */
export function valueless(op: string): boolean {
  return op === "isnull" || op === "notnull";
}

/** What the page shows for `op`. */
export function opLabel(op: string): string {
  return OPS.find((o) => o.op === op)?.label ?? op;
}

function intOf(raw: string | null, fallback: number, min: number, max: number): number {
  if (raw === null || !/^\d{1,15}$/.test(raw)) return fallback;
  return Math.min(max, Math.max(min, Number(raw)));
}

/** The view named by the fragment's `params`. */
export function readState(params: URLSearchParams): ViewState {
  const filters: Filter[] = [];
  for (const [key, value] of params) {
    const at = key.lastIndexOf("__");
    if (at > 0) filters.push({ column: key.slice(0, at), op: key.slice(at + 2), value });
  }
  const asc = params.get("sort");
  const desc = params.get("sort_desc");
  const sort = asc ? { column: asc, desc: false } : desc ? { column: desc, desc: true } : null;
  const version = intOf(params.get("version"), 0, 0, Number.MAX_SAFE_INTEGER);
  return {
    version: version > 0 ? version : null,
    filters,
    q: params.get("q") ?? "",
    sort,
    facets: [...new Set(params.getAll("facet").filter((c) => c !== ""))].slice(0, MAX_FACETS),
    limit: intOf(params.get("limit"), PAGE, 1, MAX_PAGE),
    offset: intOf(params.get("offset"), 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** What of a state goes into a URL besides the version and the view itself. */
export interface Parts {
  /** `facet=` parameters. */
  facets?: boolean;
  /** `limit` and `offset` (left out when they are the defaults, unless `always`). */
  paging?: boolean | "always";
}

/** The parameters of `s`: version, filters, q, sort, then facets and paging as asked. */
export function stateParams(s: ViewState, parts: Parts = {}): URLSearchParams {
  const out = new URLSearchParams();
  if (s.version !== null) out.append("version", String(s.version));
  for (const f of s.filters) out.append(f.column + "__" + f.op, f.value);
  if (s.q !== "") out.append("q", s.q);
  if (s.sort) out.append(s.sort.desc ? "sort_desc" : "sort", s.sort.column);
  if (parts.facets) { for (const c of s.facets) out.append("facet", c); }
  if (parts.paging) {
    if (parts.paging === "always" || s.limit !== PAGE) out.append("limit", String(s.limit));
    if (parts.paging === "always" || s.offset !== 0) out.append("offset", String(s.offset));
  }
  return out;
}

/** Whether `s` is a view rather than the version as it is: filters, a search or a sort. */
export function isView(s: ViewState): boolean {
  return s.filters.length > 0 || s.q !== "" || s.sort !== null;
}

function query(params: URLSearchParams): string {
  const text = params.toString();
  return text === "" ? "" : "?" + text;
}

/** `patch` over `s`, as a new state. */
export function withState(s: ViewState, patch: Partial<ViewState>): ViewState {
  return Object.assign({}, s, patch);
}

/**
 * The page of the records of `slug` in state `s`.
 *
 * @example
 * ```ts
 * import { dataHref, readState } from "./state.ts";
 * dataHref("cities", readState(new URLSearchParams("version=2&sort=name"))); // "/p/cities/data?version=2&sort=name"
 * ```
 */
export function dataHref(slug: string, s: ViewState): string {
  return "/p/" + slug + "/data" + query(stateParams(s, { facets: true, paging: true }));
}

/** The page of the record at `offset` of the view `s` (its page size kept for the way back). */
export function recordHref(slug: string, s: ViewState, offset: number): string {
  const params = stateParams(withState(s, { offset: 0 }), { facets: true, paging: true });
  params.append("offset", String(offset));
  return "/p/" + slug + "/record" + query(params);
}

/** The page of another tab (`""`, `statistics`, `sql`) of version `version` of `slug`, with `extra` parameters. */
export function tabHref(slug: string, tab: string, version: number | null, extra?: [string, string][]): string {
  const params = new URLSearchParams();
  if (version !== null) params.append("version", String(version));
  for (const [k, v] of extra || []) params.append(k, v);
  return "/p/" + slug + (tab === "" ? "" : "/" + tab) + query(params);
}

/**
 * The page of what versions `(from, to]` of `slug` added.
 *
 * @example
 * ```ts
 * import { diffHref } from "./state.ts";
 * diffHref("notes", 1, 3); // "/p/notes/diff?from=1&to=3"
 * ```
 */
export function diffHref(slug: string, from: number, to: number): string {
  return "/p/" + slug + "/diff" + query(new URLSearchParams({ from: String(from), to: String(to) }));
}

/**
 * The API path of the records of `slug` in state `s`: with its facets and
 * page for the page shown, or the whole view in `format` for a download.
 */
export function apiDataPath(slug: string, s: ViewState, want: { format?: string; page?: boolean }): string {
  const params = stateParams(s, { facets: !want.format, paging: want.page ? "always" : false });
  if (want.format) params.append("format", want.format);
  return "/projects/" + encodeURIComponent(slug) + "/data" + query(params);
}

/** A form's field of the filter row: the operator of column `COLUMN` is `_op.COLUMN`, its value `_value.COLUMN`. */
const ROW_FIELD = /^_(op|value)\.(.+)$/s;

/** One column's cell of the filter row, as a form sends it. */
export interface RowFilter {
  /** The column. */
  column: string;
  /** Its operator (`""` for none). */
  op: string;
  /** Its value. */
  value: string;
}

function fromRow(c: RowFilter): Filter | null {
  const op = c.op || (c.value === "" ? "" : "exact");
  if (op === "") return null;
  if (valueless(op)) return { column: c.column, op, value: "1" };
  if (c.value === "" && op !== "exact" && op !== "not") return null;
  return { column: c.column, op, value: c.value };
}

/**
 * The filters of `s` as the filter row now says: the row edits the first
 * filter of each column, adds one where a column had none, and keeps the rest.
 *
 * @example
 * ```ts
 * import { filtersFrom, readState } from "./state.ts";
 * const s = readState(new URLSearchParams("population__gte=1000"));
 * filtersFrom(s, [{ column: "population", op: "lt", value: "50" }, { column: "name", op: "", value: "Paris" }]);
 * // [{ column: "population", op: "lt", value: "50" }, { column: "name", op: "exact", value: "Paris" }]
 * ```
 */
export function filtersFrom(s: ViewState, row: RowFilter[]): Filter[] {
  const byColumn = new Map(row.map((c) => [c.column, c]));
  const seen = new Set<string>();
  const out: Filter[] = [];
  for (const f of s.filters) {
    const c = byColumn.get(f.column);
    if (!c || seen.has(f.column)) {
      out.push(f);
      continue;
    }
    seen.add(f.column);
    const edited = fromRow(c);
    if (edited) out.push(edited);
  }
  for (const c of row) {
    if (seen.has(c.column)) continue;
    const added = fromRow(c);
    if (added) out.push(added);
  }
  return out;
}

/**
 * The address a view's form asks for, in the view's own terms, or null when
 * `params` hold no form field: the filter row (`_op.COLUMN`, `_value.COLUMN`)
 * folded into the filters and the search trimmed (offset back to 0), a page
 * size (`_limit`) keeping the page's place, a page number (`_page`) as an
 * offset. The node answers such an address with a redirect to this one, and
 * the script goes there, so a form works with or without a script.
 *
 * @example
 * ```ts
 * import { formView } from "./state.ts";
 * formView(new URLSearchParams("version=1&q=+par+&_op.population=gte&_value.population=5000"))?.toString();
 * // "version=1&population__gte=5000&q=par"
 * formView(new URLSearchParams("version=1&offset=100&_limit=25"))?.toString(); // "version=1&limit=25&offset=100"
 * formView(new URLSearchParams("version=1&limit=25&_page=3"))?.toString(); // "version=1&limit=25&offset=50"
 * formView(new URLSearchParams("version=1")); // null
 * ```
 */
export function formView(params: URLSearchParams): URLSearchParams | null {
  const row = new Map<string, RowFilter>();
  const plain = new URLSearchParams();
  let limit: string | null = null;
  let page: string | null = null;
  for (const [key, value] of params) {
    const field = ROW_FIELD.exec(key);
    if (field) {
      const c = row.get(field[2]) ?? { column: field[2], op: "", value: "" };
      if (field[1] === "op") c.op = value;
      else c.value = value;
      row.set(field[2], c);
    } else if (key === "_limit") limit = value;
    else if (key === "_page") page = value;
    else plain.append(key, value);
  }
  if (row.size === 0 && limit === null && page === null) return null;
  let s = readState(plain);
  if (row.size > 0) s = withState(s, { filters: filtersFrom(s, [...row.values()]), q: s.q.trim(), offset: 0 });
  if (limit !== null && /^\d{1,4}$/.test(limit)) {
    const size = Math.min(MAX_PAGE, Math.max(1, Number(limit)));
    s = withState(s, { limit: size, offset: Math.floor(s.offset / size) * size });
  }
  if (page !== null && /^\d{1,15}$/.test(page)) s = withState(s, { offset: Math.max(0, Number(page) - 1) * s.limit });
  return stateParams(s, { facets: true, paging: true });
}

/**
 * `params` of a records page in the view's own order (version, filters,
 * search, sort, facets, page size, offset), as a link of the page writes
 * them: a form sends its fields in the order they stand.
 *
 * @example
 * ```ts
 * import { viewOrder } from "./state.ts";
 * viewOrder(new URLSearchParams("limit=25&facet=country&version=1")).toString(); // "version=1&facet=country&limit=25"
 * ```
 */
export function viewOrder(params: URLSearchParams): URLSearchParams {
  return stateParams(readState(params), { facets: true, paging: true });
}
