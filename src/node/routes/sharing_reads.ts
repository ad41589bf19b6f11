/**
 * Delta Sharing's reads that list and describe: the shares, a share, its
 * schema and tables (paged), a table's version, and a version's metadata.
 *
 * @module
 */
import {
  capabilitiesOf,
  formatOf,
  maxResultsOf,
  metadataLine,
  pageOf,
  parseTimestamp,
  protocolLine,
  requireSchema,
  requireShare,
  requireTable,
  SCHEMA_NAME,
  sharedProjects,
  stableId,
  tableId,
  tableMetadata,
  tableVersion,
  versionFrom,
  versionParam,
} from "../../sharing/mod.ts";
import type { NodeContext } from "../context.ts";
import { json } from "../response.ts";
import type { Params } from "../router.ts";
import { formatHeaders, lines, versionAsked } from "./_sharing_answer.ts";

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The share a path names (404 when it is not this node's). */
export function shareOf(ctx: NodeContext, params: Params): string {
  return requireShare(ctx.sharing, decoded(params.share));
}

/** The share a path names, once its schema is this node's too. */
function schemaOf(ctx: NodeContext, params: Params): string {
  const share = shareOf(ctx, params);
  requireSchema(decoded(params.schema));
  return share;
}

/** The table a path names, once its share and schema are this node's: its name. */
export function tableOf(ctx: NodeContext, params: Params): string {
  schemaOf(ctx, params);
  return decoded(params.table);
}

function listing(ctx: NodeContext, url: URL, query: string, all: unknown[]): Response {
  const max = maxResultsOf(url.searchParams.get("maxResults"));
  return json(pageOf(ctx.sharing.pageKey, all, query, url.searchParams.get("pageToken"), max));
}

async function tableItems(ctx: NodeContext, share: string): Promise<unknown[]> {
  const shareId = stableId(`share:${share}`);
  return (await sharedProjects(ctx)).map((p) => ({
    name: p.slug,
    schema: SCHEMA_NAME,
    share,
    shareId,
    id: tableId(p),
  }));
}

/** `GET /shares`: the node's one share. */
export function listShares(ctx: NodeContext, url: URL): Response {
  const share = ctx.sharing.share;
  return listing(ctx, url, "shares", [{ name: share, id: stableId(`share:${share}`) }]);
}

/** `GET /shares/{share}`. */
export function getShare(ctx: NodeContext, params: Params): Response {
  const name = shareOf(ctx, params);
  return json({ share: { name, id: stableId(`share:${name}`) } });
}

/** `GET /shares/{share}/schemas`: the one schema. */
export function listSchemas(ctx: NodeContext, url: URL, params: Params): Response {
  const name = shareOf(ctx, params);
  return listing(ctx, url, `schemas ${name}`, [{ name: SCHEMA_NAME, share: name }]);
}

/** `GET /shares/{share}/all-tables` and `GET /shares/{share}/schemas/{schema}/tables`. */
export async function listTables(ctx: NodeContext, url: URL, params: Params): Promise<Response> {
  if (params.schema === undefined) {
    const share = shareOf(ctx, params);
    return listing(ctx, url, `all-tables ${share}`, await tableItems(ctx, share));
  }
  const share = schemaOf(ctx, params);
  return listing(ctx, url, `tables ${share} ${SCHEMA_NAME}`, await tableItems(ctx, share));
}

/** `HEAD .../tables/{table}` and `GET .../version`: the newest version, or the first from `startingTimestamp`. */
export async function getTableVersion(ctx: NodeContext, url: URL, params: Params): Promise<Response> {
  const project = await requireTable(ctx, tableOf(ctx, params));
  const starting = url.searchParams.get("startingTimestamp");
  const version = starting === null
    ? await tableVersion(ctx.store, project, null)
    : await versionFrom(ctx.store, project, parseTimestamp(starting, "startingTimestamp"), starting);
  return new Response(null, {
    status: 200,
    headers: { "delta-table-version": String(version.version), "x-svc-node": "1" },
  });
}

/** `GET .../metadata?version|timestamp`: the `protocol` and `metaData` lines. */
export async function getMetadata(ctx: NodeContext, req: Request, url: URL, params: Params): Promise<Response> {
  const project = await requireTable(ctx, tableOf(ctx, params));
  const format = formatOf(capabilitiesOf(req.headers));
  const wanted = versionParam(url, "version");
  const timestamp = url.searchParams.get("timestamp");
  const version = await versionAsked(ctx, project, wanted, timestamp);
  const meta = await tableMetadata(ctx.sharing, version);
  return lines(
    [protocolLine(format), metadataLine(project, meta, format, wanted !== null || timestamp !== null)],
    formatHeaders(format, version.version),
  );
}
