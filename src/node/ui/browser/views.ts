/**
 * The browser interface's plain views: the projects and the MCP recipe (a
 * project's own page is in `project.ts`, its records in `data.ts`, its
 * statistics in `statistics.ts`, the SQL box in `sql.ts`).
 * Each view fills the element it is given from the JSON API and returns the
 * page title. There is no write view: the interface only reads.
 *
 * @module
 */
import type { ProjectEntry } from "../../../wire/mod.ts";
import { api, h, session } from "./dom.ts";

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
