/**
 * What changes a store: a contribution to a local project (gates, dedup,
 * a Parquet part, a new version), a new local project, and finishing what
 * an interrupted merge left. The floor above both the store and Parquet, so
 * a contribution walks down the floors only.
 *
 * @module
 */
export { contribute, type ContributionOutcome, type ContributionRequest } from "./contribute.ts";
export { createLocalProject } from "./create_project.ts";
export { foldCount, RECOVER_AT_START, recoverProject, schemaHash } from "./merge.ts";
export { createWriteCache, type WriteCache, type WriteTarget } from "./target.ts";
export { writePart } from "./write_part.ts";
