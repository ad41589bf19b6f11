/**
 * The SQL box of a project (`/p/{slug}/sql?version=N&limit=L&sql=...`):
 * one read-only statement over a version, the version's columns beside the
 * editor (a click puts the quoted name at the cursor), and downloads of the
 * result. A run puts the statement in the address, so the address is a
 * link to the query; opening such a link fills the editor and runs it.
 *
 * @module
 */
import { type ProjectDetail, type QueryAnswer, WIRE_LIMITS } from "../../../wire/mod.ts";
import { ApiError, intParam, projectPath, tabHref, tabs } from "../views/mod.ts";
import { api, errorBox, h, mount, table } from "./dom.ts";

/** Rows asked for unless the fragment says otherwise. */
const ROWS = WIRE_LIMITS.rows.default;
const MAX_ROWS = WIRE_LIMITS.rows.max;

/** The fields of the SQL form. */
interface SqlFields {
  sql: HTMLTextAreaElement;
  version: HTMLSelectElement;
  limit: HTMLInputElement;
  columns: HTMLElement;
  result: HTMLElement;
}

/** The body of a query: the statement, the version and the rows asked for. */
interface QueryBody {
  sql: string;
  version?: number;
  limit?: number;
}

function bodyOf(f: SqlFields): QueryBody {
  return { sql: f.sql.value, version: Number(f.version.value) || undefined, limit: Number(f.limit.value) || undefined };
}

/** The address naming the form's query. */
function sqlAddress(slug: string, f: SqlFields): string {
  const extra: [string, string][] = [];
  const limit = Number(f.limit.value);
  if (limit && limit !== ROWS) extra.push(["limit", String(limit)]);
  extra.push(["sql", f.sql.value]);
  return tabHref(slug, "sql", Number(f.version.value) || null, extra);
}

function fileName(disposition: string | null, fallback: string): string {
  const m = /filename="?([\w.-]{1,200})"?/.exec(disposition || "");
  return m ? m[1] : fallback;
}

/** Downloads the result of `body` in `format` (fetched, then saved from a Blob), saying how in `status`. */
async function download(slug: string, body: QueryBody, format: string, status: HTMLElement): Promise<void> {
  status.setAttribute("data-state", "running");
  status.replaceChildren("Preparing " + format + "…");
  try {
    const res = await fetch(projectPath(slug, "/query?format=" + encodeURIComponent(format)), {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) {
      const answer = await res.json().catch(() => null) as { error?: unknown } | null;
      throw new ApiError(res.status, typeof answer?.error === "string" ? answer.error : "HTTP " + res.status);
    }
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = fileName(res.headers.get("content-disposition"), slug + "-query." + format);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.replaceChildren("Downloaded " + a.download + " (" + blob.size + " bytes).");
    status.setAttribute("data-bytes", String(blob.size));
    status.setAttribute("data-state", "ok");
  } catch (e) {
    status.replaceChildren(errorBox(e));
    status.setAttribute("data-state", "error");
  }
}

function downloadButtons(slug: string, body: QueryBody): HTMLElement {
  const status = h("span", { id: "sql-download-status", class: "muted", role: "status" });
  const formats: [string, string][] = [["csv", "CSV"], ["json", "JSON"], ["jsonl", "JSON lines"], [
    "parquet",
    "Parquet",
  ]];
  return h("p", { id: "sql-downloads", class: "row" }, [
    h("span", { class: "muted", text: "Download this result:" }),
    ...formats.map(([format, label]) =>
      h("button", {
        type: "button",
        class: "quiet",
        "data-format": format,
        on: { click: () => download(slug, body, format, status) },
        text: label,
      })
    ),
    status,
  ]);
}

/** Runs the form's statement and shows its rows (or its error) in `result`. */
async function runSql(slug: string, f: SqlFields, run: number): Promise<void> {
  f.result.setAttribute("data-state", "running");
  f.result.replaceChildren(h("p", { class: "muted", text: "Running…" }));
  const body = bodyOf(f);
  let shown: HTMLElement[];
  try {
    const r = await api<QueryAnswer>(projectPath(slug, "/query"), {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const summary = r.count + (r.count === 1 ? " row" : " rows") + (r.truncated ? " (truncated)" : "") +
      " · v" + r.version + " · " + r.ms + " ms";
    shown = [
      h("p", { class: "muted", id: "sql-summary", text: summary }),
      table("sql-table", r.columns, r.types, r.rows),
      downloadButtons(slug, body),
    ];
    f.result.setAttribute("data-state", "ok");
  } catch (e) {
    shown = [errorBox(e)];
    f.result.setAttribute("data-state", "error");
  }
  f.result.replaceChildren(...shown);
  f.result.setAttribute("data-run", String(run));
}

/** Puts `name`, quoted as an SQL identifier, at the editor's cursor. */
function insertName(sql: HTMLTextAreaElement, name: string): void {
  sql.setRangeText('"' + name.replaceAll('"', '""') + '"', sql.selectionStart, sql.selectionEnd, "end");
  sql.focus();
}

/** Lists the columns of the chosen version (`DESCRIBE records`) beside the editor. */
async function listColumns(slug: string, f: SqlFields): Promise<void> {
  const list = h("ul", { class: "columns" });
  f.columns.replaceChildren(h("h2", { text: "Columns of v" + f.version.value }), list);
  f.columns.setAttribute("data-state", "loading");
  try {
    const r = await api<QueryAnswer>(projectPath(slug, "/query"), {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ sql: "DESCRIBE records", version: Number(f.version.value) || undefined }),
    });
    const name = r.columns.indexOf("column_name");
    const type = r.columns.indexOf("column_type");
    for (const row of r.rows) {
      const column = String(row[name]);
      list.appendChild(h("li", {}, [
        h("button", {
          type: "button",
          class: "column",
          "data-name": column,
          title: "Insert the quoted name",
          on: { click: () => insertName(f.sql, column) },
          text: column,
        }),
        h("span", { class: "type", text: String(row[type]) }),
      ]));
    }
    f.columns.setAttribute("data-state", "ok");
  } catch (e) {
    f.columns.appendChild(errorBox(e));
    f.columns.setAttribute("data-state", "error");
  }
}

function sqlForm(slug: string, f: SqlFields, submit: (event: Event) => void): HTMLElement {
  const form = h("form", { class: "sql", id: "sql-form", on: { submit } }, [
    f.sql,
    h("div", { class: "row" }, [
      h("label", {}, ["Version ", f.version]),
      h("label", {}, ["Rows ", f.limit]),
      h("button", { type: "submit", id: "run", text: "Run" }),
    ]),
  ]);
  f.sql.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });
  f.version.addEventListener("change", () => listColumns(slug, f));
  return form;
}

