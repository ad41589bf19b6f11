/**
 * The on-disk store: layout, `project.json`, manifests, and the versions
 * readers may see.
 *
 * @module
 */
export * from "./atomic.ts";
export * from "./commit_version.ts";
export * from "./contributions.ts";
export * from "./disk_full.ts";
export * from "./export_cache.ts";
export * from "./identity_index.ts";
export * from "./layout.ts";
export * from "./lock.ts";
export * from "./manifest.ts";
export * from "./order_file.ts";
export * from "./provenance.ts";
export * from "./project_file.ts";
export * from "./retention.ts";
export * from "./statistics_file.ts";
export * from "./store.ts";
export { openRegularFile } from "./regular_file.ts";
export { storeBytes } from "./usage.ts";
export { CHANGES_FILE, changeText, readChange, type VersionChange } from "./changes.ts";
