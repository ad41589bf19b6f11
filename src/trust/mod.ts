/**
 * Signed manifests: the signed statement, Ed25519 on WebCrypto, and the
 * verification of a manifest against an origin's pinned keys.
 *
 * @module
 */
export { type KeysDocument, pinKeys, readTrustFile, trustFilePath, writeTrustFile } from "./trust_file.ts";
export { type Verdict, verifyManifest } from "./verify.ts";
