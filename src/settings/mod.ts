/**
 * The node's settings, read before anything heavy loads: `svc serve`'s flags
 * and environment checked ({@linkcode parseServeArgs},
 * {@linkcode checkServeSettings}), and the defaults they fall back on. The
 * container's entrypoint plans its processes from these without loading
 * DuckDB, so this module imports nothing that does.
 *
 * @example
 * ```ts
 * import { parseServeArgs } from "./mod.ts";
 * parseServeArgs(["--port", "9000"], {}).port; // 9000
 * ```
 *
 * @module
 */
export {
  checkServeSettings,
  DEFAULT_INTERVAL,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_PORT,
  MIN_EXPOSED_TOKEN,
  parseServeArgs,
  SERVE_HELP,
  type ServeSettings,
} from "./serve.ts";
export { knownCgroupLimit, memoryPlan, nodeMemoryPlan } from "./memory.ts";
export { usageFrom } from "./usage.ts";
export { verifyRequired } from "./verify.ts";
export { nodeReach, type ReachSettings, sandboxOff } from "./sandbox.ts";
export {
  checkObjectStore,
  DEFAULT_CACHE_DIR,
  DEFAULT_PART_CACHE,
  objectStoreReach,
  type ObjectStoreSettings,
  objectStoreSettings,
  S3_ENV_NAMES,
} from "./object_store.ts";
