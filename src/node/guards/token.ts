/**
 * The node token: `Authorization: Bearer <token>`, compared in constant time.
 *
 * @module
 */
import type { RequestHeadView } from "../../http/mod.ts";
import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether `given` equals `token`, in time that does not depend on where they
 * differ (both are hashed first so lengths do not leak either).
 *
 * @example
 * ```ts
 * import { sameSecret } from "./token.ts";
 * sameSecret("s3cret", "s3cret"); // true
 * ```
 */
export function sameSecret(given: string, token: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b);
}

/**
 * Whether `req` carries `Authorization: Bearer <token>`.
 *
 * @example
 * ```ts
 * import { hasToken } from "./token.ts";
 * hasToken(new Request("http://x/", { headers: { authorization: "Bearer t" } }), "t"); // true
 * ```
 */
export function hasToken(req: RequestHeadView, token: string): boolean {
  const bearer = bearerOf(req);
  return bearer !== null && sameSecret(bearer, token);
}

/**
 * The value of `Authorization: Bearer <value>` (the scheme in any letter
 * case), or null when there is none.
 *
 * @example
 * ```ts
 * import { bearerOf } from "./token.ts";
 * bearerOf(new Request("http://x/", { headers: { authorization: "bearer k1" } })); // "k1"
 * ```
 */
export function bearerOf(req: RequestHeadView): string | null {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? null;
}
