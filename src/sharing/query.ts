/**
 * Reading a table: the lines of Delta Sharing's `metadata` and `query`
 * answers, in the protocol's `parquet` format or its `delta` format. Each
 * file is one of the version's parts, named by its SHA-256, with a URL the
 * node signs (valid for an hour, and the part is kept on disk until then
 * even if the version is pruned meanwhile).
 *
 * @module
 */
import type { ProjectState, Store, StoredVersion } from "../store/mod.ts";
import { promiseParts } from "../store/mod.ts";
import { signPartQuery } from "../service/mod.ts";
import type { Column, FileStats, FooterReader } from "./file_stats.ts";
import { sparkSchemaString } from "./spark_schema.ts";
import { tableId, versionTime } from "./tables.ts";
import { type PageKey, pageOffset, pageToken } from "./paging.ts";
import { mayMatch, type Predicate } from "./predicates.ts";
import { stringifyExactJson } from "../wire/mod.ts";
import type { FileLine, MetadataLine, ProtocolLine, ResponseFormat } from "./lines.ts";
export type { ResponseFormat } from "./lines.ts";

/** How long a file URL stays valid, in seconds. */
export const FILE_URL_LIFETIME_S = 3600;

/** What building the lines needs. */
export interface TableReadContext {
  /** The node token that signs file URLs (none: URLs are plain, the node is open). */
  token: string | null;
  /** Now, in ms since the epoch. */
  now(): number;
  /** Footers read and kept. */
  footers: FooterReader;
  /** The node's origin as the client reached it (`http://127.0.0.1:8686`). */
  origin: string;
  /** The key page tokens are signed with. */
  pageKey: PageKey;
  /** The store, when its parts may be fetched from it directly (an object store's pre-signed URLs). */
  store?: Pick<Store, "partUrl">;
}

/** A version's table metadata, before it is written in one format or the other. */
export interface TableMetadata {
  /** The version. */
  version: StoredVersion;
  /** Its columns. */
  columns: Column[];
}

/**
 * The columns of version `version` (read from its parts' footers, kept).
 */
export async function tableMetadata(
  ctx: Pick<TableReadContext, "footers">,
  version: StoredVersion,
): Promise<TableMetadata> {
  const key = `${version.slug}@${version.version}:${version.parts.map((p) => p.sha256).join(",")}`;
  return { version, columns: await ctx.footers.columns(key, version.parts.map((p) => p.path)) };
}

/** The protocol line of `format`. */
export function protocolLine(format: ResponseFormat): ProtocolLine {
  return format === "delta"
    ? { protocol: { deltaProtocol: { minReaderVersion: 1, minWriterVersion: 2 } } }
    : { protocol: { minReaderVersion: 1 } };
}

/**
 * The metadata line of `meta` for `project`, in `format`; `withVersion` adds
 * the version (time travel), `configuration` the table's settings.
 */
export function metadataLine(
  project: ProjectState,
  meta: TableMetadata,
  format: ResponseFormat,
  withVersion: boolean,
  configuration: Record<string, string> = {},
): MetadataLine {
  const size = meta.version.parts.reduce((a, p) => a + p.bytes, 0);
  const described = {
    id: tableId(project),
    name: project.slug,
    ...(typeof project.meta?.title === "string" ? { description: project.meta.title } : {}),
    format: { provider: "parquet" as const },
    schemaString: sparkSchemaString(meta.columns),
    partitionColumns: [],
    configuration,
  };
  const counts = { size, numFiles: meta.version.parts.length };
  if (format === "delta") {
    return {
      metaData: {
        ...(withVersion ? { version: meta.version.version } : {}),
        ...counts,
        deltaMetadata: {
          ...described,
          format: { provider: "parquet", options: {} },
          createdTime: versionTime(meta.version),
        },
      },
    };
  }
  return { metaData: { ...described, ...(withVersion ? { version: meta.version.version } : {}), ...counts } };
}

/** What the client asked of `query`, checked. */
export interface FileQuery {
  /** Stop adding files once their records reach this many. */
  limitHint: number | null;
  /** Files whose statistics rule them out are skipped (best effort). */
  predicates: Predicate[];
  /** At most this many files per answer (then a page token). */
  maxFiles: number | null;
  /** Where to go on from. */
  pageToken: string | null;
  /** Whether the file lines carry the version and its time (a time-travel query). */
  withVersion: boolean;
}

/** The file lines of one answer, and the token of the rest when there is one. */
export interface FileLines {
  /** The lines, in the asked format. */
  lines: FileLine[];
  /** The page token of the files after these, when any are left. */
  nextPageToken: string | null;
  /** When the first of the URLs given expires (ms since the epoch), or null when none was given. */
  minUrlExpiration: number | null;
  /** Files of this answer's range left out because their statistics rule out every row the predicates ask for. */
  skipped: number;
}

/**
 * The URL of part `sha256` of `slug` as a reader fetches it: from the store
 * itself when it gives one (an object store's pre-signed GET, so the bytes
 * do not pass through the node), else signed with the node's token; for
 * {@linkcode FILE_URL_LIFETIME_S} seconds (plain on a node without a token);
 * and when it expires (ms since the epoch).
 *
 * @example
 * ```ts
 * import { fileUrl } from "./query.ts";
 * const link = fileUrl({ token: "t", now: () => 0, origin: "http://127.0.0.1:8686" }, "notes", "ab".repeat(32));
 * console.log(link.expires); // 3600000
 * ```
 */
