/**
 * Following: keeping copies of projects current from the origin or from an
 * upstream node, with signatures checked against the origin's pinned keys.
 *
 * @module
 */
export * from "./follower.ts";
export * from "./sync.ts";
export * from "./keys.ts";
