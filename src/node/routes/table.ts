/**
 * The node's routes, drawn from the catalog: each operation answered by
 * its service through the catalog's schema (`served`), or by a route of
 * its own where HTTP asks for more (a download, a stream, a range, headers,
 * the caller's standing); then the browser interface's pages, the refusals
 * of what only the origin does, and Delta Sharing mounted with its own
 * table and error encoder.
 *
 * @module
 */
import { type Operation, type OperationName, operations } from "../../catalog/mod.ts";
import { NodeError } from "../../errors/mod.ts";
import { publicOrigin } from "../../http/mod.ts";
import { refuseOnReadOnly, serviceOf } from "../../service/mod.ts";
import { isSlug, notASlug } from "../../wire/mod.ts";
import type { NodeContext } from "../context.ts";
import { json, jsonBytes, jsonText } from "../response.ts";
import { createRouter, type Params, type RouteDecl, type Router, type RouteRun } from "../router.ts";
import { uiRoutes } from "../ui/routes.ts";
import { bodyInput, queryInput } from "./_input.ts";
import { getData } from "./data.ts";
import { getDiff } from "./diff.ts";
import { getExport } from "./export.ts";
import { getManifest } from "./manifest.ts";
import { getPart, partUrlSigned } from "./parts.ts";
import { getHealth } from "./health.ts";
import { getMetrics, getReady } from "./operations.ts";
import { postQuery } from "./query.ts";
import { sharingMount } from "./sharing.ts";
import { postContribution, postProject } from "./writes.ts";

const READ = ["GET", "HEAD"];

/** The operations HTTP answers with a route of its own. */
const ROUTES: { readonly [N in OperationName]?: RouteRun } = {
  create_project: (ctx, req) => postProject(ctx, req),
  read_page: (ctx, req, url, _authed, p) => getData(ctx, req, p.slug, url),
  manifest: (ctx, req, url, _authed, p) => getManifest(ctx, p.slug, url, publicOrigin(req)),
  query: (ctx, req, _url, _authed, p) => postQuery(ctx, req, p.slug),
  diff: (ctx, _req, url, _authed, p) => getDiff(ctx, p.slug, url),
  export: (ctx, req, url, _authed, p) => getExport(ctx, req, p.slug, url),
  contribute: (ctx, req, _url, _authed, p) => postContribution(ctx, req, p.slug),
  health: (ctx, _req, _url, authed) => getHealth(ctx, authed),
  ready: (ctx, _req, _url, authed) => getReady(ctx, authed),
  metrics: (ctx) => getMetrics(ctx),
  mcp: (ctx, req) => ctx.mcp.post(req),
  part: (ctx, req, _url, _authed, p) => getPart(ctx, req, p.slug, p.file),
};

/** Writes the answer a service gave: an object as JSON, JSON text or bytes as they are. */
function written(answer: unknown): Response {
  if (typeof answer === "string") return jsonText(answer);
  if (answer instanceof Uint8Array) return jsonBytes(answer as Uint8Array<ArrayBuffer>);
  return json(answer);
}

/** The route of an operation its service answers alone: its input parsed by the catalog's schema. */
function served(op: Operation): RouteRun {
  const service = serviceOf(op.name as OperationName) as
    | ((ctx: NodeContext, input: Record<string, unknown>) => Promise<unknown>)
    | null;
  if (service === null) throw new Error(`operation ${op.name} has neither a service nor a route`);
  return async (ctx, req, url, _authed, params) => {
    if (op.write) refuseOnReadOnly(ctx);
    const input = op.method === "GET" ? queryInput(op, url, params) : await bodyInput(op, req, url, params);
    return written(await service(ctx, input));
  };
}

/** Path parameters every route of the API holds to: a slug is one. */
const TESTS = { slug: isSlug };

function operationRoute(op: Operation): RouteDecl {
  return {
    path: op.path,
    methods: op.method === "GET" ? READ : [op.method],
    public: op.public,
    costly: op.costly,
    tests: TESTS,
    signed: op.name === "part" ? (ctx, url, p) => partUrlSigned(ctx, url, p.slug, p.file) : undefined,
    run: ROUTES[op.name as OperationName] ?? served(op),
  };
}

function refuse(kind: "not-found" | "method-not-allowed", message: (p: Params) => string): RouteRun {
  return (_ctx, _req, _url, _authed, p) => Promise.reject(new NodeError(kind, message(p)));
}

const PUSH_REFUSED = "push is not available on a node: send batches with POST /projects/{slug}/contribute";
const BUY_REFUSED = "a node sells nothing: buy on the origin";

/** A segment that reads as a project's name but is no slug: its routes say what a slug may be. */
function namedNotSlug(segment: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(segment) && !/^\.+$/.test(segment) && !isSlug(segment);
}

/** What only the origin does, refused with the reason; a project's name that is no slug, refused saying so. */
const REFUSALS: readonly RouteDecl[] = [
  ...["push", "push/{rest*}", "uploads", "uploads/{rest*}"].map((tail): RouteDecl => ({
    path: `/projects/{slug}/${tail}`,
    methods: [],
    public: false,
    tests: TESTS,
    run: refuse("method-not-allowed", () => PUSH_REFUSED),
  })),
  {
    path: "/projects/{slug}/buy",
    methods: [],
    public: false,
    tests: TESTS,
    run: refuse("method-not-allowed", () => BUY_REFUSED),
  },
  ...["/projects/{slug}", "/projects/{slug}/{name}"].map((path): RouteDecl => ({
    path,
    methods: [],
    public: false,
    tests: { slug: namedNotSlug },
    run: refuse("not-found", (p) => `not found: ${notASlug(p.slug)}`),
  })),
];

/**
 * The node's router: the catalog's operations, the browser interface, the
 * refusals, and Delta Sharing under `/delta-sharing`.
 *
 * @example
 * ```ts
 * import { NODE_ROUTER } from "./table.ts";
 * NODE_ROUTER.find("/projects/cities/data")?.route.costly; // true
 * NODE_ROUTER.find("/p/cities/statistics")?.route.template; // "/p/{slug}/statistics"
 * ```
 */
export const NODE_ROUTER: Router = createRouter([
  ...operations().map(operationRoute),
  ...uiRoutes((path) => NODE_ROUTER.find(path)),
  ...REFUSALS,
], [sharingMount()]);
