/**
 * The pages of the interface, by address, and how each is drawn: the same
 * for the node, which answers them as HTML (the data in the page, readable
 * without a script), and for the browser script, which draws them from the
 * JSON API as the reader moves about.
 *
 * `/` (projects), `/ui/mcp`, `/p/{slug}[?version=N]`, `/p/{slug}/data?...`
 * (records: a view with filters, search, sort, facets and paging, see
 * `state.ts`), `/p/{slug}/record?...&offset=N` (one record of such a view),
 * `/p/{slug}/statistics[?version=N]`, `/p/{slug}/diff?from=&to=` (what
 * versions added) and `/p/{slug}/sql[?version=N&sql=...]` (the SQL box,
 * the script's alone).
 *
 * @module
 */
import { h, type VNode } from "./html.ts";
import { type Api, ApiError, errorBox, type NodeFacts, SLUG } from "./common.ts";
import { dataView, type Drawn, recordView } from "./data.ts";
import { diffView } from "./diff.ts";
import { projectView } from "./project.ts";
import { mcpView, projectsView } from "./projects.ts";
import { statisticsView } from "./statistics.ts";

/** A page of the interface: its name, its project, and its parameters. */
export interface PageRoute {
  /** `projects`, `mcp`, `project`, `data`, `record`, `statistics`, `diff`, `sql`, or `missing`. */
  name: string;
  /** The project, for a project's pages. */
  slug?: string;
  /** The address's parameters. */
  params: URLSearchParams;
}

/** The pages of a project, after `/p/{slug}`. */
export const PROJECT_PAGES: readonly string[] = ["data", "record", "statistics", "diff", "sql"];

/**
 * The page at `pathname` with `search`: `missing` when there is none.
 *
 * @example
 * ```ts
 * import { pageRoute } from "./routes.ts";
 * pageRoute("/p/cities/data", "?sort=name").name; // "data"
 * pageRoute("/p/Cities", "").name; // "missing"
 * ```
 */
export function pageRoute(pathname: string, search: string): PageRoute {
  const params = new URLSearchParams(search);
  const s = pathname.split("/").filter((x) => x !== "");
  if (s.length === 0) return { name: "projects", params };
  if (s.length === 2 && s[0] === "ui" && s[1] === "mcp") return { name: "mcp", params };
  if (s[0] === "p" && SLUG.test(s[1] || "")) {
    if (s.length === 2) return { name: "project", slug: s[1], params };
    if (s.length === 3 && PROJECT_PAGES.includes(s[2])) return { name: s[2], slug: s[1], params };
  }
  return { name: "missing", params };
}

/**
 * Whether `pathname` is a page of the interface (a link to anything else
 * goes where it goes: the API, a download).
 *
 * @example
 * ```ts
 * import { isPagePath } from "./routes.ts";
 * isPagePath("/p/cities/data"); // true
 * isPagePath("/projects/cities/data"); // false
 * ```
 */
export function isPagePath(pathname: string): boolean {
  return pathname === "/" || pathname === "/ui/mcp" || /^\/p\/[^/]+/.test(pathname);
}

/**
 * The address of `hash`, a link of the interface before it had addresses
 * (`#/p/cities/data?...`, `#/projects/cities`, `#/mcp`), or null when it is
 * none.
 *
 * @example
 * ```ts
 * import { fromFragment } from "./routes.ts";
 * fromFragment("#/p/cities/data?sort=name"); // "/p/cities/data?sort=name"
 * fromFragment("#/mcp"); // "/ui/mcp"
 * fromFragment("#readme"); // null
 * ```
 */
export function fromFragment(hash: string): string | null {
  if (!hash.startsWith("#/")) return null;
  const address = hash.slice(1).replace(/^\/projects\//, "/p/");
  return address === "/mcp" || address.startsWith("/mcp?") ? "/ui/mcp" : address;
}

/** What drawing a page needs besides the API: what the node said of itself, and its origin (for the MCP page). */
export interface PageContext {
  /** The node's facts (`GET /healthz`). */
  node: NodeFacts;
  /** The node's origin as the reader reaches it. */
  origin: string;
}

/** `/p/{slug}/sql`: the SQL box is the script's; a reader without one gets the way to the API. */
function sqlShell(slug: string): Drawn {
  return {
    title: slug + " · SQL",
    body: [
      h("h1", {}, [h("a", { href: "/p/" + slug, text: slug }), " · SQL"]),
      h("p", { class: "muted", id: "sql-needs-script" }, [
        "The SQL box runs in the page's script. Without one, POST a statement to ",
        h("code", { text: "/projects/" + slug + "/query" }),
        ' as {"sql": "SELECT ..."}.',
      ]),
    ],
  };
}

/** The ways back from a page that failed (`back`: the page before, when known). */
function wayBack(route: PageRoute, back: string | null): VNode {
  const here = route.slug;
  const version = route.params.get("version");
  const q = version && /^\d{1,15}$/.test(version) ? "?version=" + version : "";
  const viewed = here && (route.name === "data" || route.name === "record") &&
    [...route.params.keys()].some((k) => k !== "version");
  return h("p", { class: "links way-back", id: "way-back" }, [
    back ? h("a", { href: back, id: "back", text: "← Back to the previous view" }) : null,
    viewed
      ? h("a", { href: "/p/" + here + "/data" + q, id: "plain-records", text: "The records without filters" })
      : null,
    here && route.name !== "project" ? h("a", { href: "/p/" + here, id: "to-project", text: "Project " + here }) : null,
    h("a", { href: "/", id: "to-projects", text: "All projects" }),
  ]);
}

/**
 * The page of `route` failing with `e` (null: the page does not exist):
 * what went wrong and the ways back; `back` is the page before, when known.
 */
export function errorView(route: PageRoute, e: unknown | null, back: string | null): Drawn {
  if (e === null) {
    return {
      title: "Not found",
      body: [
        h("h1", { id: "error-title", text: "Not found" }),
        h("p", { text: "This page does not exist." }),
        wayBack(route, back),
      ],
    };
  }
  const status = e instanceof ApiError ? e.status : 0;
  const title = status === 404 ? "Not found" : status >= 400 && status < 500 ? "Cannot show this" : "Error";
  return { title, body: [h("h1", { id: "error-title", text: title }), errorBox(e), wayBack(route, back)] };
}

/** Draws `route` from the API (`api`); throws an `ApiError` when a read it needs fails. */
export async function drawPage(route: PageRoute, api: Api, ctx: PageContext): Promise<Drawn> {
  const { slug, params } = route;
  switch (route.name) {
    case "projects":
      return await projectsView(api, ctx.node);
    case "mcp":
      return mcpView(ctx.origin, ctx.node);
    case "project":
      return await projectView(api, slug!, params, ctx.node);
    case "data":
      return await dataView(api, slug!, params);
    case "record":
      return await recordView(api, slug!, params);
    case "statistics":
      return await statisticsView(api, slug!, params);
    case "diff":
      return await diffView(api, slug!, params);
    case "sql":
      return sqlShell(slug!);
  }
  return errorView(route, null, null);
}
