/**
 * Wire shapes and validators shared by the node, the client and the tests.
 *
 * @module
 */
export * from "./slug.ts";
export type * from "./types.ts";
