/**
 * The router: tables of routes, each declared by its path pattern
 * (`/projects/{slug}/data`; `{rest*}` takes one segment or more), compiled
 * into one tree of path segments and matched on the raw segments of the
 * path the client sent. A parameter may carry a test (a slug must be one):
 * a segment that fails it matches no route of that pattern, and the next
 * pattern is tried. A route's pattern is its metrics' route label, so the
 * label names no slug or id. A table mounted under a prefix (Delta Sharing)
 * brings its own error encoder for every failure under that prefix.
 *
 * @module
 */
import type { NodeContext } from "./context.ts";

/** The raw segments a pattern's parameters took, by name. */
export type Params = Readonly<Record<string, string>>;

/** How a route answers: `authed` says whether the request carried the node token (or the login cookie). */
export type RouteRun = (
  ctx: NodeContext,
  req: Request,
  url: URL,
  authed: boolean,
  params: Params,
) => Promise<Response>;

/** One route of a table. */
export interface RouteDecl {
  /** Its path pattern: literal segments, `{name}` for one segment, a last `{name*}` for one or more. */
  path: string;
  /** Methods it answers (HEAD goes with GET); none: it refuses every method itself. */
  methods: readonly string[];
  /** Whether it answers without the node token (it guards itself). */
  public: boolean;
  /** Whether making the answer costs memory: refused (503) while the node is at its memory budget. */
  costly?: boolean;
  /** Whether it takes an HTML form body (`application/x-www-form-urlencoded`) instead of JSON. */
  form?: boolean;
  /** Tests a parameter's segment must pass for the route to match, by parameter name. */
  tests?: Readonly<Record<string, (segment: string) => boolean>>;
  /** The metrics' route label, when it is not the pattern itself. */
  label?: string;
  /** Whether the request carries a credential of its own that stands for the token (a signed part URL). */
  signed?(ctx: NodeContext, url: URL, params: Params): boolean;
  /** Answers the request. */
  run: RouteRun;
}

/** A path the router serves: the routes of its pattern, merged over their methods. */
export interface Route {
  /** The metrics' route label: the pattern (`/projects/{slug}/data`). */
  template: string;
  /** Methods the path answers (HEAD goes with GET); none: it refuses every method itself. */
  methods: readonly string[];
  /** Whether it answers without the node token. */
  public: boolean;
  /** Whether any of its answers costs memory. */
  costly: boolean;
  /** Whether it takes an HTML form body. */
  form: boolean;
  /** Whether the request carries a credential of its own that stands for the token. */
  signed?(ctx: NodeContext, url: URL, params: Params): boolean;
  /** Answers the request with the route of its method. */
  run: RouteRun;
}

/** A path matched: its route and the segments its parameters took. */
export interface Matched {
  /** The route. */
  route: Route;
  /** The parameters' raw segments. */
  params: Params;
}

/** How the failures under a mounted table are written. */
export type ErrorEncoder = (
  error: unknown,
  status: number,
  message: string,
  headers: Record<string, string>,
) => Response;

/** A table of routes mounted under a path prefix, with its own error encoder. */
export interface Mount {
  /** The prefix (`/delta-sharing`): the table's patterns are under it. */
  prefix: string;
  /** The table. */
  routes: readonly RouteDecl[];
  /** How every failure under the prefix is written, matched or not. */
  encodeError: ErrorEncoder;
}

interface ParamEdge {
  name: string;
  rest: boolean;
  test?: (segment: string) => boolean;
  next: Tree;
}

interface Tree {
  literal: Map<string, Tree>;
  params: ParamEdge[];
  decls: RouteDecl[];
  route: Route | null;
}

const tree = (): Tree => ({ literal: new Map(), params: [], decls: [], route: null });

/** The segments of a path or pattern: `/a/b` gives `["a", "b"]`, `/` gives `[""]`. */
function segments(path: string): string[] {
  return path.split("/").slice(1);
}

