/**
 * The Delta Sharing routes under `/delta-sharing` (delta-io/delta-sharing's
 * PROTOCOL.md): shares, schemas and tables listed with paging, a table's
 * version, metadata and files. They read with the node's token, a
 * recipient's token (`svc share add`), or nothing on a node without a token;
 * their errors are the protocol's `{errorCode, message}`.
 *
 * @module
 */
import { publicOrigin, readJsonBody } from "../../http/mod.ts";
import {
  changeLines,
  type ChangeRange,
  fileLines,
  type FileQuery,
  maxResultsOf,
  metadataLine,
  pageOf,
  parseJsonPredicate,
  parseSqlPredicate,
  parseTimestamp,
  type Predicate,
  protocolLine,
  requireSchema,
  requireShare,
  requireTable,
  type ResponseFormat,
  SCHEMA_NAME,
  sharedProjects,
  SharingError,
  stableId,
  tableId,
  tableMetadata,
  tableVersion,
  versionAsOf,
  versionFrom,
  versionsInRange,
} from "../../sharing/mod.ts";
import type { ProjectState, StoredVersion } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";
import { bearerOf, hasToken } from "../guards/token.ts";
import { json } from "../response.ts";

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Checks the request may read the sharing routes: 401 with the protocol's error otherwise. */
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

function ndjson(lines: unknown[], headers: Record<string, string>): Response {
  return new Response(lines.map((l) => JSON.stringify(l)).join("\n") + "\n", {
    status: 200,
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "x-svc-node": "1", ...headers },
  });
}

/** Capabilities the client sent (`delta-sharing-capabilities`), keys and values lowercased. */
function capabilities(req: Request): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of (req.headers.get("delta-sharing-capabilities") ?? "").split(";")) {
    const [key, values = ""] = item.split("=", 2);
    if (key.trim()) out.set(key.trim().toLowerCase(), values.split(",").map((v) => v.trim().toLowerCase()));
  }
  return out;
}

function formatOf(caps: Map<string, string[]>): ResponseFormat {
  const asked = caps.get("responseformat") ?? ["parquet"];
  // The node's tables have no feature parquet cannot carry: parquet whenever the client takes it.
  return asked.includes("parquet") || !asked.includes("delta") ? "parquet" : "delta";
}

