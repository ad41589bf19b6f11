/**
 * The browser interface's views, as browser JavaScript (part of
 * `/ui/app.js`, using the helpers of `script.ts`): the project list, a
 * project's page, a page of records, the SQL box and the MCP recipe. Each
 * view fills the element it is given from the JSON API and returns the page
 * title. There is no write view: the interface only reads.
 *
 * @module
 */

/**
 * The views' source: `viewProjects`, `viewProject`, `viewData`, `viewSql`
 * and `viewMcp`.
 *
 * @example
 * ```ts
 * import { VIEWS_JS } from "./views.ts";
 * VIEWS_JS.includes("function viewSql"); // true
 * ```
 */
export const VIEWS_JS = String.raw`
const PAGE = 50;

async function viewProjects(view) {
  const list = await api("/projects");
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

function signatureText(manifest) {
  const s = manifest && manifest.signature;
  if (!s || typeof s !== "object") return "unsigned";
  return "signed by " + String(s.origin) + " (key " + String(s.kid) + ")";
}

function versionRecords(p, n) {
  const v = p.versions.find((x) => x.version === n);
  const totals = v && v.manifest && v.manifest.totals;
  return totals && typeof totals.records === "number" ? totals.records : null;
}

function versionLinks(slug, n) {
  const q = "?version=" + n;
  return h("div", { class: "links" }, [
    h("a", { href: "#/p/" + slug + "/data" + q, id: "browse", text: "Browse records" }),
    h("a", { href: "#/p/" + slug + "/sql" + q, id: "sql-link", text: "SQL" }),
    h("a", { href: projectPath(slug, "/export" + q), id: "export", download: "", text: "Export v" + n + " (JSON lines, gzip)" }),
    h("a", { href: projectPath(slug, "/manifest" + q), id: "manifest", text: "Manifest (JSON)" }),
  ]);
}

async function partsOf(slug, n) {
  const box = h("div", { id: "parts" });
  try {
    const m = await api(projectPath(slug, "/manifest?version=" + n));
    const rows = (m.parts || []).map((part) =>
      h("tr", {}, [
        h("td", { class: "mono", text: String(part.sha256).slice(0, 16) + "…" }),
        h("td", { class: "num", text: String(part.records) }),
        h("td", { class: "num", text: String(part.bytes) }),
        h("td", {}, [part.url ? h("a", { href: part.url, class: "part", download: "", text: "Parquet" }) : "none"]),
      ])
    );
    box.appendChild(h("div", { class: "table-wrap" }, [
      h("table", {}, [
        h("thead", {}, [h("tr", {}, ["Part", "Records", "Bytes", "Download"].map((c) => h("th", { text: c })))]),
        h("tbody", {}, rows),
      ]),
    ]));
    if (m.urlExpiresAt) box.appendChild(h("p", { class: "muted", text: "Part links expire at " + m.urlExpiresAt + "." }));
  } catch (e) {
    box.appendChild(errorBox(e));
  }
  return box;
}

async function viewProject(view, slug, params) {
  const p = await api(projectPath(slug));
  const n = intParam(params, "version", p.localVersions[0] || 0, 0, Number.MAX_SAFE_INTEGER);
  const follow = node.follow && node.follow[slug];
  view.appendChild(h("h1", { id: "title", text: p.title }));
  view.appendChild(h("p", {}, [
    h("span", { class: "badge mono", text: p.slug }),
    h("span", { class: "badge", text: p.status }),
    // Visibility is the origin's word: on a node, whoever may read the node reads its projects.
    p.local
      ? h("span", { class: "badge", title: p.visibility + " on the origin once promoted", text: "this node's own: readable by whoever reads this node" })
      : h("span", { class: "badge", text: p.visibility + " on the origin" }),
    follow ? h("span", { class: "badge", text: "followed: " + follow.from }) : null,
  ]));
  const facts = [
    ["License", p.license],
    ["Tags", p.tags.length ? p.tags.join(", ") : "none"],
    ["Versions here", p.localVersions.length ? p.localVersions.join(", ") : "none"],
    ["Latest known", String(p.latestVersion)],
    ["Records (v" + n + ")", String(versionRecords(p, n) ?? "unknown")],
    ["Created", p.createdAt || "unknown"],
  ];
  if (follow) facts.push(["Follow", "v" + follow.version + ", signature " + follow.signature + (follow.error ? ", error: " + follow.error : "")]);
  view.appendChild(h("dl", { class: "facts", id: "facts" }, facts.flatMap((f) => [h("dt", { text: f[0] }), h("dd", { text: f[1] })])));
  if (n > 0) view.appendChild(versionLinks(slug, n));

  view.appendChild(h("h2", { text: "README" }));
  const readme = h("div", { class: "readme", id: "readme" });
  if (p.readme) readme.appendChild(mdRender(mdParse(p.readme), document));
  else readme.appendChild(h("p", { class: "muted", text: "No README." }));
  view.appendChild(readme);

  view.appendChild(h("h2", { text: "Schema" }));
  const fields = (p.schemaDef && p.schemaDef.fields) || [];
  if (fields.length === 0) view.appendChild(h("p", { class: "muted", text: "No schema declared." }));
  else {
    view.appendChild(h("div", { class: "table-wrap" }, [
      h("table", { id: "schema" }, [
        h("thead", {}, [h("tr", {}, ["Column", "Type", "Required"].map((c) => h("th", { text: c })))]),
        h("tbody", {}, fields.map((f) =>
          h("tr", {}, [
            h("td", { class: "mono", text: f.name }),
            h("td", { text: f.type }),
            h("td", { text: f.required === false ? "no" : "yes" }),
          ])
        )),
      ]),
    ]));
    view.appendChild(h("p", { class: "muted", text: p.schemaDef.allowExtra ? "Extra columns allowed." : "No extra columns." }));
  }

  view.appendChild(h("h2", { text: "Versions" }));
  const versionRows = p.versions.map((v) =>
    h("tr", {}, [
      h("td", {}, [h("a", { href: "#/p/" + slug + "?version=" + v.version, text: "v" + v.version })]),
      h("td", { text: v.createdAt }),
      h("td", { class: "num", text: String(versionRecords(p, v.version) ?? "") }),
      h("td", { class: "num", text: String((v.manifest.parts || []).length) }),
      h("td", { class: "signature", text: signatureText(v.manifest) }),
      h("td", {}, [h("a", { href: projectPath(slug, "/export?version=" + v.version), download: "", text: "export" })]),
    ])
  );
  view.appendChild(h("div", { class: "table-wrap" }, [
    h("table", { id: "versions" }, [
      h("thead", {}, [h("tr", {}, ["Version", "Created", "Records", "Parts", "Signature", ""].map((c) => h("th", { text: c })))]),
      h("tbody", {}, versionRows),
    ]),
  ]));
  if (n > 0) {
    view.appendChild(h("h2", { text: "Parts of v" + n }));
    view.appendChild(await partsOf(slug, n));
  }
  return p.title;
}

function pageHref(slug, version, offset, limit) {
  return "#/p/" + slug + "/data?version=" + version + "&offset=" + offset + "&limit=" + limit;
}

async function viewData(view, slug, params) {
  const limit = intParam(params, "limit", PAGE, 1, 1000);
  const offset = intParam(params, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
  const wanted = intParam(params, "version", null, 1, Number.MAX_SAFE_INTEGER);
  const q = "?limit=" + limit + "&offset=" + offset + (wanted ? "&version=" + wanted : "");
  const both = await Promise.all([api(projectPath(slug)), api(projectPath(slug, "/data" + q))]);
  const p = both[0];
  const page = both[1];
  const total = versionRecords(p, page.version);
  view.appendChild(h("h1", {}, [h("a", { href: "#/p/" + slug, text: p.title }), " · records"]));
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
    h("a", { id: "next", href: pageHref(slug, page.version, last, limit), "aria-disabled": hasNext ? null : "true", text: "Next →" }),
  ]);
  view.appendChild(pager);
  view.appendChild(table("records", columns, types, page.records.map((r) => columns.map((c) => r[c]))));
  return p.title + " · records";
}

async function viewSql(view, slug, params) {
  const p = await api(projectPath(slug));
  const latest = p.localVersions[0] || 0;
  const chosen = intParam(params, "version", latest, 1, Number.MAX_SAFE_INTEGER);
  view.appendChild(h("h1", {}, [h("a", { href: "#/p/" + slug, text: p.title }), " · SQL"]));
  view.appendChild(h("p", { class: "muted" }, [
    "One read-only statement over the table ",
    h("code", { text: "records" }),
    " (SELECT, WITH, FROM, VALUES, DESCRIBE or SUMMARIZE). Ctrl+Enter runs it.",
  ]));
  const sql = h("textarea", { id: "sql", name: "sql", spellcheck: "false", maxlength: "4000" });
  sql.value = "SELECT * FROM records LIMIT 20";
  const version = h("select", { id: "version" }, p.localVersions.map((n) => h("option", { value: String(n), text: "v" + n })));
  version.value = String(chosen);
  const limit = h("input", { id: "limit", type: "number", min: "1", max: "1000", value: "200" });
  const result = h("div", { id: "sql-result", "data-run": "0" });
  let runs = 0;
  async function run(event) {
    event.preventDefault();
    result.setAttribute("data-state", "running");
    result.replaceChildren(h("p", { class: "muted", text: "Running…" }));
    const body = { sql: sql.value, version: Number(version.value) || undefined, limit: Number(limit.value) || undefined };
    let shown;
    try {
      const r = await api(projectPath(slug, "/query"), {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const summary = r.count + (r.count === 1 ? " row" : " rows") + (r.truncated ? " (truncated)" : "") +
        " · v" + r.version + " · " + r.ms + " ms";
      shown = [h("p", { class: "muted", id: "sql-summary", text: summary }), table("sql-table", r.columns, r.types, r.rows)];
      result.setAttribute("data-state", "ok");
    } catch (e) {
      shown = [errorBox(e)];
      result.setAttribute("data-state", "error");
    }
    result.replaceChildren(...shown);
    result.setAttribute("data-run", String(++runs));
  }
  const form = h("form", { class: "sql", id: "sql-form", on: { submit: run } }, [
    sql,
    h("div", { class: "row" }, [
      h("label", {}, ["Version ", version]),
      h("label", {}, ["Rows ", limit]),
      h("button", { type: "submit", id: "run", text: "Run" }),
    ]),
  ]);
  sql.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });
  view.appendChild(form);
  view.appendChild(result);
  return p.title + " · SQL";
}

function viewMcp(view) {
  const url = location.origin + "/mcp";
  const server = { type: "http", url: url };
  if (node.auth === "token") server.headers = { Authorization: "Bearer <your node token>" };
  const text = JSON.stringify({ mcpServers: { svc: server } }, null, 2);
  const config = h("pre", { id: "mcp-config" }, [h("code", { text: text })]);
  const status = h("span", { class: "muted", role: "status" });
  const copy = h("button", {
    type: "button",
    id: "copy",
    on: {
      click: () => {
        const done = () => status.textContent = "Copied.";
        const manual = () => {
          getSelection().selectAllChildren(config);
          status.textContent = "Selected: copy it with Ctrl+C.";
        };
        if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, manual);
        else manual();
      },
    },
    text: "Copy",
  });
  view.appendChild(h("h1", { text: "MCP" }));
  view.appendChild(h("p", {}, ["This node speaks MCP over Streamable HTTP at ", h("code", { id: "mcp-url", text: url }), "."]));
  view.appendChild(h("p", { text: "For an MCP client whose configuration has an mcpServers section:" }));
  view.appendChild(config);
  view.appendChild(h("p", { class: "row" }, [copy, status]));
  if (node.auth === "token") {
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
`;