/** `/p/{slug}/sql[?version=N][&limit=L][&sql=...]`: one read-only statement over a version, run when given. */
export async function viewSql(view: HTMLElement, slug: string, params: URLSearchParams): Promise<string> {
  const p = await api<ProjectDetail>(projectPath(slug));
  const latest = p.localVersions[0] || 0;
  const chosen = intParam(params, "version", latest, 1, Number.MAX_SAFE_INTEGER);
  const shared = params.get("sql");
  view.appendChild(h("h1", {}, [h("a", { href: "/p/" + slug, text: p.title }), " · SQL"]));
  view.appendChild(mount(tabs(slug, chosen || null, "sql")));
  view.appendChild(h("p", { class: "muted" }, [
    "One read-only statement over the table ",
    h("code", { text: "records" }),
    " (SELECT, WITH, FROM, VALUES, DESCRIBE or SUMMARIZE). Ctrl+Enter runs it; the address then links to the query.",
  ]));
  const f: SqlFields = {
    sql: h("textarea", { id: "sql", name: "sql", spellcheck: "false", maxlength: "4000" }),
    version: h(
      "select",
      { id: "version" },
      p.localVersions.map((n) => h("option", { value: String(n), text: "v" + n })),
    ),
    limit: h("input", { id: "limit", type: "number", min: "1", max: String(MAX_ROWS) }),
    columns: h("aside", { id: "columns", class: "columns" }),
    result: h("div", { id: "sql-result", "data-run": "0" }),
  };
  f.sql.value = shared ?? "SELECT * FROM records LIMIT 20";
  f.version.value = String(chosen);
  f.limit.value = String(intParam(params, "limit", ROWS, 1, MAX_ROWS));
  let runs = 0;
  const submit = (event: Event) => {
    event.preventDefault();
    const address = sqlAddress(slug, f);
    if (location.pathname + location.search !== address) {
      history.pushState(null, "", address);
      document.getElementById("main")?.setAttribute("data-ready", location.pathname + location.search);
    }
    return runSql(slug, f, ++runs);
  };
  view.appendChild(h("div", { class: "sql-layout" }, [sqlForm(slug, f, submit), f.columns]));
  view.appendChild(f.result);
  const columns = listColumns(slug, f);
  if (shared !== null && shared.trim() !== "") await runSql(slug, f, ++runs);
  await columns;
  return p.title + " · SQL";
}
