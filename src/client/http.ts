/**
 * One JSON call to a node or the origin: the agent key as a bearer token,
 * retries where the call is safe to repeat, a warning once per deprecated
 * route, and every failure as an `SvcError` (by status) naming the base URL.
 *
 * @module
 */
import { VERSION } from "../version.ts";
import { parseExactJson } from "../wire/mod.ts";
import { deprecationOf, type SvcDeprecationWarning } from "./deprecation.ts";
import { errorForStatus, readErrorAnswer, SvcError } from "./errors.ts";
import { backoffMs, DEFAULT_RETRIES, MAX_RETRY_AFTER_S, retryableStatus, retryAfterMs } from "./retry.ts";

/** Where and as whom to call. */
export interface Endpoint {
  /** Base URL, e.g. `http://127.0.0.1:8686`. */
  baseUrl: string;
  /** Agent key or node token, sent as `Authorization: Bearer`. */
  apiKey: string | null;
  /** Milliseconds before one attempt is given up (default 60,000). */
  timeoutMs?: number;
  /** Retries of calls that are safe to repeat (default 2). */
  retries?: number;
  /** Where deprecation warnings go (default: `console.warn`, once per route). */
  onWarning?: (warning: SvcDeprecationWarning) => void;
  /** Waits between attempts (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
  /** The pay service (origin-wire 1.2): no key, no user agent, redirects followed. */
  bare?: boolean;
}

/** How a call may be treated. */
export interface CallOptions {
  /** Whether the call is safe to repeat (default: GET and HEAD only). */
  retry?: boolean;
  /** A presigned part transfer: also retried on 500. */
  partTransfer?: boolean;
  /** The route's name for deprecation warnings (default: method and path). */
  route?: string;
  /** Parse the answer with integers beyond 2^53 kept exact (as `bigint`). */
  exactIntegers?: boolean;
}

/** How a download ({@linkcode callStream}) may be asked for. */
export interface StreamOptions extends CallOptions {
  /** Extra request headers (`range`, `if-range`, ...). */
  headers?: Record<string, string>;
  /** Error statuses answered as they are, body unread, instead of thrown (e.g. 416). */
  pass?: number[];
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

const warnedRoutes = new WeakMap<Endpoint, Set<string>>();
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The base URL without trailing slashes, as errors name it. */
function baseOf(endpoint: Endpoint): string {
  return endpoint.baseUrl.replace(/\/+$/, "");
}

/**
 * Hands `warning` to the endpoint's `onWarning`, else to `console.warn`.
 */
export function deliverWarning(endpoint: Endpoint, warning: SvcDeprecationWarning): void {
  (endpoint.onWarning ?? ((w) => console.warn(`SvcDeprecationWarning: ${w.message}`)))(warning);
}

function warnOnce(endpoint: Endpoint, route: string, headers: Headers): void {
  const warning = deprecationOf(route, headers);
  if (!warning) return;
  const seen = warnedRoutes.get(endpoint) ?? new Set<string>();
  warnedRoutes.set(endpoint, seen);
  if (seen.has(route)) return;
  seen.add(route);
  deliverWarning(endpoint, warning);
}

/** One request; `settled` ends its timeout (called once the body is read, or at once for a stream). */
async function attempt(
  endpoint: Endpoint,
  method: string,
  path: string,
  body: string | null,
  headers: Record<string, string>,
): Promise<{ res: Response; settled: () => void }> {
  const base = baseOf(endpoint);
  const all: Record<string, string> = endpoint.bare
    ? { ...headers }
    : { "user-agent": `svc-sdk/${VERSION}`, accept: "application/json", ...headers };
  // A call may name its own bearer (claim status asks with the claimed key); a bare call carries none.
  if (endpoint.apiKey && !endpoint.bare && !("authorization" in all)) all.authorization = `Bearer ${endpoint.apiKey}`;
  if (body !== null) all["content-type"] = "application/json";
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new DOMException("timed out", "TimeoutError")),
    endpoint.timeoutMs ?? 60_000,
  );
  try {
    const redirect = endpoint.bare ? "follow" : "manual";
    const res = await fetch(`${base}${path}`, { method, headers: all, body, redirect, signal: abort.signal });
    return { res, settled: () => clearTimeout(timer) };
  } catch (e) {
    clearTimeout(timer);
    throw transportError(endpoint, e);
  }
}

/** A failure with no answer (origin-wire 1.5): the base URL unreachable, or silent past the timeout. */
function transportError(endpoint: Endpoint, e: unknown): SvcError {
  const base = baseOf(endpoint);
  if ((e as Error)?.name === "TimeoutError") {
    return new SvcError(`${base} did not answer within ${(endpoint.timeoutMs ?? 60_000) / 1000}s`, null, "timeout");
  }
  const cause = (e as Error)?.message ?? String(e);
  return new SvcError(
    `cannot reach ${base}: ${cause} — check the URL (SVC_BASE_URL / SVC_PAY_URL) and your network`,
    null,
    "network",
  );
}

function retryAfterSeconds(headers: Headers): number | null {
  const ms = retryAfterMs(headers.get("retry-after"), Date.now());
  return ms === null ? null : Math.ceil(ms / 1000);
}

/** The most bytes of one JSON answer read (a 1000-record page, a manifest of many thousand parts fit well within). */
export const MAX_JSON_ANSWER_BYTES: number = 64 * 1024 * 1024;

