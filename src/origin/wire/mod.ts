/**
 * The origin's wire shapes: knowledge units, the account, the community
 * (requests board, reviews, reports) and payments. A node answers none of
 * them; the node's own shapes are `@svc/cli`'s.
 *
 * @module
 */
export type * from "./account.ts";
export type * from "./community.ts";
export type * from "./knowledge.ts";
export type * from "./payments.ts";
export { REPORT_KINDS, REPORT_REASONS } from "./account.ts";
