/**
 * The client side of svc: a `Client` for a node or the origin, its errors,
 * and the wire shapes both answer with. It only talks HTTP: importing this
 * module loads no part of the store, the node or a database, and no npm
 * package. Pulling into a store on disk, bundles and SQL over a held version
 * are `@svc/cli/local`, which takes a `Client`; payments that a wallet signs
 * (x402 purchases, purchase history, disputes) are `@svc/cli/pay`.
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
export type { AccountCalls } from "./src/client/mod.ts";
export type { CommunityCalls, ReviewTarget } from "./src/client/mod.ts";
export type * from "./src/wire/mod.ts";
export { REPORT_KINDS, REPORT_REASONS } from "./src/wire/mod.ts";
export type * from "./src/wire/mod.ts";
export type { ExportAnswer, ExportFileOptions, ExportFileResult } from "./src/client/mod.ts";
export type { PushOptions, PushProgress, PushResult } from "./src/client/mod.ts";
export type { KnowledgeCalls, PriceChange, SearchOptions, UnitWaitOptions } from "./src/client/mod.ts";
export type * from "./src/wire/mod.ts";
export type { PaymentCalls, WalletProof } from "./src/client/mod.ts";
export type * from "./src/wire/mod.ts";
export { isSha256, isSlug, SHA256_PATTERN, SLUG_PATTERN } from "./src/wire/mod.ts";
export type * from "./src/wire/mod.ts";
export { VERSION } from "./src/version.ts";
