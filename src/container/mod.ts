/**
 * The container form of svc: what its entrypoint runs, under which Deno
 * permissions.
 *
 * @example
 * ```ts
 * import { planContainer } from "./mod.ts";
 * const layout = { app: "/app", deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", data: "/data" };
 * const plan = planContainer([], { SVC_NODE_TOKEN: "0123456789abcdef" }, layout, () => "");
 * console.log(plan.kind); // "serve"
 * ```
 *
 * @module
 */
export { main } from "./entrypoint.ts";
export { CONTAINER_PORT, type ContainerLayout, findDuckdbBinding, IMAGE_LAYOUT } from "./layout.ts";
export { commandPermissions, netTarget, nodePermissions, type NodeReach } from "./permissions.ts";
export {
  type ContainerPlan,
  type Env,
  EXIT_NO_KEYS,
  type PinStep,
  planContainer,
  type PlannedProcess,
  type ReadSecret,
} from "./plan.ts";
