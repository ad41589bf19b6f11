/**
 * The remote client, for the modules of this package (the public door for
 * users is the root `mod.ts`): `Client`, its errors and its upload state.
 *
 * @module
 */
export * from "./client.ts";
export * from "./errors.ts";
export { callJson } from "./http.ts";
export type { Endpoint } from "./http.ts";
export { exportFile } from "./export_file.ts";
export { newestVersion } from "./export_file.ts";
export type { PushProgress } from "./push.ts";
export { MAX_PART_BYTES } from "./_upload_state.ts";
export { MIB } from "./_upload_state.ts";
export { MIN_PART_BYTES } from "./_upload_state.ts";
export { uploadPaths } from "./_upload_state.ts";
export { pushFile } from "./push.ts";
export type { PushResult } from "./push.ts";
export { backoffMs } from "./retry.ts";
export { DEFAULT_RETRIES } from "./retry.ts";
export { retryableStatus } from "./retry.ts";
export { SvcDeprecationWarning } from "./deprecation.ts";
export type { AccountCalls } from "./account.ts";
export type { CommunityCalls } from "./community.ts";
export type { ReviewTarget } from "./community.ts";
export type { ExportAnswer } from "./types.ts";
export type { ExportFileOptions } from "./types.ts";
export type { ExportFileResult } from "./types.ts";
export type { PushOptions } from "./push.ts";
export type { KnowledgeCalls } from "./knowledge.ts";
export type { PriceChange } from "./knowledge.ts";
export type { SearchOptions } from "./knowledge.ts";
export type { UnitWaitOptions } from "./knowledge.ts";
export type { PaymentCalls } from "./payments.ts";
export type { WalletProof } from "./payments.ts";
