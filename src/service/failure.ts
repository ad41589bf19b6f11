/**
 * What any error thrown while answering becomes, for HTTP and MCP alike: a
 * route's refusal keeps its status and message; a client's malformed, cut
 * or too slow body is its 4xx; a full disk is 507 with a message that names
 * no path; anything else is logged whole and answered 500 without detail.
 *
 * @module
 */
import { requestFault } from "../http/mod.ts";
import { DISK_FULL_MESSAGE, isDiskFull } from "../store/mod.ts";
import { NodeError } from "../errors/mod.ts";
import type { NodeLog } from "./state.ts";

/** An error as a client is told of it. */
export interface Failure {
  /** HTTP status (an MCP tool error reads `<status>: <message>`). */
  status: number;
  /** The message, free of the node's paths. */
  message: string;
  /** Extra answer headers (`allow`, `retry-after`, `www-authenticate`). */
  headers: Record<string, string>;
}

/** The message of a 500: the details go to the node's log only. */
export const INTERNAL_MESSAGE = "internal error: the node's log has the details";

/**
 * What `error`, thrown while answering `what` (`GET /projects`, `MCP
 * contribute_records`), becomes; errors that are the node's are logged to
 * the node's log here.
 *
 * @example
 * ```ts
 * import { failureOf } from "./failure.ts";
 * import { NodeError } from "../errors/mod.ts";
 * failureOf(new NodeError("not-found", "not found: GET /x"), "GET /x", { error: () => {} }).status; // 404
 * ```
 */
export function failureOf(error: unknown, what: string, log: Pick<NodeLog, "error">): Failure {
  if (error instanceof NodeError) return { status: error.status, message: error.message, headers: error.headers };
  const fault = requestFault(error);
  if (fault !== null) return { ...fault, headers: {} };
  if (isDiskFull(error)) {
    log.error(`${what}: disk full: ${(error as Error)?.message ?? error}`);
    return { status: 507, message: DISK_FULL_MESSAGE, headers: {} };
  }
  log.error(what, error);
  return { status: 500, message: INTERNAL_MESSAGE, headers: {} };
}
