/**
 * Following: keeping copies of projects current from the origin or from an
 * upstream node, with signatures checked against the origin's pinned keys.
 *
 * @module
 */
export { type Follower, startFollower } from "./follower.ts";
