/**
 * AWS Signature Version 4 (`AWS4-HMAC-SHA256`), as S3 wants it: the
 * canonical request (method, path encoded once and never normalized,
 * sorted query, trimmed lower-case headers, payload hash), the string to
 * sign, the signing key derived from the secret, date, region and service;
 * then either an `Authorization` header or a pre-signed URL whose query
 * carries the signature. Checked against AWS's published test suite and
 * S3's worked examples (tests/objectstore/sigv4_test.ts).
 *
 * @module
 */
import { createHash, createHmac } from "node:crypto";
import { encodePath, uriEncode } from "./_encode.ts";

/** The hash S3 signs in place of the body's when the body is not hashed (pre-signed URLs, streamed bodies). */
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

/** SHA-256 of no bytes, the payload hash of a request without a body. */
export const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** An access key pair, and the session token that comes with temporary credentials. */
export interface S3Credentials {
  /** `AWS_ACCESS_KEY_ID`. */
  accessKeyId: string;
  /** `AWS_SECRET_ACCESS_KEY`. */
  secretAccessKey: string;
  /** `AWS_SESSION_TOKEN`, for temporary credentials. */
  sessionToken?: string;
}

/** What a signature covers: one request, its path and query not yet encoded. */
export interface SigningInput {
  /** `GET`, `PUT`, ... */
  method: string;
  /** The path as the object's name has it (`/bucket/a b.txt`), encoded here once. */
  path: string;
  /** Query parameters, not yet encoded, in any order. */
  query?: readonly (readonly [string, string])[];
  /** Every header to sign, `host` and `x-amz-date` among them; a name given twice has its values joined by commas. */
  headers: readonly (readonly [string, string])[];
  /** The body's SHA-256 in hex, or {@linkcode UNSIGNED_PAYLOAD}. */
  payloadHash: string;
}

/** Where and when a signature holds. */
export interface SigningScope {
  /** The region (`us-east-1`). */
  region: string;
  /** The service (`s3`). */
  service: string;
  /** The instant of `x-amz-date`. */
  date: Date;
}

/** A signature and the steps that led to it. */
export interface Signature {
  /** The canonical request. */
  canonicalRequest: string;
  /** The string to sign. */
  stringToSign: string;
  /** The signature, hex. */
  signature: string;
  /** The semicolon-separated names of the signed headers. */
  signedHeaders: string;
  /** `<access key>/<date>/<region>/<service>/aws4_request`. */
  credential: string;
  /** The `Authorization` header's value. */
  authorization: string;
}

/**
 * `date` as `x-amz-date` writes it: `YYYYMMDDTHHMMSSZ`.
 *
 * @example
 * ```ts
 * import { amzDate } from "./sigv4.ts";
 * amzDate(new Date("2013-05-24T00:00:00Z")); // "20130524T000000Z"
 * ```
 */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/**
 * Hex SHA-256 of `data`.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./sigv4.ts";
 * sha256Hex(""); // "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function hmac(key: string | Uint8Array, data: string): Uint8Array {
  return createHmac("sha256", key).update(data).digest();
}

/**
 * The query string as signed (and as sent): names and values encoded, in
 * order of encoded name, then value.
 *
 * @example
 * ```ts
 * import { canonicalQuery } from "./sigv4.ts";
 * canonicalQuery([["prefix", "J"], ["max-keys", "2"], ["lifecycle", ""]]); // "lifecycle=&max-keys=2&prefix=J"
 * ```
 */
export function canonicalQuery(query: readonly (readonly [string, string])[]): string {
  return query
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort(([ak, av], [bk, bv]) => ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0)
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

function canonicalHeaders(headers: SigningInput["headers"]): { text: string; names: string } {
  const merged = new Map<string, string[]>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase().trim();
    merged.set(key, [...(merged.get(key) ?? []), value.trim().replace(/\s+/g, " ")]);
  }
  const names = [...merged.keys()].sort();
  return {
    text: names.map((n) => `${n}:${merged.get(n)!.join(",")}\n`).join(""),
    names: names.join(";"),
  };
}

/**
 * The signing key of `secret` for a day, region and service.
 *
 * @example
 * ```ts
 * import { signingKey } from "./sigv4.ts";
 * signingKey("secret", "20130524", "us-east-1", "s3").length; // 32
 * ```
 */
export function signingKey(secret: string, day: string, region: string, service: string): Uint8Array {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), "aws4_request");
}

/**
 * Signs `input` with `credentials` for `scope`.
 *
 * @example
 * ```ts
 * import { EMPTY_SHA256, signatureV4 } from "./sigv4.ts";
 * const signed = signatureV4(
 *   {
 *     method: "GET",
 *     path: "/",
 *     headers: [["host", "example.amazonaws.com"], ["x-amz-date", "20150830T123600Z"]],
 *     payloadHash: EMPTY_SHA256,
 *   },
 *   { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
 *   { region: "us-east-1", service: "service", date: new Date("2015-08-30T12:36:00Z") },
 * );
 * signed.signature; // "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
 * ```
 */
