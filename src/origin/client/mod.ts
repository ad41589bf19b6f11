/**
 * The origin's client: {@linkcode OriginClient} and its call areas.
 *
 * @module
 */
export { OriginClient, type OriginClientOptions } from "./origin_client.ts";
export type { AccountCalls } from "./account.ts";
export type { CommunityCalls, ReviewTarget } from "./community.ts";
export type { KnowledgeCalls, PriceChange, SearchOptions, UnitWaitOptions } from "./knowledge.ts";
export type { PaymentCalls, WalletProof } from "./payments.ts";
export type { OriginContext } from "./context.ts";
export { initUpload, pushFile, type PushOptions, type PushProgress, type PushResult } from "./push.ts";
export { MAX_PART_BYTES, MIB, MIN_PART_BYTES, uploadPaths } from "./_upload_state.ts";