export function fileUrl(
  ctx: Pick<TableReadContext, "token" | "now" | "origin" | "store">,
  slug: string,
  sha256: string,
): { url: string; expires: number } {
  const now = ctx.now();
  const direct = ctx.store?.partUrl(slug, sha256, FILE_URL_LIFETIME_S) ?? null;
  if (direct !== null) return { url: direct, expires: now + FILE_URL_LIFETIME_S * 1000 };
  const base = `${ctx.origin}/parts/${slug}/${sha256}.parquet`;
  if (!ctx.token) return { url: base, expires: now + FILE_URL_LIFETIME_S * 1000 };
  const signed = signPartQuery(ctx.token, slug, sha256, now / 1000);
  return { url: `${base}${signed.query}`, expires: signed.exp * 1000 };
}

/** How a file line is written: the format, the wrapper of the parquet format, and whether it names its version. */
export interface FileLineForm {
  /** The answer format. */
  format: ResponseFormat;
  /** The parquet format's wrapper: `file` in a version's files, `add` in changes. */
  wrapper: "file" | "add";
  /** Whether the line carries the version and its time. */
  withVersion: boolean;
}

/**
 * One file line: part `part` of `version` at `link`, with its statistics.
 *
 * @example
 * ```ts
 * import { fileLine } from "./query.ts";
 * import { parseVersion, type Version } from "../store/mod.ts";
 * const manifest = parseVersion('{"parts": []}', "notes", 1) as Version;
 * const version = { root: "svc-data", slug: "notes", version: 1, manifest, parts: [], mtime: new Date(0) };
 * const stats = { numRecords: 1, minValues: {}, maxValues: {}, nullCount: {} };
 * const form = { format: "parquet", wrapper: "file", withVersion: false } as const;
 * fileLine(form, { sha256: "ab", bytes: 10 }, { url: "http://x/ab", expires: 1 }, stats, version);
 * ```
 */
export function fileLine(
  form: FileLineForm,
  part: { sha256: string; bytes: number },
  link: { url: string; expires: number },
  stats: FileStats,
  version: StoredVersion,
): FileLine {
  const { format, withVersion } = form;
  const at = withVersion ? { version: version.version, timestamp: versionTime(version) } : {};
  const statsText = stringifyExactJson(stats);
  if (format === "delta") {
    return {
      file: {
        id: part.sha256,
        size: part.bytes,
        expirationTimestamp: link.expires,
        ...at,
        deltaSingleAction: {
          add: {
            path: link.url,
            partitionValues: {},
            size: part.bytes,
            modificationTime: versionTime(version),
            dataChange: true as const,
            stats: statsText,
          },
        },
      },
    };
  }
  const file = {
    url: link.url,
    id: part.sha256,
    partitionValues: {},
    size: part.bytes,
    stats: statsText,
    expirationTimestamp: link.expires,
    ...at,
  };
  return form.wrapper === "add" ? { add: file } : { file };
}

/** The string a page token of this file query is bound to. */
function fileQueryKey(meta: TableMetadata, query: FileQuery): string {
  const v = meta.version;
  return `files ${v.slug} ${v.version} ${query.limitHint} ${JSON.stringify(query.predicates)}`;
}

/**
 * The file lines of `meta`'s version for `query`, in `format`: files the
 * predicates rule out are skipped, files stop once `limitHint` records are
 * reached, and at most `maxFiles` come in one answer.
 */
export async function fileLines(
  ctx: TableReadContext,
  meta: TableMetadata,
  query: FileQuery,
  format: ResponseFormat,
): Promise<FileLines> {
  const key = fileQueryKey(meta, query);
  const offset = pageOffset(ctx.pageKey, query.pageToken, key);
  const version = meta.version;
  const lines: FileLine[] = [];
  const given: string[] = [];
  let records = 0;
  let minExpiry: number | null = null;
  let maxExpiry = 0;
  let skipped = 0;
  const limitReached = () => query.limitHint !== null && records >= query.limitHint && lines.length > 0;
  const allStats = ctx.footers.statsOf(version.parts.slice(offset), meta.columns);
  const allFacts = ctx.footers.factsOf(version.parts.slice(offset), meta.columns);
  let index = offset;
  for (; index < version.parts.length; index++) {
    if ((query.maxFiles !== null && lines.length >= query.maxFiles) || limitReached()) break;
    const part = version.parts[index];
    const facts = await allFacts[index - offset];
    const stats = await allStats[index - offset];
    if (!query.predicates.every((p) => mayMatch(p, facts))) {
      skipped++;
      continue;
    }
    const link = fileUrl(ctx, version.slug, part.sha256);
    lines.push(fileLine({ format, wrapper: "file", withVersion: query.withVersion }, part, link, stats, version));
    given.push(part.path);
    records += stats.numRecords;
    minExpiry = minExpiry === null ? link.expires : Math.min(minExpiry, link.expires);
    maxExpiry = Math.max(maxExpiry, link.expires);
  }
  if (given.length > 0) promiseParts(given, maxExpiry);
  const more = index < version.parts.length && !limitReached();
  return {
    lines,
    nextPageToken: more ? pageToken(ctx.pageKey, key, index) : null,
    minUrlExpiration: minExpiry,
    skipped,
  };
}
