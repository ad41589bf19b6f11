/**
 * The browser interface's list views: the projects, a page of records, the
 * SQL box and the MCP recipe (a project's own page is in `project.ts`).
 * Each view fills the element it is given from the JSON API and returns the
 * page title. There is no write view: the interface only reads.
 *
 * @module
 */
import type { DataPage, ProjectDetail, ProjectEntry, QueryAnswer } from "../../../wire/mod.ts";
import { api, errorBox, h, intParam, projectPath, session, table } from "./dom.ts";
import { versionRecords } from "./project.ts";

const PAGE = 50;

/** `#/`: the projects on the node. */
export async function viewProjects(view: HTMLElement): Promise<string> {
  const list = await api<{ projects: ProjectEntry[] }>("/projects");
  const node = session.node;
  view.appendChild(h("h1", { text: "Projects" }));
  if (node.store !== undefined) {
    const facts = node.projects + " projects, " + node.versions + " versions in " + node.store;
    view.appendChild(h("p", { class: "muted", text: facts + (node.readOnly ? " · read-only node" : "") }));
  }
  if (list.projects.length === 0) {
    view.appendChild(h("p", {}, ["No projects on this node yet: ", h("code", { text: "svc pull <slug>" }), "."]));
    return "Projects";
  }
  const rows = list.projects.map((p) =>
    h("tr", {}, [
      h("td", {}, [h("a", { href: "#/p/" + p.slug, text: p.title })]),
      h("td", { class: "mono", text: p.slug }),
      h("td", { class: "num", text: String(p.records) }),
      h("td", { class: "num", text: String(p.latestVersion) }),
      h("td", { class: "num", text: String(p.localVersions) }),
      h("td", { text: p.license }),
      h("td", { text: p.local ? "local" : node.follow && node.follow[p.slug] ? "followed" : "pulled" }),
    ])
  );
  const head = ["Project", "Slug", "Records", "Latest", "Versions here", "License", "Kind"];
  view.appendChild(h("div", { class: "table-wrap" }, [
    h("table", { id: "projects" }, [
      h("thead", {}, [h("tr", {}, head.map((c) => h("th", { scope: "col", text: c })))]),
      h("tbody", {}, rows),
    ]),
  ]));
  return "Projects";
}

function pageHref(slug: string, version: number, offset: number, limit: number): string {
  return "#/p/" + slug + "/data?version=" + version + "&offset=" + offset + "&limit=" + limit;
}

/** The columns of a page: the schema's, then any extra key a record has. */
function pageColumns(p: ProjectDetail, page: DataPage): { columns: string[]; types: string[] } {
  const fields = (p.schemaDef && p.schemaDef.fields) || [];
  const columns = fields.map((f) => f.name);
  const types = fields.map((f) => f.type);
  for (const r of page.records) {
    for (const k of Object.keys(r)) {
      if (!columns.includes(k)) {
        columns.push(k);
        types.push("extra");
      }
    }
  }
  return { columns, types };
}

/** `#/p/{slug}/data?version=&offset=&limit=`: a page of records with a pager. */
export async function viewData(view: HTMLElement, slug: string, params: URLSearchParams): Promise<string> {
  const limit = intParam(params, "limit", PAGE, 1, 1000);
  const offset = intParam(params, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
  const wanted = intParam(params, "version", null, 1, Number.MAX_SAFE_INTEGER);
  const q = "?limit=" + limit + "&offset=" + offset + (wanted ? "&version=" + wanted : "");
  const [p, page] = await Promise.all([
    api<ProjectDetail>(projectPath(slug)),
    api<DataPage>(projectPath(slug, "/data" + q)),
  ]);
  const total = versionRecords(p, page.version);
  view.appendChild(h("h1", {}, [h("a", { href: "#/p/" + slug, text: p.title }), " · records"]));
  const { columns, types } = pageColumns(p, page);
  const last = offset + page.count;
  const range = page.count === 0
    ? "no records at offset " + offset
    : "records " + (offset + 1) + "–" + last + (total !== null ? " of " + total : "");
  const hasNext = page.count === limit && (total === null || last < total);
  const pager = h("div", { class: "pager" }, [
    h("a", {
      id: "prev",
      href: pageHref(slug, page.version, Math.max(0, offset - limit), limit),
      "aria-disabled": offset === 0 ? "true" : null,
      text: "← Previous",
    }),
    h("span", { id: "range", "data-offset": String(offset), text: "v" + page.version + " · " + range }),
    h("a", {
      id: "next",
      href: pageHref(slug, page.version, last, limit),
      "aria-disabled": hasNext ? null : "true",
      text: "Next →",
    }),
  ]);
  view.appendChild(pager);
  view.appendChild(table("records", columns, types, page.records.map((r) => columns.map((c) => r[c]))));
  return p.title + " · records";
}

/** The fields of the SQL form. */
interface SqlFields {
  sql: HTMLTextAreaElement;
  version: HTMLSelectElement;
  limit: HTMLInputElement;
  result: HTMLElement;
}

/** Runs the form's statement and shows its rows (or its error) in `result`. */
async function runSql(slug: string, f: SqlFields, run: number): Promise<void> {
  f.result.setAttribute("data-state", "running");
  f.result.replaceChildren(h("p", { class: "muted", text: "Running…" }));
  const body = {
    sql: f.sql.value,
    version: Number(f.version.value) || undefined,
    limit: Number(f.limit.value) || undefined,
  };
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
    ];
    f.result.setAttribute("data-state", "ok");
  } catch (e) {
    shown = [errorBox(e)];
    f.result.setAttribute("data-state", "error");
  }
  f.result.replaceChildren(...shown);
  f.result.setAttribute("data-run", String(run));
}

