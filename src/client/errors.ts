/**
 * Errors a client raises (origin-wire 6). `SvcError` carries the message the
 * answer gave (or ours, naming the base URL, when no answer came), the
 * status, a short code and the answer's body; subclasses say what kind of
 * failure by status. `ValueError` is raised before anything is sent.
 *
 * @module
 */

/** Longest message taken from an answer (origin-wire 6: longer ones keep 297 characters and `...`). */
export const MAX_MESSAGE = 300;

/** A call to a node, the origin or the pay service that did not succeed. */
export class SvcError extends Error {
  /** HTTP status, or null when no answer came (or the failure is local). */
  readonly status: number | null;
  /** A short code: the answer's `code`, or ours (`network`, `timeout`, `redirect`, `bad_answer`, ...); null if none. */
  readonly code: string | null;
  /** The answer's parsed body, when there was one. */
  readonly body: unknown;
  /** The base URL that was asked, when the failure is an answer from it (the CLI names it after a 404). */
  asked?: string;
  /** True when the answer came from a node (`x-svc-node: 1`, or a 401 challenging for realm `svc-node`). */
  fromNode?: boolean;

  /**
   * An error saying what failed, with the answer's status, a short code and
   * its body. A status of 0 means no answer, as null does.
   *
   * @example
   * ```ts
   * import { SvcError } from "./errors.ts";
   * const e = new SvcError("project notes is not on this node", 404, null, null);
   * String(e); // "project notes is not on this node (HTTP 404)"
   * ```
   */
  constructor(message: string, status: number | null = null, code: string | null = null, body: unknown = null) {
    super(message);
    this.name = new.target.name;
    this.status = status || null;
    this.code = code;
    this.body = body;
  }

  /** The message, and `(HTTP <status>)` when an answer came: what the CLI prints after `error: `. */
  override toString(): string {
    return this.status === null ? this.message : `${this.message} (HTTP ${this.status})`;
  }
}

/** 400: the request was refused as invalid. */
export class ValidationError extends SvcError {}
/** 401 or 403: a key or token is missing, wrong or not allowed (also raised before sending when a key is needed). */
export class AuthError extends SvcError {}
/** 404: no such project, version, unit or route. */
export class NotFoundError extends SvcError {}
/** 409: taken, already done, or in a state that does not allow it. */
export class ConflictError extends SvcError {}
/** 5xx: the server failed. */
export class ServerError extends SvcError {}
/** A wait (for a contribution, a unit, a push's screening) that ran out of time; local. */
export class WaitTimeout extends SvcError {}

/** 429: too many requests, or a second price change in a day; never retried for writes. */
export class RateLimitError extends SvcError {
  /** Seconds to wait, from the body's `retryAfter` or the `Retry-After` header, when the server said. */
  readonly retryAfter: number | null;

  /**
   * A 429 with the wait the server asked for.
   *
   * @example
   * ```ts
   * import { RateLimitError } from "./errors.ts";
   * new RateLimitError("one price change a day", { retryAfter: 3600 }).retryAfter; // 3600
   * ```
   */
  constructor(message: string, body: unknown, code: string | null = null, retryAfter: number | null = null) {
    super(message, 429, code, body);
    const said = (body as { retryAfter?: unknown } | null)?.retryAfter;
    this.retryAfter = typeof said === "number" && Number.isFinite(said) ? said : retryAfter;
  }
}

/**
 * 402 (from the origin: a paid dataset or unit, quota or credits short), or
 * a purchase refused before anything was signed (no wallet key, a network
 * or asset not allowed, a price over the cap; then `status` is null and
 * `body` null). What the body says is lifted: `price`, `payUrl`, `quota`,
 * `credits`.
 */
export class PaymentRequiredError extends SvcError {
  /** The price the answer named (`"$0.10"`), else null. */
  readonly price: string | null;
  /** Where to pay or top up (`pay`, `topup`, `credits.topup`), else null. */
  readonly payUrl: string | null;
  /** The quota figures when a quota ran out (`{kind, storage, egress}`), else null. */
  readonly quota: Record<string, unknown> | null;
  /** The credit figures (`balanceMicro`, `neededMicro`, `priceMicro`, ...), else null. */
  readonly credits: Record<string, unknown> | null;