/** The body as text, refused once it passes {@linkcode MAX_JSON_ANSWER_BYTES}. */
async function readCapped(endpoint: Endpoint, res: Response): Promise<string> {
  const tooLarge = () =>
    new SvcError(
      `${baseOf(endpoint)}: the answer is larger than ${MAX_JSON_ANSWER_BYTES} bytes; refused`,
      res.status,
      "too_large",
      null,
    );
  if (Number(res.headers.get("content-length") ?? 0) > MAX_JSON_ANSWER_BYTES) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > MAX_JSON_ANSWER_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return await new Blob(chunks as Uint8Array<ArrayBuffer>[]).text();
}

async function interpret(endpoint: Endpoint, res: Response, exact = false): Promise<JsonAnswer> {
  const base = baseOf(endpoint);
  const text = await readCapped(endpoint, res);
  if (res.status >= 300 && res.status < 400) {
    throw new SvcError(
      `${base} redirected to ${res.headers.get("location")}: set SVC_BASE_URL to that origin (usually https)`,
      res.status,
      "redirect",
    );
  }
  if (!res.ok) {
    const { message, code, body } = readErrorAnswer(res.status, res.statusText, text);
    const fromNode = answeredByNode(res.headers);
    // A node's token is the key its clients send: say so where a client would look for an agent key.
    const said = fromNode && res.status === 401 ? `${message} — ${NODE_TOKEN_HINT}` : message;
    const error = errorForStatus(res.status, said, body, code, retryAfterSeconds(res.headers));
    error.asked = base;
    if (fromNode) error.fromNode = true;
    throw error;
  }
  if (res.status === 204 || text === "") return { status: res.status, headers: res.headers, body: null };
  try {
    return { status: res.status, headers: res.headers, body: exact ? parseExactJson(text) : JSON.parse(text) };
  } catch {
    const { protocol, host } = new URL(base);
    const type = res.headers.get("content-type") ?? "no content type";
    throw new SvcError(
      `${protocol}//${host} answered with ${type}, not JSON — is this the SVC origin?`,
      res.status,
      "bad_answer",
    );
  }
}

/** What a client is told after a node's 401. */
const NODE_TOKEN_HINT = "pass the node's token as the key (apiKey, or SVC_API_KEY)";

/** Whether an answer with `headers` came from a node (its marker header, or its 401 challenge). */
function answeredByNode(headers: Headers): boolean {
  return headers.get("x-svc-node") === "1" || /realm="svc-node"/i.test(headers.get("www-authenticate") ?? "");
}

/** The retry loop: the last answer, retried where the call is safe to repeat. */
async function send(
  endpoint: Endpoint,
  method: string,
  path: string,
  body: string | null,
  headers: Record<string, string>,
  options: CallOptions,
): Promise<{ res: Response; settled: () => void }> {
  const retry = options.retry ?? (method === "GET" || method === "HEAD");
  const retries = retry ? endpoint.retries ?? DEFAULT_RETRIES : 0;
  const sleep = endpoint.sleep ?? defaultSleep;
  const route = options.route ?? `${method} ${path.split("?")[0]}`;
  for (let tried = 0;; tried++) {
    let sent;
    try {
      sent = await attempt(endpoint, method, path, body, headers);
    } catch (e) {
      if (tried >= retries) throw e;
      await sleep(backoffMs(tried, null));
      continue;
    }
    const { res, settled } = sent;
    warnOnce(endpoint, route, res.headers);
    if (tried < retries && retryableStatus(res.status, options.partTransfer === true)) {
      const asked = retryAfterMs(res.headers.get("retry-after"), Date.now());
      if (asked === null || asked <= MAX_RETRY_AFTER_S * 1000) {
        await res.body?.cancel();
        settled();
        await sleep(backoffMs(tried, asked));
        continue;
      }
    }
    return sent;
  }
}

/** Reads a body under the attempt's timeout, as an `SvcError` naming the base URL if it fails. */
async function settle<T>(endpoint: Endpoint, sent: { settled: () => void }, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof SvcError) throw e;
    throw transportError(endpoint, e);
  } finally {
    sent.settled();
  }
}

/**
 * Calls `method path` on `endpoint` with `body` (JSON text, or null) and
 * returns the parsed answer.
 */
export async function callJson(
  endpoint: Endpoint,
  method: string,
  path: string,
  body: string | null,
  headers: Record<string, string> = {},
  options: CallOptions = {},
): Promise<JsonAnswer> {
  const sent = await send(endpoint, method, path, body, headers, options);
  return await settle(endpoint, sent, () => interpret(endpoint, sent.res, options.exactIntegers));
}

/**
 * Calls `GET path` on `endpoint` and returns the answer with its body
 * unread, for downloads: the timeout covers the wait for the headers only.
 * Errors are thrown as {@linkcode callJson} throws them, but for the
 * statuses in `options.pass`.
 */
export async function callStream(endpoint: Endpoint, path: string, options: StreamOptions = {}): Promise<Response> {
  const sent = await send(endpoint, "GET", path, null, { accept: "*/*", ...options.headers }, options);
  if (sent.res.ok || options.pass?.includes(sent.res.status)) {
    sent.settled();
    return sent.res;
  }
  return await settle(endpoint, sent, async () => {
    await interpret(endpoint, sent.res);
    throw new SvcError(`${baseOf(endpoint)}: answered ${sent.res.status}`, sent.res.status, "bad_answer", null);
  });
}
