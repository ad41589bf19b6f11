/**
 * The client side of svc: a `Client` for a node's operations (and the
 * datasets of the origin, which answers them too), its errors, the wire
 * shapes, and the catalog of operations its calls are drawn from
 * (`client.call(name, input)` reaches any of them). It only talks HTTP:
 * importing this module loads no part of the store, the node or a database,
 * and no npm package. Pulling into a store on disk, bundles and SQL over a
 * held version are `@svc/cli/local`, which takes a `Client`. What only the
 * origin answers (knowledge units, the account, the community, payments,
 * pushes of large files) is the package `@svc/origin`, and what a wallet
 * signs `@svc/origin/pay`.
 *
 * @example
 * ```ts
 * import { Client } from "./mod.ts";
 * import { serveNode } from "./server.ts";
 *
 * const serving = await serveNode({ store: await Deno.makeTempDir(), host: "127.0.0.1", port: 0, token: "local" });
 * const client = new Client({ baseUrl: serving.url, apiKey: "local" });
 * await client.create({
 *   slug: "notes",
 *   title: "Notes",
 *   readme: "Notes kept while working, one per record.",
 *   schemaDef: { fields: [{ name: "text", type: "string" }] },
 * });
 * await client.contribute("notes", [{ text: "first" }, { text: "second" }]);
 * const page = await client.data("notes", { limit: 5 });
 * const answer = await client.query("notes", "SELECT count(*) AS n FROM records");
 * console.log(page.records.length, answer.rows); // 2 [[2]]
 * await serving.shutdown();
 * ```
 *
 * @module
 */
export {
  Client,
  type ClientOptions,
  type ContributeOptions,
  type ContributionAnswer,
  DEFAULT_BASE_URL,
} from "./src/client/mod.ts";
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
} from "./src/client/mod.ts";
export { SvcDeprecationWarning } from "./src/client/mod.ts";
export {
  type AnswerOf,
  type ArrayField,
  type BooleanField,
  CATALOG,
  type Catalog,
  type CommandEntry,
  type CommandGroup,
  type Encoding,
  type Field,
  type FieldBase,
  type Fields,
  type Flatten,
  type InputFields,
  type InputOf,
  type IntegerField,
  type MayLeaveOut,
  NODE_OPERATIONS,
  type ObjectField,
  type Operation,
  type OperationAnswer,
  type OperationInput,
  type OperationName,
  operations,
  type OptionalFields,
  PROJECT_OPERATIONS,
  RECORD_OPERATIONS,
  type RecordField,
  type RequiredFields,
  type ScalarField,
  type StringField,
  type Taken,
  type ToolEntry,
  type ValueOf,
  WRITE_OPERATIONS,
} from "./src/catalog/mod.ts";
export type * from "./src/wire/mod.ts";
export type { ExportAnswer, ExportFileOptions, ExportFileResult } from "./src/client/mod.ts";
export type { Pusher, PushOptions, PushProgress, PushResult } from "./src/client/mod.ts";
export { isSha256, isSlug, SHA256_PATTERN, SLUG_PATTERN, WIRE_LIMITS } from "./src/wire/mod.ts";
export { VERSION } from "./src/version.ts";
