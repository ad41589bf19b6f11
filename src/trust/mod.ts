/**
 * Signed manifests: the signed statement, Ed25519 on WebCrypto, and the
 * verification of a manifest against an origin's pinned keys.
 *
 * @module
 */
export * from "./ed25519.ts";
export * from "./statement.ts";
export * from "./trust_file.ts";
export * from "./verify.ts";
