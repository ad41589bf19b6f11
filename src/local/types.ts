/**
 * The shapes of the local-store operations: pull, save, load and their
 * signature check.
 *
 * @module
 */
import type { Manifest, SignatureStatus } from "../wire/mod.ts";
import type { CopyTarget } from "../store/mod.ts";

/** Whose keys to check against. */
export interface TrustOptions {
  /** The trust file. */
  trustFile: string;
  /** The origin whose pinned keys must have signed. */
  origin: string;
  /** Refuse anything not `verified` (verify, `SVC_VERIFY`). */
  required: boolean;
}

/** How to pull. */
export interface PullOptions {
  /** The version (default: the newest). */
  version?: number;
  /** The manifest, when the caller has it already (a purchase answered it); else it is asked for only when needed. */
  manifest?: Manifest;
  /**
   * Refuse a version below this one before a byte of it is fetched (a
   * follower passes the version it holds: following never goes back).
   */
  atLeast?: number;
  /** The store: its directory, or `s3://bucket/prefix` (a bucket reached with the `AWS_*` variables). */
  store: string;
  /**
   * The store as a target made already (a mirror's, sharing its node's view of the bucket); wins over `store`.
   * @internal
   */
  target?: CopyTarget;
  /** Parts fetched at once (default 4). */
  workers?: number;
  /** Called as bytes arrive: done and total of the parts to fetch. */
  onProgress?: (doneBytes: number, totalBytes: number) => void;
  /**
   * Check the signature against the keys pinned for `origin` in the trust
   * file `trustFile`; with `required`, anything but `verified` is refused
   * before a byte of a part is fetched, and so is a version below the
   * newest one held or a held version whose parts differ.
   */
  trust?: TrustOptions;
}

/** What a pull did. */
export interface PullResult {
  /** Project slug. */
  slug: string;
  /** The version now in the store. */
  version: number;
  /** Records in it. */
  records: number;
  /** Parts in it. */
  parts: number;
  /** Parts fetched by this pull. */
  downloaded: number;
  /** Bytes fetched by this pull. */
  bytes: number;
  /** The origin named by the manifest's signature, if it carries one. */
  signedBy: string | null;
  /** `verified`, `unsigned` or `untrusted` (null when no trust check was asked). */
  signature: SignatureStatus | null;
}

/** What a bundle's `svc-bundle.json` says. */
export interface BundleHeader {
  /** `svc-bundle/1`. */
  format: string;
  /** Project slug. */
  project: string;
  /** Version. */
  version: number;
  /** Title, license, access, visibility of the project. */
  title: string;
  /** License. */
  license: string;
  /** Access. */
  access: string;
  /** Visibility. */
  visibility: string;
  /** Records in the version. */
  records: number;
  /** Parts in the version. */
  parts: number;
  /** Bytes of the parts. */
  bytes: number;
  /** SHA-256 of `manifest.json` as stored in the bundle. */
  manifestSha256: string;
  /** When the bundle was made. */
  savedAt: string;
  /** Where the version came from. */
  source: string | null;
  /** The SDK that made it. */
  sdk: string;
}

/** What loading found and did. */
export interface LoadResult {
  /** The bundle's header. */
  header: BundleHeader;
  /** Parts the store did not hold yet (and got, unless checking). */
  newParts: number;
  /** Whether anything was written. */
  written: boolean;
  /** The signature check's outcome, when one was asked for. */
  signature: SignatureStatus | null;
}
