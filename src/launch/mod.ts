/**
 * What runs before the command line's code loads: `svc serve` under Deno
 * becoming its narrowed node (`narrowServe`), with what that needs and
 * shares with the rest (the serve options, the node's permissions, the
 * relaunch command, libc through Deno's FFI). Deno's APIs only: no `node:`
 * module, nothing else of svc.
 *
 * @module
 */
export {
  address,
  canExecReplacing,
  cString,
  type DenoFfi,
  errno,
  execReplacing,
  landlockAbi,
  type Libc,
  loadLibc,
} from "./libc.ts";
export { nodeModulesAsIs, relaunchCommand } from "./command.ts";
export {
  CGROUP_MEMORY_ENV,
  cgroupMemoryLimitWith,
  cgroupOomKillsWith,
  type ReadText,
  RETURNING_MALLOC_ENV,
  returningMalloc,
  toldCgroupLimit,
} from "./cgroup.ts";
export { basePermissions, netTarget, type NodePaths, nodePermissionFlags, type NodeReach } from "./permissions.ts";
export {
  broadPermissions,
  HOME_ENV,
  homeEnv,
  KERNEL_LANDLOCK_ENV,
  type NarrowedNode,
  narrowedNode,
  narrowServe,
  SANDBOX_CHILD,
} from "./narrow.ts";
export { onOff, type ServeReach, serveReach } from "./reach.ts";
export { SERVE_OPTIONS } from "./serve_options.ts";
export { OWNED_TEMP_FOLDER, sweepStaleTempFolders, SWEPT_FOLDERS_ENV, sweptFoldersLine } from "./temp_folders.ts";
export {
  type BudgetSource,
  defaultMemoryBudget,
  memoryBudget,
  MIN_MEMORY_BUDGET,
  nodeHeapFlags,
  oldGenerationFloorFlags,
  parseBytes,
  semiSpace,
  semiSpaceFlags,
} from "./memory_budget.ts";
export { denoNodeV8Flags, NODE_TIER_UP_FLAGS } from "./node_v8_flags.ts";
