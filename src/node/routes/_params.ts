/**
 * Query-string integers, checked with the origin's messages
 * (`querystring/limit must be >= 1 and <= 1000`).
 *
 * @module
 */
import { HttpError } from "../response.ts";

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
 */
export function intParam(url: URL, name: string, spec: IntParam): number | null {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") {
    if (spec.fallback === undefined) throw new HttpError(400, `querystring must have required property '${name}'`);
    return spec.fallback;
  }
  if (!/^[+-]?\d{1,15}$/.test(raw.trim())) throw new HttpError(400, `querystring/${name} must be integer`);
  const value = Number(raw);
  const tooLow = value < spec.min;
  const tooHigh = spec.max !== undefined && value > spec.max;
  if (tooLow || tooHigh) {
    const bound = spec.max === undefined ? `>= ${spec.min}` : `>= ${spec.min} and <= ${spec.max}`;
    throw new HttpError(400, `querystring/${name} must be ${bound}`);
  }
  return value;
}
