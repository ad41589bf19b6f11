/**
 * What Delta Sharing's answers share: JSON lines, the headers naming the
 * format and version, and the version a read asks for.
 *
 * @module
 */
import {
  parseTimestamp,
  type ResponseFormat,
  SharingError,
  type SharingLine,
  tableVersion,
  versionAsOf,
} from "../../sharing/mod.ts";
import type { ProjectState, StoredVersion } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";

/**
 * An answer of JSON lines (`application/x-ndjson`), one line each.
 *
 * @example
 * ```ts
 * import { lines } from "./_sharing_answer.ts";
 * lines([{ protocol: { minReaderVersion: 1 } }], {}).headers.get("content-type"); // "application/x-ndjson; charset=utf-8"
 * ```
 */
export function lines(all: readonly SharingLine[], headers: Record<string, string>): Response {
  return new Response(all.map((l) => JSON.stringify(l)).join("\n") + "\n", {
    status: 200,
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "x-svc-node": "1", ...headers },
  });
}

/**
 * The headers of a lines answer: the version, and the format answered.
 *
 * @example
 * ```ts
 * import { formatHeaders } from "./_sharing_answer.ts";
 * formatHeaders("delta", 3)["delta-table-version"]; // "3"
 * ```
 */
export function formatHeaders(format: ResponseFormat, version: number): Record<string, string> {
  return { "delta-table-version": String(version), "delta-sharing-capabilities": `responseformat=${format}` };
}

/** The version a read asks for: `version`, `timestamp` (the newest made at or before it), or the newest. */
export async function versionAsked(
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
