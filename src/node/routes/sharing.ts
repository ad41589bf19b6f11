/**
 * Delta Sharing mounted under `/delta-sharing`: the catalog's table of the
 * protocol's operations, each bound to its answer here, behind the reader
 * guard (the node's token, a recipient's token from `svc share add`, or
 * nothing on a node without a token), with the protocol's own error
 * encoder (`{"errorCode", "message"}`) for every failure under the prefix.
 *
 * @module
 */
import { SHARING_OPERATIONS, SHARING_PREFIX, type SharingOperation } from "../../catalog/mod.ts";
import { SharingError, sharingErrorCode } from "../../sharing/mod.ts";
import type { NodeContext } from "../context.ts";
import { bearerOf, hasToken } from "../guards/token.ts";
import { json } from "../response.ts";
import type { Mount, RouteDecl, RouteRun } from "../router.ts";
import { getMetadata, getShare, getTableVersion, listSchemas, listShares, listTables } from "./sharing_reads.ts";
import { getChanges, postTableQuery } from "./sharing_files.ts";

/** Checks the request may read the shares: 401 with the protocol's error otherwise. */
async function requireReader(ctx: NodeContext, req: Request): Promise<void> {
  if (ctx.token === null || hasToken(req, ctx.token)) return;
  const bearer = bearerOf(req);
  if (bearer !== null && await ctx.sharing.recipients.holder(bearer, ctx.now())) return;
  throw new SharingError(
    401,
    "UNAUTHENTICATED",
    bearer === null
      ? "this node's shares need a bearer token (a recipient's profile, or the node's token)"
      : "the bearer token is not valid here: expired, removed, or never made",
  );
}

/** Each operation's answer, by its name in the catalog's table. */
const ANSWERS: Readonly<Record<string, RouteRun>> = {
  list_shares: (ctx, _req, url) => Promise.resolve(listShares(ctx, url)),
  get_share: (ctx, _req, _url, _authed, p) => Promise.resolve(getShare(ctx, p)),
  list_schemas: (ctx, _req, url, _authed, p) => Promise.resolve(listSchemas(ctx, url, p)),
  list_all_tables: (ctx, _req, url, _authed, p) => listTables(ctx, url, p),
  list_tables: (ctx, _req, url, _authed, p) => listTables(ctx, url, p),
  table_version_head: (ctx, _req, url, _authed, p) => getTableVersion(ctx, url, p),
  table_version: (ctx, _req, url, _authed, p) => getTableVersion(ctx, url, p),
  table_metadata: (ctx, req, url, _authed, p) => getMetadata(ctx, req, url, p),
  query_table: (ctx, req, _url, _authed, p) => postTableQuery(ctx, req, p),
  table_changes: (ctx, req, url, _authed, p) => getChanges(ctx, req, url, p),
};

function route(op: SharingOperation): RouteDecl {
  const answer = ANSWERS[op.name];
  if (!answer) throw new Error(`Delta Sharing's ${op.name} has no answer`);
  return {
    path: op.path,
    methods: op.methods.includes("GET") ? [...op.methods, "HEAD"] : op.methods,
    // The shares guard themselves (recipients' tokens); reading a table costs memory like any read.
    public: true,
    costly: true,
    run: async (ctx, req, url, authed, params) => {
      await requireReader(ctx, req);
      return await answer(ctx, req, url, authed, params);
    },
  };
}

/**
 * Delta Sharing's table, mounted under `/delta-sharing`, its failures
 * written as the protocol's `{"errorCode", "message"}`.
 *
 * @example
 * ```ts
 * import { sharingMount } from "./sharing.ts";
 * sharingMount().routes.map((r) => r.path)[0]; // "/shares"
 * ```
 */
export function sharingMount(): Mount {
  return {
    prefix: SHARING_PREFIX,
    routes: SHARING_OPERATIONS.map(route),
    encodeError: (error, status, message, headers) =>
      json({ errorCode: sharingErrorCode(error, status), message }, status, headers),
  };
}
