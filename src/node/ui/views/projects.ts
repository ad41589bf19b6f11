/**
 * The node's front page (`/`, the projects it holds) and the MCP recipe
 * (`/ui/mcp`). There is no write view: the interface only reads.
 *
 * @module
 */
import type { ProjectEntry } from "../../../wire/mod.ts";
import { h } from "./html.ts";
import type { Api, NodeFacts } from "./common.ts";
import { count } from "./format.ts";
import type { Drawn } from "./data.ts";

/** `/`: the projects on the node; `node` is what the node said of itself. */
export async function projectsView(api: Api, node: NodeFacts): Promise<Drawn> {
  const list = await api<{ projects: ProjectEntry[] }>("/projects");
  const facts = node.store === undefined ? null : h("p", {
    class: "muted",
    text: count(node.projects) + " projects, " + count(node.versions) + " versions in " + node.store +
      (node.readOnly ? " · read-only node" : ""),
  });
  if (list.projects.length === 0) {
    const empty = h("p", {}, ["No projects on this node yet: ", h("code", { text: "svc pull <slug>" }), "."]);
    return { title: "Projects", body: [h("h1", { text: "Projects" }), facts, empty] };
  }
  const rows = list.projects.map((p) =>
    h("tr", {}, [
      h("td", {}, [h("a", { href: "/p/" + p.slug, text: p.title })]),
      h("td", { class: "mono", text: p.slug }),
      h("td", { class: "num", text: count(p.records) }),
      h("td", { class: "num", text: String(p.latestVersion) }),
      h("td", { class: "num", text: count(p.localVersions) }),
      h("td", { text: p.license }),
      h("td", { text: p.local ? "local" : node.follow && node.follow[p.slug] ? "followed" : "pulled" }),
    ])
  );
  const head = ["Project", "Slug", "Records", "Latest", "Versions here", "License", "Kind"];
  return {
    title: "Projects",
    body: [
      h("h1", { text: "Projects" }),
      facts,
      h("div", { class: "table-wrap" }, [
        h("table", { id: "projects" }, [
          h("thead", {}, [h("tr", {}, head.map((c) => h("th", { scope: "col", text: c })))]),
          h("tbody", {}, rows),
        ]),
      ]),
    ],
  };
}

/** `/ui/mcp`: the configuration an MCP client needs for the node at `origin` (the script adds a copy button). */
export function mcpView(origin: string, node: NodeFacts): Drawn {
  const tokenNode = node.auth === "token";
  const url = origin + "/mcp";
  const server: { type: string; url: string; headers?: Record<string, string> } = { type: "http", url };
  if (tokenNode) server.headers = { Authorization: "Bearer <your node token>" };
  const text = JSON.stringify({ mcpServers: { svc: server } }, null, 2);
  return {
    title: "MCP",
    body: [
      h("h1", { text: "MCP" }),
      h("p", {}, ["This node speaks MCP over Streamable HTTP at ", h("code", { id: "mcp-url", text: url }), "."]),
      h("p", { text: "For an MCP client whose configuration has an mcpServers section:" }),
      h("pre", { id: "mcp-config" }, [h("code", { text })]),
      h("p", { class: "row", id: "copy-row" }),
      tokenNode
        ? h("p", {
          class: "muted",
          text: "This node has a token: put it in place of <your node token>. This page never sees the token itself.",
        })
        : null,
      h("p", { class: "muted" }, [
        "A client that only starts local processes can use a bridge: ",
        h("code", { text: "npx mcp-remote " + url }),
        ".",
      ]),
    ],
  };
}
