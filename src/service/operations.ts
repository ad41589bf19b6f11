/**
 * The services that answer the catalog's operations by name: each area's
 * file gives its own table (`PROJECT_SERVICES`, ...), merged here. An
 * operation answered by a service alone needs no route and no tool of its
 * own: the node's router and the MCP tools call it through this table, with
 * the input the catalog's schema parsed.
 *
 * @module
 */
import type { OperationName } from "../catalog/mod.ts";
import type { ServiceOf, ServiceTable } from "./service_table.ts";
export type { Served, ServiceOf, ServiceTable } from "./service_table.ts";
import { PROJECT_SERVICES } from "./projects.ts";
import { STATISTICS_SERVICES } from "./statistics.ts";
import { CONTRIBUTION_SERVICES } from "./writes.ts";

/** Every operation a service answers alone, by name. */
export const SERVICES: ServiceTable = { ...PROJECT_SERVICES, ...STATISTICS_SERVICES, ...CONTRIBUTION_SERVICES };

/**
 * The service of operation `name`, or null when its faces answer it
 * themselves (a download, a stream, the node's own routes).
 *
 * @example
 * ```ts
 * import { serviceOf } from "./operations.ts";
 * serviceOf("project_detail") !== null; // true
 * serviceOf("export"); // null
 * ```
 */
export function serviceOf<N extends OperationName>(name: N): ServiceOf<N> | null {
  return (SERVICES[name] as ServiceOf<N> | undefined) ?? null;
}
