/**
 * The interface's pages as the node answers them: `GET /`, `/ui/mcp` and
 * `/p/{slug}...` are HTML holding the page's data (what `curl`, a text
 * browser or an agent's fetch tool reads), drawn by the same views the
 * browser script draws from the JSON API; the script then enhances the
 * page. The data come from the node's own routes, called in the process
 * with the request's standing (its token was checked before this runs).
 * A view's form (`_op.COLUMN`, `_limit`, `_page`) is answered with a
 * redirect to the view it asks for.
 *
 * @module
 */
import type { NodeContext } from "../context.ts";
import type { Matched } from "../router.ts";
import { publicOrigin } from "../../http/mod.ts";
import { failureOf, healthOf } from "../../service/mod.ts";
import {
  type Api,
  ApiError,
  type Drawn,
  drawPage,
  errorView,
  formView,
  type NodeFacts,
  type PageRoute,
  pageRoute,
  toHtml,
} from "./views/mod.ts";
import { pageHtml } from "./pages.ts";

/** The node's route of a path, as its router finds it (the page's reads go through these). */
export type RouteOf = (pathname: string) => Matched | null;

/** The node's API read from inside the node: `path`'s JSON as a browser would get it, or an {@linkcode ApiError}. */
function innerApi(ctx: NodeContext, req: Request, routeOf: RouteOf): Api {
  return async <T>(path: string): Promise<T> => {
    const url = new URL(path, req.url);
    const matched = routeOf(url.pathname);
    if (matched === null) throw new ApiError(404, `not found: GET ${url.pathname}`);
    const headers = new Headers(req.headers);
    headers.set("accept", "application/json");
    let res: Response;
    try {
      const inner = new Request(url, { headers, signal: req.signal });
      res = await matched.route.run(ctx, inner, url, true, matched.params);
    } catch (e) {
      const failure = failureOf(e, `GET ${url.pathname} (page)`, ctx.log);
      throw new ApiError(failure.status, failure.message);
    }
    const body = await res.json().catch(() => null) as { error?: unknown } | null;
    if (!res.ok) throw new ApiError(res.status, typeof body?.error === "string" ? body.error : `HTTP ${res.status}`);
    return body as T;
  };
}

function htmlAnswer(body: string, status: number, headers: Record<string, string>): Response {
  return new Response(body, { status, headers: { ...headers, "content-type": "text/html; charset=utf-8" } });
}

/** The page's view name in `<main data-view>`, as the script names it too. */
function viewName(route: PageRoute, failed: boolean): string {
  return failed ? (route.name === "missing" ? "missing" : "error") : route.name;
}

/**
 * The page at `url` as HTML, for a caller the node's guards let through.
 * `headers` are the interface's (CSP and the rest); `routeOf` finds the
 * node's routes (the router's `find`).
 */
export async function getPage(
  ctx: NodeContext,
  req: Request,
  url: URL,
  routeOf: RouteOf,
  headers: Record<string, string>,
): Promise<Response> {
  const route = pageRoute(url.pathname, url.search);
  if (route.name === "data" || route.name === "record") {
    const asked = formView(route.params);
    if (asked !== null) {
      const location = url.pathname + (asked.size > 0 ? "?" + asked : "");
      return new Response(null, { status: 303, headers: { ...headers, location, "cache-control": "no-store" } });
    }
  }
  const node = await healthOf(ctx, true) as NodeFacts;
  let drawn: Drawn;
  let status = 200;
  try {
    drawn = route.name === "missing"
      ? errorView(route, null, null)
      : await drawPage(route, innerApi(ctx, req, routeOf), { node, origin: publicOrigin(req) });
    if (route.name === "missing") status = 404;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    drawn = errorView(route, e, null);
    status = e.status >= 400 ? e.status : 500;
  }
  const page = pageHtml({
    title: drawn.title,
    view: viewName(route, status !== 200),
    main: toHtml(drawn.body.filter((n) => n !== null)),
    readOnly: node.readOnly === true,
    tokenNode: node.auth === "token",
  });
  return htmlAnswer(page, status, headers);
}