/** `#/p/{slug}/sql[?version=N]`: one read-only statement over a version. */
export async function viewSql(view: HTMLElement, slug: string, params: URLSearchParams): Promise<string> {
  const p = await api<ProjectDetail>(projectPath(slug));
  const latest = p.localVersions[0] || 0;
  const chosen = intParam(params, "version", latest, 1, Number.MAX_SAFE_INTEGER);
  view.appendChild(h("h1", {}, [h("a", { href: "#/p/" + slug, text: p.title }), " · SQL"]));
  view.appendChild(h("p", { class: "muted" }, [
    "One read-only statement over the table ",
    h("code", { text: "records" }),
    " (SELECT, WITH, FROM, VALUES, DESCRIBE or SUMMARIZE). Ctrl+Enter runs it.",
  ]));
  const fields: SqlFields = {
    sql: h("textarea", { id: "sql", name: "sql", spellcheck: "false", maxlength: "4000" }),
    version: h(
      "select",
      { id: "version" },
      p.localVersions.map((n) => h("option", { value: String(n), text: "v" + n })),
    ),
    limit: h("input", { id: "limit", type: "number", min: "1", max: "1000", value: "200" }),
    result: h("div", { id: "sql-result", "data-run": "0" }),
  };
  fields.sql.value = "SELECT * FROM records LIMIT 20";
  fields.version.value = String(chosen);
  let runs = 0;
  const submit = (event: Event) => {
    event.preventDefault();
    return runSql(slug, fields, ++runs);
  };
  const form = h("form", { class: "sql", id: "sql-form", on: { submit } }, [
    fields.sql,
    h("div", { class: "row" }, [
      h("label", {}, ["Version ", fields.version]),
      h("label", {}, ["Rows ", fields.limit]),
      h("button", { type: "submit", id: "run", text: "Run" }),
    ]),
  ]);
  fields.sql.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });
  view.appendChild(form);
  view.appendChild(fields.result);
  return p.title + " · SQL";
}

/** `#/mcp`: the configuration an MCP client needs, with a copy button. */
export function viewMcp(view: HTMLElement): string {
  const tokenNode = session.node.auth === "token";
  const url = location.origin + "/mcp";
  const server: { type: string; url: string; headers?: Record<string, string> } = { type: "http", url };
  if (tokenNode) server.headers = { Authorization: "Bearer <your node token>" };
  const text = JSON.stringify({ mcpServers: { svc: server } }, null, 2);
  const config = h("pre", { id: "mcp-config" }, [h("code", { text })]);
  const status = h("span", { class: "muted", role: "status" });
  const copied = () => status.textContent = "Copied.";
  const manual = () => {
    getSelection()?.selectAllChildren(config);
    status.textContent = "Selected: copy it with Ctrl+C.";
  };
  const copy = h("button", {
    type: "button",
    id: "copy",
    on: { click: () => navigator.clipboard ? navigator.clipboard.writeText(text).then(copied, manual) : manual() },
    text: "Copy",
  });
  view.appendChild(h("h1", { text: "MCP" }));
  view.appendChild(
    h("p", {}, ["This node speaks MCP over Streamable HTTP at ", h("code", { id: "mcp-url", text: url }), "."]),
  );
  view.appendChild(h("p", { text: "For an MCP client whose configuration has an mcpServers section:" }));
  view.appendChild(config);
  view.appendChild(h("p", { class: "row" }, [copy, status]));
  if (tokenNode) {
    view.appendChild(h("p", {
      class: "muted",
      text: "This node has a token: put it in place of <your node token>. This page never sees the token itself.",
    }));
  }
  view.appendChild(h("p", { class: "muted" }, [
    "A client that only starts local processes can use a bridge: ",
    h("code", { text: "npx mcp-remote " + url }),
    ".",
  ]));
  return "MCP";
}
