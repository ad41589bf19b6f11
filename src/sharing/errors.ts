/**
 * The errors of the Delta Sharing routes: a node error that also carries the
 * protocol's `errorCode`, and the code for any other failure by its status.
 *
 * @module
 */
import { kindOfStatus, NodeError } from "../errors/mod.ts";

/** A failure of a sharing route with the protocol's error code. */
export class SharingError extends NodeError {
  /** The protocol's `errorCode`, e.g. `RESOURCE_DOES_NOT_EXIST`. */
  readonly code: string;

  /**
   * @example
   * ```ts
   * import { SharingError } from "./errors.ts";
   * new SharingError(404, "RESOURCE_DOES_NOT_EXIST", "no table notes").status; // 404
   * ```
   */
  constructor(status: number, code: string, message: string) {
    super(kindOfStatus(status), message);
    this.name = "SharingError";
    this.code = code;
  }
}

const CODES: Readonly<Record<number, string>> = {
  400: "INVALID_PARAMETER_VALUE",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "RESOURCE_DOES_NOT_EXIST",
  405: "UNSUPPORTED_OPERATION",
  408: "REQUEST_TIMEOUT",
  413: "RESOURCE_LIMIT_EXCEEDED",
  415: "MALFORMED_REQUEST",
  429: "RESOURCE_EXHAUSTED",
  503: "TEMPORARILY_UNAVAILABLE",
};

/**
 * The protocol's `errorCode` for `error` answered with `status`.
 *
 * @example
 * ```ts
 * import { sharingErrorCode } from "./errors.ts";
 * sharingErrorCode(new Error("x"), 404); // "RESOURCE_DOES_NOT_EXIST"
 * ```
 */
export function sharingErrorCode(error: unknown, status: number): string {
  if (error instanceof SharingError) return error.code;
  return CODES[status] ?? (status >= 500 ? "INTERNAL_ERROR" : "INVALID_PARAMETER_VALUE");
}
