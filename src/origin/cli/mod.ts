/**
 * The `svc` commands only the origin answers (`@svc/origin/cli`), for the
 * one `svc` command, which loads them on use.
 *
 * @module
 */
export { ORIGIN_COMMANDS } from "./commands.ts";
