/**
 * Where in an object store a store lives: `s3://bucket/prefix`, the form
 * every S3 tool takes (`aws s3`, DuckDB, Spark's `s3a://` aside).
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";

/** A bucket and the prefix under it (empty, or ending in `/`). */
export interface S3Location {
  /** The bucket's name. */
  bucket: string;
  /** Every key begins with it: `""` or `some/folder/`. */
  prefix: string;
}

// S3's own rule is 3-63 of [a-z0-9.-]; servers on premises allow more (upper case, underscores), so take those too.
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/;

/**
 * Parses `s3://bucket` or `s3://bucket/some/prefix` (a trailing slash or
 * none, the same); throws a `bad-request` {@linkcode NodeError} saying what
 * is wrong otherwise.
 *
 * @example
 * ```ts
 * import { parseS3Url } from "./location.ts";
 * parseS3Url("s3://datasets/svc/main"); // { bucket: "datasets", prefix: "svc/main/" }
 * parseS3Url("s3://datasets"); // { bucket: "datasets", prefix: "" }
 * ```
 */
export function parseS3Url(text: string): S3Location {
  const match = /^s3:\/\/([^/?#]*)(?:\/([^?#]*))?$/.exec(text.trim());
  if (!match) {
    throw new NodeError(
      "bad-request",
      `not an object store location: ${JSON.stringify(text)} (expected s3://bucket/prefix)`,
    );
  }
  const [, bucket, rest = ""] = match;
  if (!BUCKET.test(bucket) || bucket.includes("..")) {
    throw new NodeError(
      "bad-request",
      `not a bucket name: ${JSON.stringify(bucket)} in ${text} (letters, digits, dots, hyphens; 2 to 255 characters)`,
    );
  }
  const segments = rest.split("/").filter((s, i, all) => !(s === "" && i === all.length - 1));
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") {
      throw new NodeError("bad-request", `the prefix of ${text} has an empty, "." or ".." part`);
    }
  }
  return { bucket, prefix: segments.length === 0 ? "" : `${segments.join("/")}/` };
}

/**
 * The `s3://` form of `key` under `location` (for messages and logs).
 *
 * @example
 * ```ts
 * import { s3Url } from "./location.ts";
 * s3Url({ bucket: "datasets", prefix: "svc/" }, "parts/ab"); // "s3://datasets/svc/parts/ab"
 * ```
 */
export function s3Url(location: S3Location, key = ""): string {
  return `s3://${location.bucket}/${location.prefix}${key}`;
}