  /**
   * A 402 (or a local refusal with `status` null) with what its body says.
   *
   * @example
   * ```ts
   * import { PaymentRequiredError } from "./errors.ts";
   * const e = new PaymentRequiredError("payment required", { price: "$0.10", pay: "https://pay.example/paid/dataset" });
   * [e.price, e.payUrl]; // ["$0.10", "https://pay.example/paid/dataset"]
   * ```
   */
  constructor(message: string, body: unknown, status: number | null = 402, code: string | null = null) {
    super(message, status, code, body);
    const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
    const object = (v: unknown) =>
      v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : null;
    const text = (v: unknown) => typeof v === "string" && v !== "" ? v : null;
    const credits = object(b.credits);
    this.price = text(b.price);
    this.payUrl = text(b.pay) ?? text(b.payUrl) ?? text(b.topup) ?? text(credits?.topup) ?? text(credits?.buy);
    this.quota = object(b.quota);
    const figures = Object.fromEntries(
      Object.entries(b).filter(([k, v]) => /Micro$/.test(k) && typeof v === "number"),
    );
    this.credits = credits ?? (Object.keys(figures).length > 0 ? figures : null);
  }
}

/** A manifest signature that does not verify. */
export class SignatureError extends SvcError {}
/** A bundle that fails its checks. */
export class BundleError extends SvcError {}

/** Input refused before anything was sent. */
export class ValueError extends Error {
  /**
   * Input refused before sending, with what is wrong.
   *
   * @example
   * ```ts
   * import { ValueError } from "./errors.ts";
   * new ValueError("records must hold 1-500 records").name; // "ValueError"
   * ```
   */
  constructor(message: string) {
    super(message);
    this.name = "ValueError";
  }
}

/**
 * A call that needs an agent key was made without one: an {@linkcode AuthError}
 * raised before sending (origin-wire 1.3).
 */
export class KeyRequiredError extends AuthError {
  /** The client method that needed the key (`manifest`, `query`, ...). */
  readonly call: string;

  /**
   * The refusal of `call` for want of a key.
   *
   * @example
   * ```ts
   * import { KeyRequiredError } from "./errors.ts";
   * new KeyRequiredError("query").message; // "query needs an agent key: pass apiKey or set SVC_API_KEY (...)"
   * ```
   */
  constructor(call: string) {
    super(
      `${call} needs an agent key: pass apiKey or set SVC_API_KEY (an agent gets one by registering with a ` +
        "one-time claim code from its operator, svc claim CODE; a node started with a token takes that token as " +
        "the key)",
      null,
      "key_required",
    );
    this.call = call;
  }
}

/**
 * The error class for an HTTP `status`, with the message, body and code the
 * answer gave.
 *
 * @example
 * ```ts
 * import { errorForStatus, NotFoundError } from "./errors.ts";
 * errorForStatus(404, "gone", null) instanceof NotFoundError; // true
 * ```
 */
export function errorForStatus(
  status: number,
  message: string,
  body: unknown,
  code: string | null = null,
  retryAfter: number | null = null,
): SvcError {
  if (status === 400) return new ValidationError(message, status, code, body);
  if (status === 401 || status === 403) return new AuthError(message, status, code, body);
  if (status === 402) return new PaymentRequiredError(message, body, status, code);
  if (status === 404) return new NotFoundError(message, status, code, body);
  if (status === 409) return new ConflictError(message, status, code, body);
  if (status === 429) return new RateLimitError(message, body, code, retryAfter);
  if (status >= 500) return new ServerError(message, status, code, body);
  return new SvcError(message, status, code, body);
}

/**
 * What an error answer says (origin-wire 6): the body parsed as JSON (else
 * `{error: <first 500 characters>}`), its `message`, else its `error`, unless
 * that is not a string, is blank or starts with `<` (an HTML page from a
 * proxy); whitespace collapsed; over 300 characters cut to 297 and `...`;
 * with nothing left, the reason phrase, else `HTTP <status>`. `code` is the
 * body's `code`.
 *
 * @example
 * ```ts
 * import { readErrorAnswer } from "./errors.ts";
 * readErrorAnswer(502, "Bad Gateway", "<html><body>bad gateway</body></html>").message; // "Bad Gateway"
 * readErrorAnswer(404, "Not Found", '{"error": "project not found"}').message; // "project not found"
 * ```
 */
export function readErrorAnswer(
  status: number,
  reason: string,
  text: string,
): { message: string; code: string | null; body: unknown } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text.slice(0, 500) };
  }
  const b = (body && typeof body === "object" ? body : {}) as { message?: unknown; error?: unknown; code?: unknown };
  const usable = (v: unknown) => typeof v === "string" && v.trim() !== "" && !v.trimStart().startsWith("<");
  const said = [b.message, b.error].find(usable) as string | undefined;
  let message = said?.replace(/\s+/g, " ").trim() ?? "";
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE - 3)}...`;
  if (message === "") message = reason.trim() || `HTTP ${status}`;
  return { message, code: typeof b.code === "string" ? b.code : null, body };
}
