/**
 * Wire shapes and validators shared by the node, the client and the tests.
 *
 * @module
 */
export { parseDocumentJson, stringifyExactJson } from "./exact_json.ts";
export { type Bounded, WIRE_LIMITS } from "./limits.ts";
export { type ExactJson, JSON_MAX_DEPTH, JsonTooDeep, nestsDeeperThan, parseExactJson } from "./json_parse.ts";
export { checkNewProject, namedAlikeButForCase, type NewProject, newProjectProblems } from "./new_project.ts";
export { isSha256, isSlug, notASlug, SHA256_PATTERN, SLUG_PATTERN, SLUG_RULE } from "./slug.ts";
export { stableStringify } from "./stable_json.ts";
export type {
  ContributionView,
  DataPage,
  ErrorBody,
  Manifest,
  ManifestPart,
  ProjectDetail,
  ProjectEntry,
  QueryAnswer,
  SchemaDef,
  SchemaField,
  VersionSummary,
} from "./types.ts";
export type {
  FollowStatus,
  Health,
  IncompleteVersion,
  MemoryHealth,
  MemoryPlan,
  Readiness,
  SandboxWall,
  SignatureStatus,
} from "./health_types.ts";
export { listedLicense } from "./licenses.ts";
export { ORIGIN_LICENSES } from "./licenses.ts";
