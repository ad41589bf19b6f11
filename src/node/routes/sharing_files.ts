/**
 * Delta Sharing's reads of files: a version's files for a
 * `QueryTableRequest` (predicates skip files, `limitHint`, `maxFiles` with
 * page tokens), and the change feed of a range of versions, in the query
 * body or in the query string.
 *
 * @module
 */
import { publicOrigin, readJsonBody } from "../../http/mod.ts";
import {
  capabilitiesOf,
  changeLines,
  type ChangeRange,
  type EndStreamLine,
  fileLines,
  type FileQuery,
  formatOf,
  metadataLine,
  parseJsonPredicate,
  parseSqlPredicate,
  type Predicate,
  protocolLine,
  type QueryTableRequest,
  queryTableRequest,
  requireTable,
  type ResponseFormat,
  SharingError,
  type SharingLine,
  tableMetadata,
  versionParam,
  versionsInRange,
} from "../../sharing/mod.ts";
import type { ProjectState } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";
import type { Params } from "../router.ts";
import { formatHeaders, lines, versionAsked } from "./_sharing_answer.ts";
import { tableOf } from "./sharing_reads.ts";

function predicatesOf(request: QueryTableRequest): Predicate[] {
  const out = (request.predicateHints ?? []).map(parseSqlPredicate);
  if (request.jsonPredicateHints !== null) out.push(parseJsonPredicate(request.jsonPredicateHints));
  return out;
}

/** The body of a query: JSON, or the protocol's error saying why not. */
async function bodyOf(req: Request): Promise<unknown> {
  try {
    return await readJsonBody(req);
  } catch (e) {
    const status = (e as { status?: number }).status ?? 400;
    const code = status === 400 ? "MALFORMED_REQUEST" : "INVALID_PARAMETER_VALUE";
    throw new SharingError(status, code, (e as Error).message);
  }
}

/** `POST .../query`: a version's files, or (with `startingVersion`) a range's changes. */
export async function postTableQuery(ctx: NodeContext, req: Request, params: Params): Promise<Response> {
  const body = await bodyOf(req);
  const project = await requireTable(ctx, tableOf(ctx, params));
  const request = queryTableRequest(body);
  const caps = capabilitiesOf(req.headers);
  const format = formatOf(caps);
  if (request.startingVersion !== null) {
    const range: ChangeRange = {
      startingVersion: request.startingVersion,
      startingTimestamp: null,
      endingVersion: request.endingVersion,
      endingTimestamp: null,
    };
    return await changesAnswer(ctx, req, project, range, format);
  }
  const version = await versionAsked(ctx, project, request.version, request.timestamp);
  const query: FileQuery = {
    limitHint: request.limitHint,
    predicates: predicatesOf(request),
    maxFiles: request.maxFiles,
    pageToken: request.pageToken,
    withVersion: request.version !== null || request.timestamp !== null,
  };
  const meta = await tableMetadata(ctx.sharing, version);
  const files = await fileLines(
    { ...ctx.sharing, store: ctx.store, token: ctx.token, now: ctx.now, origin: publicOrigin(req) },
    meta,
    query,
    format,
  );
  ctx.metrics?.sharingFiles(files.lines.length, files.skipped);
  const all: SharingLine[] = [
    protocolLine(format),
    metadataLine(project, meta, format, query.withVersion),
    ...files.lines,
  ];
  const headers = formatHeaders(format, version.version);
  const endStream = caps.get("includeendstreamaction")?.includes("true") ?? false;
  // A paged query (maxFiles) always ends with one, as paging clients expect; others when they ask for it.
  if (endStream || query.maxFiles !== null || files.nextPageToken !== null) {
    const end: EndStreamLine = { endStreamAction: {} };
    if (files.nextPageToken !== null) end.endStreamAction.nextPageToken = files.nextPageToken;
    if (files.minUrlExpiration !== null) end.endStreamAction.minUrlExpirationTimestamp = files.minUrlExpiration;
    all.push(end);
    if (endStream) headers["delta-sharing-capabilities"] += ";includeendstreamaction=true";
  }
  return lines(all, headers);
}

async function changesAnswer(
  ctx: NodeContext,
  req: Request,
  project: ProjectState,
  range: ChangeRange,
  format: ResponseFormat,
): Promise<Response> {
  const versions = await versionsInRange(ctx.store, project, range);
  const last = versions[versions.length - 1];
  const meta = await tableMetadata(ctx.sharing, last);
  const read = { ...ctx.sharing, store: ctx.store, token: ctx.token, now: ctx.now, origin: publicOrigin(req) };
  const changes = await changeLines(read, meta, versions, format);
  ctx.metrics?.sharingFiles(changes.length, 0);
  const metaLine = metadataLine(project, meta, format, true, { enableChangeDataFeed: "true" });
  return lines([protocolLine(format), metaLine, ...changes], formatHeaders(format, versions[0].version));
}

/** `GET .../changes?startingVersion|startingTimestamp&endingVersion|endingTimestamp`: the change feed. */
export async function getChanges(ctx: NodeContext, req: Request, url: URL, params: Params): Promise<Response> {
  const project = await requireTable(ctx, tableOf(ctx, params));
  const q = url.searchParams;
  const range: ChangeRange = {
    startingVersion: versionParam(url, "startingVersion"),
    startingTimestamp: q.get("startingTimestamp"),
    endingVersion: versionParam(url, "endingVersion"),
    endingTimestamp: q.get("endingTimestamp"),
  };
  return await changesAnswer(ctx, req, project, range, formatOf(capabilitiesOf(req.headers)));
}
