/**
 * Deprecated routes (RFC 9745): an answer with a `Deprecation` header makes
 * the client warn once per route, naming the `Sunset` date and the
 * `Link rel="deprecation"` when the server gives them. A deprecated client
 * call (`community.topic()`, `community.reply()`) raises the same warning,
 * naming what replaces it and the release that removes it.
 *
 * @module
 */

/** The warning a deprecated route raises. */
export class SvcDeprecationWarning extends Error {
  /** The route, e.g. `GET /projects/{slug}/data`. */
  readonly route: string;
  /** When it was deprecated, if said. */
  readonly deprecatedAt: Date | null;
  /** When it goes away (`Sunset`), if said. */
  readonly sunset: Date | null;
  /** Where to read about moving on (`Link rel="deprecation"`), if said. */
  readonly link: string | null;
  /** For a deprecated client call: what replaces it, if said. */
  readonly replacement: string | null;
  /** For a deprecated client call: the release that removes it, if said. */
  readonly removedIn: string | null;

  /**
   * The warning for `route`, with what the `Deprecation`, `Sunset` and `Link` headers said; for a
   * deprecated client call, `plan` names its replacement and the release that removes it.
   *
   * @example
   * ```ts
   * import { SvcDeprecationWarning } from "./deprecation.ts";
   * new SvcDeprecationWarning("GET /x", null, null, null).message; // "GET /x is deprecated"
   * new SvcDeprecationWarning("community.topic()", null, null, null, {
   *   replacement: "community.postRequest()",
   *   removedIn: "0.30.0",
   * }).message;
   * // "community.topic() is deprecated; use community.postRequest() instead (it is removed in svc-sdk 0.30.0)"
   * ```
   */
  constructor(
    route: string,
    deprecatedAt: Date | null,
    sunset: Date | null,
    link: string | null,
    plan: { replacement: string; removedIn: string } | null = null,
  ) {
    const parts = [`${route} is deprecated`];
    if (deprecatedAt) parts.push(`since ${deprecatedAt.toISOString().slice(0, 10)}`);
    if (sunset) parts.push(`and goes away on ${sunset.toISOString().slice(0, 10)}`);
    const then = plan ? `; use ${plan.replacement} instead (it is removed in svc-sdk ${plan.removedIn})` : "";
    super(parts.join(" ") + (link ? `; see ${link}` : "") + then);
    this.name = "SvcDeprecationWarning";
    this.route = route;
    this.deprecatedAt = deprecatedAt;
    this.sunset = sunset;
    this.link = link;
    this.replacement = plan?.replacement ?? null;
    this.removedIn = plan?.removedIn ?? null;
  }
}

/** When a `Deprecation` value says the route was deprecated (`@<epoch>` or an HTTP date). */
function deprecationDate(value: string): Date | null {
  const epoch = /^@(-?\d+)$/.exec(value.trim());
  if (epoch) return new Date(Number(epoch[1]) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at);
}

function deprecationLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (m && /;\s*rel="?([^";]*\s)?deprecation(\s[^";]*)?"?/i.test(m[2])) return m[1];
  }
  return null;
}

/**
 * The warning for `route` when `headers` mark it deprecated, or null.
 *
 * @example
 * ```ts
 * import { deprecationOf } from "./deprecation.ts";
 * deprecationOf("GET /x", new Headers({ deprecation: "@1767225600" }))?.message; // "GET /x is deprecated since 2026-01-01"
 * ```
 */
export function deprecationOf(route: string, headers: Headers): SvcDeprecationWarning | null {
  const value = headers.get("deprecation");
  if (value === null) return null;
  const sunset = headers.get("sunset");
  const sunsetAt = sunset ? Date.parse(sunset) : NaN;
  return new SvcDeprecationWarning(
    route,
    deprecationDate(value),
    Number.isNaN(sunsetAt) ? null : new Date(sunsetAt),
    deprecationLink(headers.get("link")),
  );
}
