/**
 * Downloads of what is on screen: `GET /projects/{slug}/data` and
 * `POST /projects/{slug}/query` answer a file instead of JSON when asked
 * with `format=csv|json|jsonl|parquet` in the query string, or, without
 * it, with an `Accept` header whose most preferred type is `text/csv`,
 * `application/x-ndjson` (or `application/jsonl`) or
 * `application/vnd.apache.parquet`. Anything else (`application/json`, a
 * browser's `text/html,...,*\/*`, no `Accept`) keeps the JSON answer.
 *
 * A view's download is every record of the view (or of the version, with no
 * view), or the slice that `limit`/`offset` name when given; the version is
 * held until the body has been sent or the client has gone. Answers are
 * attachments, `cache-control: no-store`.
 *
 * @module
 */
import { relay } from "../../http/mod.ts";
import { NodeError } from "../../errors/mod.ts";
import type { DownloadFormat } from "../../parquet/mod.ts";
import { holdVersion, queryDownload, type QueryRequest, viewDownload } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { intParam } from "./_params.ts";
import { viewOf } from "./_view_params.ts";

/** Each format's content type and file extension. */
const FORMATS: Readonly<Record<DownloadFormat, { type: string; ext: string }>> = {
  csv: { type: "text/csv; charset=utf-8", ext: "csv" },
  json: { type: "application/json; charset=utf-8", ext: "json" },
  jsonl: { type: "application/x-ndjson; charset=utf-8", ext: "jsonl" },
  parquet: { type: "application/vnd.apache.parquet", ext: "parquet" },
};

/** Media types of `Accept` that ask for a download. */
const ACCEPTED: Readonly<Record<string, DownloadFormat>> = {
  "text/csv": "csv",
  "application/x-ndjson": "jsonl",
  "application/jsonl": "jsonl",
  "application/vnd.apache.parquet": "parquet",
};

/**
 * The format an `Accept` header prefers most (highest `q`, the first of
 * equals), when that is a download's; null otherwise.
 *
 * @example
 * ```ts
 * import { acceptedFormat } from "./download.ts";
 * acceptedFormat("text/csv"); // "csv"
 * acceptedFormat("application/json;q=0.5, application/x-ndjson"); // "jsonl"
 * acceptedFormat("text/html,application/xhtml+xml,*\/*;q=0.8"); // null
 * ```
 */
export function acceptedFormat(accept: string | null): DownloadFormat | null {
  if (accept === null) return null;
  let best: { type: string; q: number } | null = null;
  for (const range of accept.split(",")) {
    const [type, ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    const q = params.map((p) => /^q=([0-9.]{1,6})$/.exec(p)).find((m) => m !== null)?.[1];
    const weight = q === undefined ? 1 : Number(q);
    if (type === "" || !(weight > 0)) continue;
    if (best === null || weight > best.q) best = { type, q: weight };
  }
  return best !== null && Object.hasOwn(ACCEPTED, best.type) ? ACCEPTED[best.type] : null;
}

/**
 * The download `req` asks for at `url` (`format=`, else `Accept`), or null
 * for the JSON answer; a `format` that is none of the four is a bad request.
 *
 * @example
 * ```ts
 * import { downloadFormat } from "./download.ts";
 * downloadFormat(new Request("http://x/projects/cities/data?format=csv"), new URL("http://x/projects/cities/data?format=csv")); // "csv"
 * ```
 */
export function downloadFormat(req: Request, url: URL): DownloadFormat | null {
  const named = url.searchParams.get("format");
  if (named === null) return acceptedFormat(req.headers.get("accept"));
  if (!Object.hasOwn(FORMATS, named)) {
    throw new NodeError("bad-request", "querystring/format must be one of csv, json, jsonl, parquet");
  }
  return named as DownloadFormat;
}

function headersOf(format: DownloadFormat, name: string, size: number | null): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": FORMATS[format].type,
    "content-disposition": `attachment; filename="${name}.${FORMATS[format].ext}"`,
    "cache-control": "no-store",
    "x-svc-node": "1",
  };
  if (size !== null) headers["content-length"] = String(size);
  return headers;
}

/**
 * `GET /projects/{slug}/data?...&format=...`: the view the query names (or
 * the whole version) as `format`, the version held while it streams. HEAD
 * makes the checks (version, columns, values) and writes nothing. *
 * @example
 * ```ts ignore
 * import { getDownload } from "./download.ts";
 * const url = new URL("http://node/projects/world-cities/data?country__exact=KR&format=csv");
 * const res = await getDownload(ctx, new Request(url), "world-cities", url, "csv");
 * ```
 */
export async function getDownload(
  ctx: NodeContext,
  req: Request,
  slug: string,
  url: URL,
  format: DownloadFormat,
): Promise<Response> {
  const wanted = intParam(url, "version", { min: 1, fallback: null });
  const limit = intParam(url, "limit", { min: 1, fallback: null });
  const offset = intParam(url, "offset", { min: 0, fallback: 0 })!;
  const view = viewOf(url);
  const held = await holdVersion(ctx, slug, wanted);
  try {
    const request = { view, slice: { offset, limit }, format, head: req.method === "HEAD", signal: req.signal };
    const download = await viewDownload(ctx, held.version, request);
    const part = view !== null || limit !== null || offset > 0 ? "-view" : "";
    const headers = headersOf(format, `${slug}-v${held.version.version}${part}`, download.size);
    if (download.body === null) {
      held.release();
      return new Response(null, { headers });
    }
    return new Response(relay(download.body, { settled: held.release }), { headers });
  } catch (e) {
    held.release();
    throw e;
  }
}

/**
 * `POST /projects/{slug}/query?format=...`: the answer of `request` as
 * `format`, with `x-svc-truncated` saying whether the statement had more
 * rows than the answer holds. *
 * @example
 * ```ts ignore
 * import { postQueryDownload } from "./download.ts";
 * const req = new Request("http://node/projects/world-cities/query?format=parquet", { method: "POST" });
 * const res = await postQueryDownload(ctx, req, "world-cities", { sql: "SELECT * FROM records", version: null, limit: 1000 }, "parquet");
 * ```
 */
export async function postQueryDownload(
  ctx: NodeContext,
  req: Request,
  slug: string,
  request: QueryRequest,
  format: DownloadFormat,
): Promise<Response> {
  const download = await queryDownload(ctx, slug, request, format, req.signal);
  const headers = headersOf(format, `${slug}-v${download.version}-query`, download.size);
  headers["x-svc-truncated"] = String(download.truncated);
  return new Response(download.body, { headers });
}
