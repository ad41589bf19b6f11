/**
 * Query-string integers, checked with the origin's messages
 * (`querystring/limit must be >= 1 and <= 1000`).
 *
 * @module
 */

import { NodeError } from "../../errors/mod.ts";

/** Bounds and default of one integer query parameter. */
export interface IntParam {
  /** Smallest allowed value. */
  min: number;
  /** Largest allowed value, if any. */
  max?: number;
  /** Value when absent; absent and no default means required. */
  fallback?: number | null;
}

/**
 * The integer query parameter `name` of `url`, or `spec.fallback` when absent.
 * Any integer within the bounds is taken (up to 2^53 - 1 when no maximum is
 * set); the message names the real bounds otherwise.
 *
 * @example
 * ```ts
 * import { intParam } from "./_params.ts";
 * intParam(new URL("http://x/?offset=1000000000000000"), "offset", { min: 0, fallback: 0 }); // 1e15
 * ```
 */
export function intParam(url: URL, name: string, spec: IntParam): number | null {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") {
    if (spec.fallback === undefined) {
      throw new NodeError("bad-request", `querystring must have required property '${name}'`);
    }
    return spec.fallback;
  }
  if (!/^[+-]?\d{1,400}$/.test(raw.trim())) throw new NodeError("bad-request", `querystring/${name} must be integer`);
  const value = Number(raw);
  if (spec.max !== undefined && (value < spec.min || value > spec.max)) {
    throw new NodeError("bad-request", `querystring/${name} must be >= ${spec.min} and <= ${spec.max}`);
  }
  if (value < spec.min) throw new NodeError("bad-request", `querystring/${name} must be >= ${spec.min}`);
  if (!Number.isSafeInteger(value)) {
    throw new NodeError("bad-request", `querystring/${name} must be <= ${Number.MAX_SAFE_INTEGER}`);
  }
  return value;
}