function formatHeaders(format: ResponseFormat, version: number): Record<string, string> {
  return { "delta-table-version": String(version), "delta-sharing-capabilities": `responseformat=${format}` };
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

async function getTableVersion(ctx: NodeContext, url: URL, name: string): Promise<Response> {
  const project = await requireTable(ctx, name);
  const starting = url.searchParams.get("startingTimestamp");
  const version = starting === null
    ? await tableVersion(ctx.store, project, null)
    : await versionFrom(ctx.store, project, parseTimestamp(starting, "startingTimestamp"), starting);
  return new Response(null, {
    status: 200,
    headers: { "delta-table-version": String(version.version), "x-svc-node": "1" },
  });
}

/** The version a read asks for: `version`, `timestamp` (the newest made at or before it), or the newest. */
async function versionAsked(
  ctx: NodeContext,
  project: ProjectState,
  wanted: number | null,
  timestamp: string | null,
): Promise<StoredVersion> {
  if (wanted !== null && timestamp !== null) {
    throw new SharingError(400, "INVALID_PARAMETER_VALUE", "give version or timestamp, not both");
  }
  return timestamp !== null
    ? await versionAsOf(ctx.store, project, parseTimestamp(timestamp, "timestamp"), timestamp)
    : await tableVersion(ctx.store, project, wanted);
}

async function getMetadata(ctx: NodeContext, req: Request, url: URL, name: string): Promise<Response> {
  const project = await requireTable(ctx, name);
  const format = formatOf(capabilities(req));
  const wanted = versionQueryParam(url, "version");
  const timestamp = url.searchParams.get("timestamp");
  const version = await versionAsked(ctx, project, wanted, timestamp);
  const meta = await tableMetadata(ctx.sharing, version);
  return ndjson(
    [protocolLine(format), metadataLine(project, meta, format, wanted !== null || timestamp !== null)],
    formatHeaders(format, version.version),
  );
}

function optionalInt(body: Record<string, unknown>, name: string, min: number, max: number): number | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new SharingError(400, "INVALID_PARAMETER_VALUE", `${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function optionalString(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new SharingError(400, "INVALID_PARAMETER_VALUE", `${name} must be a string`);
  return value;
}

function predicatesOf(body: Record<string, unknown>): Predicate[] {
  const out: Predicate[] = [];
  const sql = body.predicateHints;
  if (sql !== undefined && sql !== null) {
    if (!Array.isArray(sql) || !sql.every((s) => typeof s === "string")) {
      throw new SharingError(400, "INVALID_PARAMETER_VALUE", "predicateHints must be a list of strings");
    }
    out.push(...sql.map(parseSqlPredicate));
  }
  const tree = optionalString(body, "jsonPredicateHints");
  if (tree !== null) out.push(parseJsonPredicate(tree));
  return out;
}

async function queryBody(req: Request): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await readJsonBody(req);
  } catch (e) {
    const status = (e as { status?: number }).status ?? 400;
    throw new SharingError(
      status,
      status === 400 ? "MALFORMED_REQUEST" : "INVALID_PARAMETER_VALUE",
      (e as Error).message,
    );
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new SharingError(400, "MALFORMED_REQUEST", "the body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

async function postTableQuery(ctx: NodeContext, req: Request, name: string): Promise<Response> {
  const body = await queryBody(req);
  const project = await requireTable(ctx, name);
  const caps = capabilities(req);
  const format = formatOf(caps);
  const endStream = caps.get("includeendstreamaction")?.includes("true") ?? false;
  const startingVersion = optionalInt(body, "startingVersion", 0, Number.MAX_SAFE_INTEGER);
  if (startingVersion !== null) {
    const range: ChangeRange = {
      startingVersion,
      startingTimestamp: null,
      endingVersion: optionalInt(body, "endingVersion", 0, Number.MAX_SAFE_INTEGER),
      endingTimestamp: null,
    };
    return await changesAnswer(ctx, req, project, range, format);
  }
  const wanted = optionalInt(body, "version", 0, Number.MAX_SAFE_INTEGER);
  const timestamp = optionalString(body, "timestamp");
  const version = await versionAsked(ctx, project, wanted, timestamp);
  const query: FileQuery = {
    limitHint: optionalInt(body, "limitHint", 0, 2147483647),
    predicates: predicatesOf(body),
    maxFiles: optionalInt(body, "maxFiles", 1, 2147483647),
    pageToken: optionalString(body, "pageToken"),
    withVersion: wanted !== null || timestamp !== null,
  };
  const meta = await tableMetadata(ctx.sharing, version);
  const files = await fileLines(
    { ...ctx.sharing, store: ctx.store, token: ctx.token, now: ctx.now, origin: publicOrigin(req) },
    meta,
    query,
    format,
  );
  ctx.metrics?.sharingFiles(files.lines.length, files.skipped);
  const lines: unknown[] = [
    protocolLine(format),
    metadataLine(project, meta, format, query.withVersion),
    ...files.lines,
  ];
  const headers = formatHeaders(format, version.version);
  // A paged query (maxFiles) always ends with one, as paging clients expect; others when they ask for it.
  if (endStream || query.maxFiles !== null || files.nextPageToken !== null) {
    lines.push({
      endStreamAction: {
        ...(files.nextPageToken !== null ? { nextPageToken: files.nextPageToken } : {}),
        ...(files.minUrlExpiration !== null ? { minUrlExpirationTimestamp: files.minUrlExpiration } : {}),
      },
    });
    if (endStream) headers["delta-sharing-capabilities"] += ";includeendstreamaction=true";
  }
  return ndjson(lines, headers);
}

function versionQueryParam(url: URL, name: string): number | null {
  const text = url.searchParams.get(name);
  if (text === null) return null;
  if (!/^\d{1,15}$/.test(text)) {
    throw new SharingError(400, "INVALID_PARAMETER_VALUE", `${name} must be a whole number`);
  }
  return Number(text);
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
  const lines = await changeLines(read, meta, versions, format);
  ctx.metrics?.sharingFiles(lines.length, 0);
  const metaLine = metadataLine(project, meta, format, true, { enableChangeDataFeed: "true" });
  return ndjson([protocolLine(format), metaLine, ...lines], formatHeaders(format, versions[0].version));
}

async function getChanges(ctx: NodeContext, req: Request, url: URL, name: string): Promise<Response> {
  const project = await requireTable(ctx, name);
  const q = url.searchParams;
  const range: ChangeRange = {
    startingVersion: versionQueryParam(url, "startingVersion"),
    startingTimestamp: q.get("startingTimestamp"),
    endingVersion: versionQueryParam(url, "endingVersion"),
    endingTimestamp: q.get("endingTimestamp"),
  };
  return await changesAnswer(ctx, req, project, range, formatOf(capabilities(req)));
}

type SharingRun = (ctx: NodeContext, req: Request, url: URL) => Promise<Response>;

/** The route of `/delta-sharing/<rest>` (split at `/`), or null when there is none. */
export function sharingRoute(rest: readonly string[]): { methods: readonly string[]; run: SharingRun } | null {
  const read = ["GET", "HEAD"];
  const guarded = (methods: readonly string[], run: SharingRun) => ({
    methods,
    run: async (ctx: NodeContext, req: Request, url: URL) => {
      await requireReader(ctx, req);
      return await run(ctx, req, url);
    },
  });
  if (rest[0] !== "shares") return null;
  if (rest.length === 1) {
    return guarded(read, (ctx, _req, url) => {
      const share = ctx.sharing.share;
      return Promise.resolve(listing(ctx, url, "shares", [{ name: share, id: stableId(`share:${share}`) }]));
    });
  }
  const shareName = decoded(rest[1]);
  const share = (ctx: NodeContext) => requireShare(ctx.sharing, shareName);
  if (rest.length === 2) {
    return guarded(read, (ctx) => {
      const name = share(ctx);
      return Promise.resolve(json({ share: { name, id: stableId(`share:${name}`) } }));
    });
  }
  if (rest.length === 3 && rest[2] === "schemas") {
    return guarded(read, (ctx, _req, url) => {
      const name = share(ctx);
      return Promise.resolve(listing(ctx, url, `schemas ${name}`, [{ name: SCHEMA_NAME, share: name }]));
    });
  }
  if (rest.length === 3 && rest[2] === "all-tables") {
    return guarded(
      read,
      async (ctx, _req, url) => listing(ctx, url, `all-tables ${share(ctx)}`, await tableItems(ctx, share(ctx))),
    );
  }
  if (rest[2] !== "schemas" || rest.length < 5 || rest[4] !== "tables") return null;
  const schemaName = decoded(rest[3]);
  const scoped = (ctx: NodeContext) => {
    share(ctx);
    requireSchema(schemaName);
  };
  if (rest.length === 5) {
    return guarded(read, async (ctx, _req, url) => {
      scoped(ctx);
      return listing(ctx, url, `tables ${share(ctx)} ${SCHEMA_NAME}`, await tableItems(ctx, share(ctx)));
    });
  }
  const table = decoded(rest[5]);
  const tableRoute = (methods: readonly string[], run: SharingRun) =>
    guarded(methods, (ctx, req, url) => {
      scoped(ctx);
      return run(ctx, req, url);
    });
  if (rest.length === 6) return tableRoute(["HEAD"], (ctx, _req, url) => getTableVersion(ctx, url, table));
  if (rest.length !== 7) return null;
  switch (rest[6]) {
    case "version":
      return tableRoute(read, (ctx, _req, url) => getTableVersion(ctx, url, table));
    case "metadata":
      return tableRoute(read, (ctx, req, url) => getMetadata(ctx, req, url, table));
    case "query":
      return tableRoute(["POST"], (ctx, req) => postTableQuery(ctx, req, table));
    case "changes":
      return tableRoute(read, (ctx, req, url) => getChanges(ctx, req, url, table));
  }
  return null;
}
