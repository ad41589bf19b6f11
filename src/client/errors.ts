/**
 * Errors a client raises. `SvcError` names the base URL and carries the
 * status, a short code and the answer's body; subclasses say what kind of
 * failure by status. `ValueError` is raised before anything is sent.
 *
 * @module
 */

/** Longest message an error carries. */
export const MAX_MESSAGE = 300;

/** A call to a node or the origin that did not succeed. */
export class SvcError extends Error {
  /** HTTP status, or 0 when no answer came. */
  readonly status: number;
  /** A short code (`http_404`, `network`, `timeout`, `redirect`, `bad_answer`). */
  readonly code: string;
  /** The answer's parsed body, when there was one. */
  readonly body: unknown;

  /**
   * An error naming what failed, with the answer's status, a short code and its body.
   *
   * @example
   * ```ts
   * import { SvcError } from "./errors.ts";
   * throw new SvcError("http://127.0.0.1:8686: project notes is not on this node", 404, "http_404", null);
   * ```
   */
  constructor(message: string, status: number, code: string, body: unknown) {
    super(message.length > MAX_MESSAGE ? message.slice(0, MAX_MESSAGE - 1) + "…" : message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** 400: the request was refused as invalid. */
export class ValidationError extends SvcError {}
/** 401 or 403: a key or token is missing, wrong or not allowed. */
export class AuthError extends SvcError {}
/** 404: no such project, version or route. */
export class NotFoundError extends SvcError {}
/** 409: the name is taken. */
export class ConflictError extends SvcError {}
/** 429: too many requests; `retryAfter` in seconds when the server said. */
export class RateLimitError extends SvcError {}
/** 5xx: the server failed. */
export class ServerError extends SvcError {}

/** 402: payment or quota needed; carries the price and where to pay. */
export class PaymentRequiredError extends SvcError {
  /** The price, when the answer named one. */
  readonly price: unknown;
  /** Where to pay, when the answer named it. */
  readonly paymentUrl: string | null;

  /**
   * A 402 with the price and payment URL read from the answer's `body`.
   *
   * @example
   * ```ts
   * import { PaymentRequiredError } from "./errors.ts";
   * new PaymentRequiredError("payment needed", { price: "0.50", paymentUrl: "https://pay.example" }).price; // "0.50"
   * ```
   */
  constructor(message: string, body: unknown) {
    super(message, 402, "http_402", body);
    const b = (body ?? {}) as Record<string, unknown>;
    this.price = b.price ?? null;
    this.paymentUrl = typeof b.paymentUrl === "string"
      ? b.paymentUrl
      : typeof b.payment_url === "string"
      ? b.payment_url
      : null;
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
   * throw new ValueError("records must hold 1-500 records");
   * ```
   */
  constructor(message: string) {
    super(message);
    this.name = "ValueError";
  }
}

/** A call that needs an agent key was made without one (raised before sending). */
export class KeyRequiredError extends ValueError {
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
    super(`${call} needs an agent key: pass apiKey or set SVC_API_KEY (a node without a token takes any)`);
    this.name = "KeyRequiredError";
    this.call = call;
  }
}

/**
 * The error class for an HTTP `status`.
 *
 * @example
 * ```ts
 * import { errorForStatus, NotFoundError } from "./errors.ts";
 * errorForStatus(404, "gone", null) instanceof NotFoundError; // true
 * ```
 */
export function errorForStatus(status: number, message: string, body: unknown): SvcError {
  const code = `http_${status}`;
  if (status === 400) return new ValidationError(message, status, code, body);
  if (status === 401 || status === 403) return new AuthError(message, status, code, body);
  if (status === 402) return new PaymentRequiredError(message, body);
  if (status === 404) return new NotFoundError(message, status, code, body);
  if (status === 409) return new ConflictError(message, status, code, body);
  if (status === 429) return new RateLimitError(message, status, code, body);
  if (status >= 500) return new ServerError(message, status, code, body);
  return new SvcError(message, status, code, body);
}
