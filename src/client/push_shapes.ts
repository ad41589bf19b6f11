/**
 * A push's contract (origin-wire 2.1): how to push a JSON-lines file to the
 * origin as one contribution, where it is, and what it did. The origin's
 * client (`@svc/origin`) pushes; what sends local data back to the origin
 * (`svc promote`, `svc load --push`) takes any {@linkcode Pusher}.
 *
 * @module
 */

/** Where a push is, for a progress display. */
export interface PushProgress {
  /** `gzip`: the copy is being written (`done` of `total` source bytes); `upload`: parts are being sent. */
  phase: "gzip" | "upload";
  /** Bytes done: source bytes read, or bytes of the parts the object store holds. */
  done: number;
  /** Bytes in all. */
  total: number;
  /** Parts the object store holds (upload phase). */
  partsDone: number;
  /** Parts in all (upload phase; 0 while gzipping). */
  parts: number;
  /** The upload's id, once it is open. */
  uploadId: string | null;
}

/** How to push. */
export interface PushOptions {
  /** Where the records come from (4 to 2000 characters), sent as `sourceDeclaration` (null when absent). */
  sourceDeclaration?: string | null;
  /** Send a gzip copy (default true); false sends the file as it is. */
  compress?: boolean;
  /** Bytes of each part (default 8 MiB); raised to 5 MiB, and further when over 1,000 parts would be needed. */
  partSize?: number;
  /** Parts sent at once (default 4). */
  workers?: number;
  /** Wait until the origin has screened the contribution (merged or rejected). */
  wait?: boolean;
  /** Milliseconds to wait for the screening (default 900,000). */
  timeout?: number;
  /** Hears how far the push is. */
  onProgress?: (progress: PushProgress) => void;
  /** Stops the push; what was stored stays for the next call to resume. */
  signal?: AbortSignal;
  /** Refuse to go without an agent key (default true). */
  requireKey?: boolean;
}

/** What a push did: the origin's answer to `complete`, and with `wait` the screened contribution merged in. */
export interface PushResult {
  /** The contribution the upload became. */
  contributionId: string;
  /** Its status: as `complete` answered, or with `wait` the final one (`merged`, `rejected`). */
  status?: string;
  /** Parts of the upload. */
  parts: number;
  /** Parts this call sent (the others were stored by an earlier, stopped call). */
  uploadedParts: number;
  /** Bytes uploaded (the gzip copy's size, or the file's). */
  bytes: number;
  /** With `wait`: records accepted. */
  acceptedCount?: number | null;
  /** With `wait`: the version the records went into. */
  mergedVersion?: number | null;
  /** With `wait`: `{gate, reason}` when rejected. */
  verdict?: { gate?: string; reason?: string; [key: string]: unknown } | null;
  /** Anything else the origin answered. */
  [field: string]: unknown;
}

/** What pushes a file to the origin (`@svc/origin`'s `OriginClient`). */
export interface Pusher {
  /** Pushes the JSON-lines `file` to project `slug` as one contribution. */
  push(slug: string, file: string, options?: PushOptions): Promise<PushResult>;
}
