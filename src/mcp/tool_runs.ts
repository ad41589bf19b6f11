/**
 * The tools whose arguments are not the HTTP route's input as it stands,
 * and how each calls its service: a filter of the list, the view in JSON,
 * the node's address for part URLs, a query's limit left to the service,
 * a new project and a contribution as their bodies. Every other tool is
 * answered by its operation's service through the catalog's schema.
 *
 * @module
 */
import type { OperationName } from "../catalog/mod.ts";
import {
  contributeRecords,
  createProject,
  manifestText,
  type NodeState,
  projectList,
  queryVersion,
  readPage,
  readView,
  versionManifest,
} from "../service/mod.ts";
import type { ExactJson } from "../wire/mod.ts";
import { type ViewArgs, viewOfArgs } from "./view_args.ts";

/** A tool's run: arguments that passed its schema, answered with the route's JSON text. */
export type ToolRun = (args: Record<string, unknown>) => Promise<string>;

const NO_VIEW = { filters: [], search: null, sort: null };
const decoder = new TextDecoder();
const text = (value: unknown) => JSON.stringify(value);

/** What a page's arguments are once parsed. */
interface PageArgs extends ViewArgs {
  slug: string;
  version?: number;
  limit: number;
  offset?: number;
}

/** The runs of the tools that need their own, by operation, given the node and its address as the client reached it. */
export const TOOL_RUNS: { readonly [N in OperationName]?: (ctx: NodeState, base: string) => ToolRun } = {
  list_projects: (ctx) => async (args) => {
    const { projects } = await projectList(ctx);
    const q = (args.query as string | undefined)?.toLowerCase();
    const kept = q ? projects.filter((p) => `${p.slug}\n${p.title}`.toLowerCase().includes(q)) : projects;
    return text({ projects: kept });
  },
  read_page: (ctx) => async (raw) => {
    const args = raw as unknown as PageArgs;
    const page = { version: args.version ?? null, limit: args.limit, offset: args.offset ?? 0 };
    const view = viewOfArgs(args);
    const facets = args.facets ?? [];
    if (view === null && facets.length === 0) return decoder.decode(await readPage(ctx, args.slug, page));
    return await readView(ctx, args.slug, { ...page, view: view ?? NO_VIEW, facets });
  },
  manifest: (ctx, base) => async (args) => {
    const wanted = { version: (args.version as number | undefined) ?? null, origin: base };
    let manifest = "";
    for await (const piece of manifestText(await versionManifest(ctx, args.slug as string, wanted))) manifest += piece;
    return manifest;
  },
  query: (ctx) => (args) =>
    queryVersion(ctx, args.slug as string, {
      sql: args.sql as string,
      version: (args.version as number | undefined) ?? null,
      limit: (args.limit as number | undefined) ?? null,
    }),
  create_project: (ctx) => async (args) => text(await createProject(ctx, JSON.parse(JSON.stringify(args)))),
  contribute: (ctx) => async (args) => {
    // As the HTTP route reads them: exact integers, what a JSON body would carry.
    const body = { records: args.records, sourceDeclaration: args.sourceDeclaration } as ExactJson;
    const sender = { idempotencyKey: (args.idempotencyKey as string | undefined) ?? null, agentId: "anonymous" };
    const outcome = await contributeRecords(ctx, args.slug as string, () => Promise.resolve(body), sender);
    return text({ ...outcome.view, replayed: outcome.replayed });
  },
};
