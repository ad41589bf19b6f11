/**
 * Where client commands send their calls: `--base-url` (or `SVC_BASE_URL`,
 * else the local node at `http://127.0.0.1:8686`) and `--api-key` (or
 * `SVC_API_KEY`, or a node's `SVC_NODE_TOKEN`).
 *
 * @module
 */
import type { Endpoint } from "../client/mod.ts";
import { UsageError } from "../errors/mod.ts";

/** The node a client command talks to when nothing names another. */
export const DEFAULT_NODE_URL = "http://127.0.0.1:8686";

/**
 * The endpoint from flags and environment.
 *
 * @example
 * ```ts
 * import { endpointFrom } from "./endpoint.ts";
 * endpointFrom({ "base-url": "http://127.0.0.1:9000" }, {}).baseUrl; // "http://127.0.0.1:9000"
 * ```
 */
export function endpointFrom(
  flags: { "base-url"?: string; "api-key"?: string },
  env: Record<string, string | undefined>,
): Endpoint {
  const baseUrl = flags["base-url"] ?? env.SVC_BASE_URL ?? DEFAULT_NODE_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url must be an http(s) URL, not ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--base-url must be an http(s) URL, not ${JSON.stringify(baseUrl)}`);
  }
  const apiKey = flags["api-key"] ?? (env.SVC_API_KEY || env.SVC_NODE_TOKEN || null);
  return { baseUrl, apiKey };
}
