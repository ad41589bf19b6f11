/**
 * An S3-compatible object store, as the node reads and writes one: where a
 * bucket is (`s3://bucket/prefix`) and how to reach it (the usual `AWS_*`
 * variables), a small client (HEAD, GET with ranges, PUT whole, conditional
 * or in parts, DELETE, listings, pre-signed URLs) signing with AWS
 * Signature Version 4, and a bounded local cache of parts for nodes that
 * read from the bucket and keep no copy.
 *
 * @example
 * ```ts ignore
 * import { S3Client, s3ConfigFrom } from "./mod.ts";
 * const client = new S3Client(s3ConfigFrom("s3://datasets/svc"));
 * await client.put("projects/cities/manifest.json", "{}", { ifNoneMatch: "*" });
 * const url = client.presignGet("projects/cities/manifest.json", { expiresIn: 900 });
 * ```
 *
 * @module
 */
export { S3Client, s3Host } from "./client.ts";
export type {
  GetOptions,
  ListPage,
  ObjectBody,
  ObjectInfo,
  OpenUpload,
  PresignOptions,
  PutOptions,
  UploadOptions,
} from "./client.ts";
export { type S3Config, s3ConfigFrom, type S3Overrides } from "./config.ts";
export { ObjectStoreError } from "./errors.ts";
export { parseS3Url, type S3Location, s3Url } from "./location.ts";
export {
  amzDate,
  canonicalQuery,
  EMPTY_SHA256,
  presignS3Url,
  type S3Credentials,
  sha256Hex,
  signatureV4,
  signS3Headers,
  UNSIGNED_PAYLOAD,
} from "./sigv4.ts";
export {
  objectSource,
  PartCache,
  type PartCacheOptions,
  type PartCacheStats,
  type PartLease,
  type PartRef,
  type PartSource,
} from "./part_cache.ts";
export { type ConditionalWrites, conditionalWrites } from "./conditional.ts";
