/**
 * How things fail, said once whatever answers: the node's domain errors
 * ({@linkcode NodeError} of a kind, each with its HTTP status) and the
 * command line's ({@linkcode UsageError} exits 2, {@linkcode CliError} 1).
 *
 * @example
 * ```ts
 * import { NodeError, statusOf } from "./mod.ts";
 * statusOf(new NodeError("not-found", "project not found on this node").kind); // 404
 * ```
 *
 * @module
 */
export { type ErrorKind, kindOfStatus, NodeError, statusOf } from "./node_error.ts";
export { CliError, fileError, fileReason, UsageError } from "./command.ts";
export { certificateAdvice, certificateFailure, untrustedCertificate } from "./certificate.ts";
export { closestName, didYouMean } from "./did_you_mean.ts";
