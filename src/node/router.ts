/**
 * Which handler answers a path, and with which methods. Paths are matched on
 * their raw segments; a segment that is not a valid slug never reaches a
 * handler (under `/projects/` it is a 404 saying what a slug may be). The
 * browser interface's pages are `/`, `/ui/...` and `/p/...`: HTML, apart
 * from the API's paths, which stay JSON.
 *
 * @module
 */
import { isSlug, notASlug } from "../wire/mod.ts";
import type { NodeContext } from "./context.ts";
import { publicOrigin } from "../http/mod.ts";

import { type ErrorKind, NodeError } from "../errors/mod.ts";
import { getData } from "./routes/data.ts";
import { getDiff } from "./routes/diff.ts";
import { getExport } from "./routes/export.ts";

import { getManifest } from "./routes/manifest.ts";
import { getPart, partUrlSigned } from "./routes/parts.ts";
import { getHealth, getProject, listProjects } from "./routes/projects.ts";
import { getMetrics, getReady } from "./routes/operations.ts";
import { postQuery } from "./routes/query.ts";
import { sharingRoute } from "./routes/sharing.ts";
import { getStatistics } from "./routes/statistics.ts";
import { getContribution, postContribution, postProject } from "./routes/writes.ts";
import { getAsset, getUiPage, isAsset, postLogin, postLogout } from "./ui/routes.ts";
import { PROJECT_PAGES } from "./ui/views/mod.ts";

/** A matched route: the methods it takes and how it answers. */
export interface Match {
  /** Methods the path answers to (HEAD goes with GET). */
  methods: readonly string[];
  /** Whether the route answers without the node token (it guards itself). */
  public: boolean;
  /** Whether the route takes an HTML form body (`application/x-www-form-urlencoded`) instead of JSON. */
  form?: boolean;
  /**
   * Whether making the answer costs memory (pages, SQL, exports, downloads,
   * statistics, diffs, contributions, MCP, Delta Sharing): such a request is
   * refused (503) while the node is at its memory budget.
   */
  costly?: boolean;
  /** Whether the request carries a credential of its own that stands for the token (a signed part URL). */
  signed?(ctx: NodeContext, url: URL): boolean;
  /** Answers the request; `authed` says whether it carried the node token (or the login cookie, from the node's own page). */
  run(ctx: NodeContext, req: Request, url: URL, authed: boolean): Promise<Response>;
}

const READ = ["GET", "HEAD"];
const READ_OR_CREATE = ["GET", "HEAD", "POST"];

function refuse(kind: ErrorKind, message: string): Match["run"] {
  return () => Promise.reject(new NodeError(kind, message));
}

/** A page of the browser interface: HTML holding its data (the login page for a browser without the token). */
function uiPage(costly: boolean): Match {
  return {
    methods: READ,
    public: true,
    costly,
    run: (ctx, req, url, authed) => getUiPage(ctx, req, url, authed, match),
  };
}

/** The browser interface's routes under `/ui/`. */
function uiRoute(name: string): Match | null {
  if (name === "mcp") return uiPage(false);
  if (isAsset(name)) return { methods: READ, public: true, run: (_ctx, req) => Promise.resolve(getAsset(req, name)) };
  if (name === "login") return { methods: ["POST"], public: true, form: true, run: postLogin };
  if (name === "logout") {
    return { methods: ["POST"], public: true, form: true, run: (ctx, req) => Promise.resolve(postLogout(ctx, req)) };
  }
  return null;
}

const PUSH_REFUSED = "push is not available on a node: send batches with POST /projects/{slug}/contribute";
const BUY_REFUSED = "a node sells nothing: buy on the origin";

/**
 * The route for `pathname`, or null when the node does not serve it.
 *
 * @example
 * ```ts
 * import { match } from "./router.ts";
 * match("/projects/cities/data")?.methods; // ["GET", "HEAD"]
 * match("/etc/passwd"); // null
 * ```
 */
