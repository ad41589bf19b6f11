/**
 * Wire shapes and validators shared by the node, the client and the tests.
 *
 * @module
 */
export * from "./exact_json.ts";
export { type Bounded, WIRE_LIMITS } from "./limits.ts";
export * from "./json_parse.ts";
export * from "./new_project.ts";
export * from "./slug.ts";
export * from "./stable_json.ts";
export type * from "./types.ts";
export { listedLicense } from "./licenses.ts";
export { ORIGIN_LICENSES } from "./licenses.ts";
