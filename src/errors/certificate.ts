/**
 * A TLS certificate nobody here trusts, told apart from other failures: what
 * a TLS-intercepting proxy (common in companies) does to every download,
 * Deno's npm packages on a first start included. Deno says so as rustls
 * does (`invalid peer certificate: UnknownIssuer`), Node with an OpenSSL
 * code (`UNABLE_TO_GET_ISSUER_CERT_LOCALLY`, `SELF_SIGNED_CERT_IN_CHAIN`);
 * the remedy is to name the proxy's CA: `DENO_CERT` under Deno,
 * `NODE_EXTRA_CA_CERTS` under Node.
 *
 * @module
 */

/** Node's (OpenSSL's) codes of a certificate it cannot verify. */
const NODE_CODES = new Set([
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
]);

/** Deno's (rustls's) words for a certificate it cannot verify. */
const DENO_WORDS = /invalid peer certificate: ?([A-Za-z]+(?:\([^)\n]*\))*)/;

/**
 * Why `e` (or an error in its `cause` chain) failed on a certificate that
 * is not trusted, in the runtime's own words (`invalid peer certificate:
 * UnknownIssuer`, `SELF_SIGNED_CERT_IN_CHAIN`); null for any other failure.
 * A certificate for another name or one past its date is not this: no CA
 * setting mends those.
 *
 * @example
 * ```ts
 * import { untrustedCertificate } from "./certificate.ts";
 * untrustedCertificate(new Error("error sending request: invalid peer certificate: UnknownIssuer"));
 * // "invalid peer certificate: UnknownIssuer"
 * untrustedCertificate(new Error("connection refused")); // null
 * ```
 */
export function untrustedCertificate(e: unknown): string | null {
  const seen = new Set<unknown>();
  for (let at: unknown = e; at !== null && at !== undefined && !seen.has(at); at = (at as { cause?: unknown }).cause) {
    seen.add(at);
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string" && NODE_CODES.has(code)) return code;
    const message = at instanceof Error ? at.message : typeof at === "string" ? at : "";
    const words = DENO_WORDS.exec(message);
    if (words && !/NotValidForName|Expired|NotValidYet|Revoked/.test(words[1])) {
      return `invalid peer certificate: ${words[1]}`;
    }
  }
  return null;
}

/**
 * What to do about an untrusted certificate under `runtime`: the variable
 * that names a CA to trust.
 *
 * @example
 * ```ts
 * import { certificateAdvice } from "./certificate.ts";
 * certificateAdvice("deno").includes("DENO_CERT"); // true
 * ```
 */
export function certificateAdvice(runtime: "deno" | "node"): string {
  return runtime === "deno"
    ? "behind a TLS-intercepting proxy, set DENO_CERT to the proxy's CA certificate (a PEM file) and run again, " +
      "or DENO_TLS_CA_STORE=mozilla,system when the system trusts it already (NODE_EXTRA_CA_CERTS does the same " +
      "for the npm package under Node)"
    : "behind a TLS-intercepting proxy, set NODE_EXTRA_CA_CERTS to the proxy's CA certificate (a PEM file) and run " +
      "again (DENO_CERT does the same under Deno)";
}

/** The npm package Deno failed to download, from its error (`Failed caching npm package 'name@1.2.3'`), or null. */
function npmPackageOf(message: string): string | null {
  return /npm package '([^'\n]{1,200})'/.exec(message)?.[1] ?? null;
}

/** The origin (`https://host:port`) a request failed for, from Deno's or Node's error, or null. */
function failedOrigin(message: string): string | null {
  return /\b(https:\/\/[^/\s)'"]{1,300})/.exec(message)?.[1] ?? null;
}

/**
 * The whole sentence for `e` when it failed on an untrusted certificate
 * (see {@linkcode untrustedCertificate}): what could not be fetched, from
 * where, why, and the variable to set under `runtime`; null otherwise.
 *
 * @example
 * ```ts
 * import { certificateFailure } from "./certificate.ts";
 * const e = new Error(
 *   "Failed caching npm package 'zod@3.25.76'\n    0: error sending request for url " +
 *     "(https://registry.npmjs.org/zod/-/zod-3.25.76.tgz): invalid peer certificate: UnknownIssuer",
 * );
 * certificateFailure(e, "deno")?.startsWith("cannot download the npm package zod@3.25.76 from https://registry.npmjs.org:");
 * // true
 * ```
 */
export function certificateFailure(e: unknown, runtime: "deno" | "node"): string | null {
  const reason = untrustedCertificate(e);
  if (reason === null) return null;
  const texts: string[] = [];
  for (let at: unknown = e; at instanceof Error && texts.length < 8; at = at.cause) texts.push(at.message);
  const all = texts.join("\n");
  const pkg = npmPackageOf(all);
  const origin = failedOrigin(all);
  const what = pkg ? `cannot download the npm package ${pkg}` : "cannot connect";
  const where = origin ? ` ${pkg ? "from" : "to"} ${origin}` : "";
  return `${what}${where}: its TLS certificate is not trusted (${reason}); ${certificateAdvice(runtime)}`;
}
