/**
 * The remote client's door, for the modules of this package and for the
 * packages built on the client (`@svc/origin`, as `@svc/cli/client`; users'
 * door is the root `mod.ts`): `Client`, its errors, and the transport its
 * calls share (one JSON call with retries where safe, the call context of
 * a client's areas, deprecation warnings).
 *
 * @module
 */
export { Client, type ClientOptions, DEFAULT_BASE_URL, MAX_HAVE, type QueryAnswer } from "./client.ts";
export type { ContributeOptions, ContributionAnswer } from "./contributions.ts";
export type { CallContext } from "./context.ts";
export type { Pusher, PushOptions, PushProgress, PushResult } from "./push_shapes.ts";
export {
  AuthError,
  BundleError,
  ConflictError,
  errorForStatus,
  KeyRequiredError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  readErrorAnswer,
  ServerError,
  SignatureError,
  SvcError,
  ValidationError,
  ValueError,
  WaitTimeout,
} from "./errors.ts";
export { callJson, type CallOptions, deliverWarning, type Endpoint, type JsonAnswer } from "./http.ts";
export { type ExportClient, exportFile, newestVersion } from "./export_file.ts";
export { backoffMs, DEFAULT_RETRIES, MAX_RETRY_AFTER_S, retryableStatus, retryAfterMs } from "./retry.ts";
export { SvcDeprecationWarning } from "./deprecation.ts";
export type { ExportAnswer, ExportFileOptions, ExportFileResult } from "./types.ts";
