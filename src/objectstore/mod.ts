/**
 * An S3-compatible object store, as the node reads and writes one: so far,
 * signing requests with AWS Signature Version 4.
 *
 * @module
 */
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
