/**
 * One JSON call to a node or the origin, with its errors turned into
 * `SvcError` naming the base URL.
 *
 * @module
 */
import { SvcError } from "./errors.ts";
import { VERSION } from "../version.ts";

/** Where and as whom to call. */
export interface Endpoint {
  /** Base URL, e.g. `http://127.0.0.1:8686`. */
  baseUrl: string;
  /** Agent key or node token, sent as `Authorization: Bearer`. */
  apiKey: string | null;
  /** Milliseconds before a call is given up. */
  timeoutMs?: number;
}

/** A successful answer. */
export interface JsonAnswer {
  /** HTTP status. */
  status: number;
  /** Headers. */
  headers: Headers;
  /** Parsed body. */
  body: unknown;
}

/**
 * Calls `method path` on `endpoint` with `body` (already JSON text, or null)
 * and returns the parsed answer; throws `SvcError` for network failures,
 * timeouts, redirects, non-JSON answers and statuses of 400 and above.
 *
 * @example
 * ```ts ignore
 * const { body } = await callJson({ baseUrl: "http://127.0.0.1:8686", apiKey: null }, "GET", "/projects", null);
 * ```
 */
export async function callJson(
  endpoint: Endpoint,
  method: string,
  path: string,
  body: string | null,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const base = endpoint.baseUrl.replace(/\/+$/, "");
  const all: Record<string, string> = { "user-agent": `svc-sdk/${VERSION}`, accept: "application/json", ...headers };
  if (endpoint.apiKey) all.authorization = `Bearer ${endpoint.apiKey}`;
  if (body !== null) all["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: all,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(endpoint.timeoutMs ?? 60_000),
    });
  } catch (e) {
    const timeout = (e as Error)?.name === "TimeoutError";
    throw new SvcError(
      `${base}: ${timeout ? "timed out" : `cannot be reached (${(e as Error).message})`}`,
      0,
      timeout ? "timeout" : "network",
      null,
    );
  }
  const text = await res.text();
  if (res.status >= 300 && res.status < 400) {
    throw new SvcError(
      `${base}: answered with a redirect (${res.status}) to ${res.headers.get("location")}`,
      res.status,
      "redirect",
      null,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const reason = `${res.status} ${res.statusText}`.trim();
    throw new SvcError(
      `${base}: answered ${reason} that is not JSON`,
      res.status,
      res.ok ? "bad_answer" : `http_${res.status}`,
      null,
    );
  }
  if (!res.ok) {
    const b = parsed as { message?: unknown; error?: unknown } | null;
    const message = typeof b?.message === "string"
      ? b.message
      : typeof b?.error === "string"
      ? b.error
      : res.statusText;
    throw new SvcError(`${base}: ${message}`, res.status, `http_${res.status}`, parsed);
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
