/**
 * The Deno permissions a node runs under (see `launch/permissions.ts`,
 * where they are computed without loading anything else).
 *
 * @module
 */
export { basePermissions, netTarget, type NodePaths, nodePermissionFlags, type NodeReach } from "../launch/mod.ts";
