/**
 * A client's local store (`@svc/cli/local`): the operations that move
 * versions between a node or the origin (a `Client` of `@svc/cli`) and a
 * store on disk, in the layout a node serves. A pull and a JSON-lines pull,
 * a bundle saved and loaded (checked member by member and against the keys
 * pinned for the origin), SQL over a held version on the node's own
 * engine, and records sent back to the origin: a bundle's (`pushBundle`) or
 * a node-local project's newest version (`promote`).
 *
 * Unlike the remote client (`@svc/cli`), this entry loads the store, and
 * `queryLocal` the node and its SQL engine (DuckDB).
 *
 * @module
 */
export { pull } from "./pull.ts";
export { type JsonLinesResult, pullJsonLines } from "./pull_jsonl.ts";
export { heldWhole } from "./held.ts";
export { BUNDLE_FORMAT, loadBundle, save, saveBundle } from "./bundle.ts";
export { queryLocal } from "./query.ts";
export {
  promote,
  type PromoteOptions,
  type PromoteResult,
  pushBundle,
  type PushBundleOptions,
  type PushBundleResult,
  readBundleHeader,
} from "./push_bundle.ts";
export type { BundleHeader, LoadResult, PullOptions, PullResult, TrustOptions } from "./types.ts";
export type { QueryAnswer } from "../wire/mod.ts";
export { saveHeld } from "./bundle.ts";
export { DEFAULT_PAGE } from "./pull_jsonl.ts";
export { MAX_PAGE } from "./pull_jsonl.ts";
