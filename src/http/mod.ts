/**
 * The node's HTTP/1.1 server, the same code on Deno and on Node over a
 * runtime's listener (see `src/runtime/`): a connection cap, header, idle
 * and stall timeouts, strict request framing, graceful shutdown.
 *
 * @module
 */
export { type HttpServer, type HttpServerOptions, serveHttp } from "./server.ts";
export type { ErrorAnswer } from "./connection.ts";
export { requestFault } from "./_errors.ts";
export { checkBodyHeaders, FORM_TYPE, MAX_BODY_BYTES, readJsonBody } from "./request_body.ts";
export { publicOrigin } from "./public_origin.ts";
export { relay, type RelayOptions } from "./relay.ts";
export { bytesOf, bytesResponse } from "./bytes_response.ts";
export {
  type Conn,
  DEFAULT_LIMITS,
  type HttpLimits,
  type Listen,
  type Listener,
  type QuickAnswer,
  type QuickHandler,
  type RequestHeadView,
  type ServeHandler,
  type ServeInfo,
} from "./types.ts";
export { isLoopback, splitAuthority, urlHostName } from "./authority.ts";