export function match(pathname: string): Match | null {
  const s = pathname.split("/").slice(1);
  if (s.length === 1 && s[0] === "") return uiPage(false);
  if (s[0] === "p" && s.length >= 2) return uiPage(true);
  if (s.length === 2 && s[0] === "ui") return uiRoute(s[1]);
  if (s.length === 1 && s[0] === "healthz") {
    return { methods: READ, public: true, run: (ctx, _req, _url, authed) => getHealth(ctx, authed) };
  }
  if (s.length === 1 && s[0] === "readyz") {
    return { methods: READ, public: true, run: (ctx, _req, _url, authed) => getReady(ctx, authed) };
  }
  if (s.length === 1 && s[0] === "metrics") return { methods: READ, public: false, run: (ctx) => getMetrics(ctx) };
  if (s.length === 1 && s[0] === "mcp") {
    return { methods: ["POST"], public: false, costly: true, run: (ctx, req) => ctx.mcp.post(req) };
  }
  if (s[0] === "parts" && s.length === 3 && isSlug(s[1])) {
    return {
      methods: READ,
      public: true,
      signed: (ctx, url) => partUrlSigned(ctx, url, s[1], s[2]),
      run: (ctx, req) => getPart(ctx, req, s[1], s[2]),
    };
  }
  if (s[0] === "delta-sharing") {
    const route = sharingRoute(s.slice(1));
    return route ? { ...route, public: true, costly: true } : null;
  }
  if (s[0] !== "projects") return null;
  if (s.length === 1) {
    return {
      methods: READ_OR_CREATE,
      public: false,
      run: (ctx, req) => req.method === "POST" ? postProject(ctx, req) : listProjects(ctx),
    };
  }
  const slug = s[1];
  if (!isSlug(slug)) {
    // A project's route with a name that is no slug says what a slug may be; any other path is simply not found.
    const named = s.length <= 3 && /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(slug) && !/^\.+$/.test(slug);
    return named ? { methods: [], public: false, run: refuse("not-found", `not found: ${notASlug(slug)}`) } : null;
  }
  if (s.length === 2) return { methods: READ, public: false, run: (ctx) => getProject(ctx, slug) };
  if (s[2] === "push" || s[2] === "uploads") {
    return { methods: [], public: false, run: refuse("method-not-allowed", PUSH_REFUSED) };
  }
  if (s[2] === "contributions" && s.length === 4) {
    return { methods: READ, public: false, run: (ctx) => getContribution(ctx, slug, s[3]) };
  }
  if (s.length !== 3) return null;
  switch (s[2]) {
    case "data":
      return { methods: READ, public: false, costly: true, run: (ctx, req, url) => getData(ctx, req, slug, url) };
    case "statistics":
      return { methods: READ, public: false, costly: true, run: (ctx, _req, url) => getStatistics(ctx, slug, url) };
    case "manifest":
      return { methods: READ, public: false, run: (ctx, req, url) => getManifest(ctx, slug, url, publicOrigin(req)) };
    case "export":
      return { methods: READ, public: false, costly: true, run: (ctx, req, url) => getExport(ctx, req, slug, url) };
    case "query":
      return { methods: ["POST"], public: false, costly: true, run: (ctx, req) => postQuery(ctx, req, slug) };
    case "contribute":
      return { methods: ["POST"], public: false, costly: true, run: (ctx, req) => postContribution(ctx, req, slug) };
    case "diff":
      return { methods: READ, public: false, costly: true, run: (ctx, _req, url) => getDiff(ctx, slug, url) };
    case "buy":
      return { methods: [], public: false, run: refuse("method-not-allowed", BUY_REFUSED) };
  }
  return null;
}

const SHARING_NAMES: Readonly<Record<string, string>> = { shares: "{share}", schemas: "{schema}", tables: "{table}" };

/**
 * The route of a path the node serves, as a template that names no slug or
 * id (the `route` label of the metrics).
 *
 * @example
 * ```ts
 * import { routeTemplate } from "./router.ts";
 * routeTemplate("/projects/cities/data"); // "/projects/{slug}/data"
 * routeTemplate("/p/cities/statistics"); // "/p/{slug}/statistics"
 * routeTemplate("/delta-sharing/shares/svc/schemas/default/tables/cities/query");
 * // "/delta-sharing/shares/{share}/schemas/{schema}/tables/{table}/query"
 * ```
 */
export function routeTemplate(path: string): string {
  const s = path.split("/").slice(1);
  if (s[0] === "projects") {
    if (s.length >= 2) s[1] = "{slug}";
    if (s[2] === "contributions" && s.length === 4) s[3] = "{id}";
  } else if (s[0] === "p" && s.length >= 2) {
    // A page of the interface: its slug, and its kind when it is one (any other path is a page not found).
    return "/p/{slug}" +
      (s.length === 3 && PROJECT_PAGES.includes(s[2]) ? "/" + s[2] : s.length > 2 ? "/{missing}" : "");
  } else if (s[0] === "parts" && s.length === 3) {
    s[1] = "{slug}";
    s[2] = "{file}";
  } else if (s[0] === "ui" && s.length === 2 && s[1] !== "login" && s[1] !== "logout") {
    s[1] = "{asset}";
  } else if (s[0] === "delta-sharing") {
    for (let i = 2; i < s.length; i++) if (SHARING_NAMES[s[i - 1]]) s[i] = SHARING_NAMES[s[i - 1]];
  }
  return "/" + s.join("/");
}
