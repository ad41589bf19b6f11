/**
 * How to reach a bucket: its location, the endpoint, region, credentials
 * and addressing, from the variables every AWS tool reads
 * (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
 * `AWS_REGION` or `AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL_S3` or
 * `AWS_ENDPOINT_URL`), overridden by flags.
 *
 * @module
 */
import process from "node:process";
import { NodeError } from "../errors/mod.ts";
import { parseS3Url, type S3Location } from "./location.ts";
import type { S3Credentials } from "./sigv4.ts";

/** Everything a client needs to talk to one bucket. */
export interface S3Config extends S3Location {
  /** The endpoint's URL: `https://s3.eu-west-1.amazonaws.com`, `http://minio.internal:9000`. */
  endpoint: string;
  /** The region signatures name (`us-east-1` for most servers on premises). */
  region: string;
  /** The access key pair (and session token). */
  credentials: S3Credentials;
  /** Path-style addressing (`endpoint/bucket/key`) rather than virtual-hosted (`bucket.endpoint/key`). */
  pathStyle: boolean;
  /** Tries after the first for a call that is safe to repeat (default 3). */
  retries?: number;
  /** How long a request may wait for the answer's headers, in milliseconds (default 30 000). */
  timeoutMs?: number;
}

/** Flags that win over the environment. */
export interface S3Overrides {
  /** The endpoint (`--s3-endpoint`). */
  endpoint?: string;
  /** The region (`--s3-region`). */
  region?: string;
  /** Path-style addressing, or not (`--s3-path-style`); by default on for an endpoint of one's own. */
  pathStyle?: boolean;
}

/** The variables read, with their meaning, for messages. */
const NEEDED = "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";

function endpointOf(text: string, source: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new NodeError("bad-request", `${source} is not a URL: ${JSON.stringify(text)}`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash || url.username) {
    throw new NodeError("bad-request", `${source} must be an http(s) URL without query or credentials: ${text}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The configuration of the bucket at `location` (`s3://bucket/prefix`)
 * from `env` (the process's by default) and `overrides`. Without an
 * endpoint it is AWS's, `https://s3.<region>.amazonaws.com`, addressed
 * virtual-hosted; with one it is addressed path-style, as servers on
 * premises expect. Throws a `bad-request` {@linkcode NodeError} naming the
 * variable that is missing or wrong.
 *
 * @example
 * ```ts
 * import { s3ConfigFrom } from "./config.ts";
 * const config = s3ConfigFrom("s3://datasets/svc", {
 *   AWS_ACCESS_KEY_ID: "AKIA...",
 *   AWS_SECRET_ACCESS_KEY: "secret",
 *   AWS_ENDPOINT_URL: "http://127.0.0.1:7070",
 * });
 * config.pathStyle; // true
 * config.region; // "us-east-1"
 * ```
 */
export function s3ConfigFrom(
  location: string | S3Location,
  env: Record<string, string | undefined> = process.env,
  overrides: S3Overrides = {},
): S3Config {
  const { bucket, prefix } = typeof location === "string" ? parseS3Url(location) : location;
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (!accessKeyId || !secretAccessKey) {
    throw new NodeError("bad-request", `no credentials for s3://${bucket}: set ${NEEDED}`);
  }
  const sessionToken = env.AWS_SESSION_TOKEN?.trim() || undefined;
  const region = overrides.region?.trim() || env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || "us-east-1";
  const own = overrides.endpoint ?? (env.AWS_ENDPOINT_URL_S3?.trim() || env.AWS_ENDPOINT_URL?.trim() || undefined);
  const source = overrides.endpoint !== undefined
    ? "the endpoint"
    : env.AWS_ENDPOINT_URL_S3?.trim()
    ? "AWS_ENDPOINT_URL_S3"
    : "AWS_ENDPOINT_URL";
  const endpoint = own === undefined ? `https://s3.${region}.amazonaws.com` : endpointOf(own, source);
  // A dotted bucket name breaks the TLS certificate of a virtual-hosted name (*.s3.amazonaws.com covers one label).
  const pathStyle = overrides.pathStyle ?? (own !== undefined || bucket.includes("."));
  return {
    bucket,
    prefix,
    endpoint,
    region,
    credentials: sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey },
    pathStyle,
  };
}