export function signatureV4(input: SigningInput, credentials: S3Credentials, scope: SigningScope): Signature {
  const stamp = amzDate(scope.date);
  const day = stamp.slice(0, 8);
  const headers = canonicalHeaders(input.headers);
  const canonicalRequest = [
    input.method.toUpperCase(),
    encodePath(input.path),
    canonicalQuery(input.query ?? []),
    headers.text,
    headers.names,
    input.payloadHash,
  ].join("\n");
  const scopeText = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", stamp, scopeText, sha256Hex(canonicalRequest)].join("\n");
  const key = signingKey(credentials.secretAccessKey, day, scope.region, scope.service);
  const signature = createHmac("sha256", key).update(stringToSign).digest("hex");
  const credential = `${credentials.accessKeyId}/${scopeText}`;
  return {
    canonicalRequest,
    stringToSign,
    signature,
    signedHeaders: headers.names,
    credential,
    authorization: `AWS4-HMAC-SHA256 Credential=${credential}, SignedHeaders=${headers.names}, Signature=${signature}`,
  };
}

/** A request to sign for S3 with an `Authorization` header. */
export interface S3HeaderRequest {
  /** `GET`, `PUT`, ... */
  method: string;
  /** The URL it goes to, whose path is the encoded form of `path`. */
  host: string;
  /** The path, not encoded (`/bucket/key`). */
  path: string;
  /** Query parameters, not encoded. */
  query?: readonly (readonly [string, string])[];
  /** Headers sent and signed besides those added here (lower-case names). */
  headers?: Record<string, string>;
  /** The body's SHA-256 in hex, or {@linkcode UNSIGNED_PAYLOAD}; none for no body. */
  payloadHash?: string;
}

/**
 * The headers that make `request` signed for S3: the given ones with
 * `host`, `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token`
 * (temporary credentials) and `authorization`.
 *
 * @example
 * ```ts
 * import { signS3Headers } from "./sigv4.ts";
 * const headers = signS3Headers(
 *   { method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", headers: { range: "bytes=0-9" } },
 *   { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
 *   "us-east-1",
 *   new Date("2013-05-24T00:00:00Z"),
 * );
 * headers.authorization.endsWith("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"); // true
 * ```
 */
export function signS3Headers(
  request: S3HeaderRequest,
  credentials: S3Credentials,
  region: string,
  date: Date,
): Record<string, string> {
  const headers: Record<string, string> = {
    ...request.headers,
    host: request.host,
    "x-amz-date": amzDate(date),
    "x-amz-content-sha256": request.payloadHash ?? EMPTY_SHA256,
  };
  if (credentials.sessionToken) headers["x-amz-security-token"] = credentials.sessionToken;
  const signed = signatureV4(
    {
      method: request.method,
      path: request.path,
      query: request.query,
      headers: Object.entries(headers),
      payloadHash: headers["x-amz-content-sha256"],
    },
    credentials,
    { region, service: "s3", date },
  );
  return { ...headers, authorization: signed.authorization };
}

/** A URL to pre-sign. */
export interface PresignRequest {
  /** Usually `GET`. */
  method: string;
  /** `https:` or `http:`. */
  protocol: string;
  /** The host (and port) the URL names. */
  host: string;
  /** The path, not encoded (`/bucket/key`). */
  path: string;
  /** Extra query parameters, not encoded (`response-content-disposition`, ...). */
  query?: readonly (readonly [string, string])[];
  /** How long the URL is good for, in seconds (1 to 604800, a week). */
  expiresIn: number;
}

/**
 * A pre-signed URL: anyone holding it may make that one request until it
 * expires, with no credentials of their own.
 *
 * @example
 * ```ts
 * import { presignS3Url } from "./sigv4.ts";
 * const url = presignS3Url(
 *   { method: "GET", protocol: "https:", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", expiresIn: 86400 },
 *   { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
 *   "us-east-1",
 *   new Date("2013-05-24T00:00:00Z"),
 * );
 * url.endsWith("X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"); // true
 * ```
 */
export function presignS3Url(request: PresignRequest, credentials: S3Credentials, region: string, date: Date): string {
  if (!Number.isInteger(request.expiresIn) || request.expiresIn < 1 || request.expiresIn > 604800) {
    throw new RangeError(`a pre-signed URL lasts 1 to 604800 seconds, not ${request.expiresIn}`);
  }
  const stamp = amzDate(date);
  const query: (readonly [string, string])[] = [
    ...(request.query ?? []),
    ["X-Amz-Algorithm", "AWS4-HMAC-SHA256"],
    ["X-Amz-Credential", `${credentials.accessKeyId}/${stamp.slice(0, 8)}/${region}/s3/aws4_request`],
    ["X-Amz-Date", stamp],
    ["X-Amz-Expires", String(request.expiresIn)],
    ["X-Amz-SignedHeaders", "host"],
  ];
  if (credentials.sessionToken) query.push(["X-Amz-Security-Token", credentials.sessionToken]);
  const signed = signatureV4(
    {
      method: request.method,
      path: request.path,
      query,
      headers: [["host", request.host]],
      payloadHash: UNSIGNED_PAYLOAD,
    },
    credentials,
    { region, service: "s3", date },
  );
  const search = `${canonicalQuery(query)}&X-Amz-Signature=${signed.signature}`;
  return `${request.protocol}//${request.host}${encodePath(request.path)}?${search}`;
}