function add(root: Tree, decl: RouteDecl): void {
  let at = root;
  for (const segment of segments(decl.path)) {
    const param = /^\{([A-Za-z_]+)(\*?)\}$/.exec(segment);
    if (param === null) {
      let next = at.literal.get(segment);
      if (!next) at.literal.set(segment, next = tree());
      at = next;
      continue;
    }
    const [, name, star] = param;
    const test = decl.tests?.[name];
    let edge = at.params.find((e) => e.name === name && e.rest === (star === "*") && e.test === test);
    if (!edge) at.params.push(edge = { name, rest: star === "*", test, next: tree() });
    at = edge.next;
  }
  at.decls.push(decl);
}

function merged(decls: RouteDecl[]): Route {
  const label = decls[0].label ?? decls[0].path.replace(/\{([A-Za-z_]+)\*\}/g, "{$1}");
  if (decls.length === 1) {
    const d = decls[0];
    return {
      template: label,
      methods: d.methods,
      public: d.public,
      costly: d.costly ?? false,
      form: d.form ?? false,
      signed: d.signed,
      run: d.run,
    };
  }
  const byMethod = new Map<string, RouteDecl>();
  for (const d of decls) for (const m of d.methods) byMethod.set(m, d);
  return {
    template: label,
    methods: [...byMethod.keys()],
    public: decls.every((d) => d.public),
    costly: decls.some((d) => d.costly),
    form: decls.some((d) => d.form),
    run: (ctx, req, url, authed, params) => byMethod.get(req.method)!.run(ctx, req, url, authed, params),
  };
}

function seal(at: Tree): void {
  if (at.decls.length > 0) at.route = merged(at.decls);
  for (const next of at.literal.values()) seal(next);
  for (const edge of at.params) seal(edge.next);
}

function find(at: Tree, s: readonly string[], i: number, params: Record<string, string>): Route | null {
  if (i === s.length) return at.route;
  const literal = at.literal.get(s[i]);
  if (literal) {
    const found = find(literal, s, i + 1, params);
    if (found) return found;
  }
  for (const edge of at.params) {
    if (edge.rest) {
      if (edge.next.route === null || (edge.test && !edge.test(s[i]))) continue;
      params[edge.name] = s.slice(i).join("/");
      return edge.next.route;
    }
    if (edge.test && !edge.test(s[i])) continue;
    params[edge.name] = s[i];
    const found = find(edge.next, s, i + 1, params);
    if (found) return found;
    delete params[edge.name];
  }
  return null;
}

/** A compiled router over route tables and mounted tables. */
export interface Router {
  /**
   * The route of `path` and its parameters, or null when the node serves
   * no such path.
   */
  find(path: string): Matched | null;
  /** The mount whose prefix `path` is under, if any (its encoder writes every failure there). */
  mountOf(path: string): Mount | null;
}

/**
 * A router over `routes` and the tables of `mounts`.
 *
 * @example
 * ```ts
 * import { createRouter } from "./router.ts";
 * const run = () => Promise.resolve(new Response("ok"));
 * const router = createRouter([{ path: "/projects/{slug}/data", methods: ["GET", "HEAD"], public: false, run }], []);
 * router.find("/projects/cities/data")?.route.template; // "/projects/{slug}/data"
 * router.find("/projects/cities/data")?.params; // { slug: "cities" }
 * router.find("/etc/passwd"); // null
 * ```
 */
export function createRouter(routes: readonly RouteDecl[], mounts: readonly Mount[]): Router {
  const root = tree();
  for (const decl of routes) add(root, decl);
  for (const mount of mounts) for (const decl of mount.routes) add(root, { ...decl, path: mount.prefix + decl.path });
  seal(root);
  return {
    find(path) {
      const params: Record<string, string> = {};
      const route = find(root, segments(path), 0, params);
      return route === null ? null : { route, params };
    },
    mountOf(path) {
      return mounts.find((m) => path === m.prefix || path.startsWith(m.prefix + "/")) ?? null;
    },
  };
}
