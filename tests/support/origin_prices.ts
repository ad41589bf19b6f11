/**
 * The origin's price rules for the test origin (origin-wire 3.5): prices in
 * dollars and cents (`"0.25"`, `0.25`), `0` free, a paid price at least
 * $0.01 in whole cents with no cap, null the platform default ($0.01), and
 * one price change per day per listing (429 with `retryAfter`).
 *
 * @module
 */

/** The platform default price, in millionths of a dollar. */
export const DEFAULT_PRICE_MICRO = 10_000;

/** A day, in milliseconds: how often a listing's price may change. */
export const PRICE_CHANGE_MS = 24 * 3600 * 1000;

/** A listing's price as the origin keeps it. */
export interface ListingPrice {
  /** The seller's price in millionths of a dollar, or null for the platform default. */
  priceMicro: number | null;
  /** Whether trial sales are on. */
  trialSale: boolean;
  /** When the price last changed (the clock's milliseconds), or null. */
  priceChangedAt: number | null;
}

/** `"$0.25"` for 250,000 millionths. */
export function priceText(micro: number): string {
  return `$${(micro / 1e6).toFixed(2)}`;
}

/** What a listing costs now, in millionths. */
export function effectiveMicro(listing: ListingPrice): number {
  return listing.priceMicro ?? DEFAULT_PRICE_MICRO;
}

/** A price given in the API's terms, as millionths; a string naming why when it is not one. */
export function parsePrice(value: unknown): number | string {
  const bad = 'price must be dollars and cents ("0.25" or 0.25), 0 for free, at least 0.01 in whole cents';
  let cents: number;
  if (typeof value === "string" && /^\d{1,7}(\.\d{1,2})?$/.test(value)) cents = Math.round(Number(value) * 100);
  else if (typeof value === "number" && Number.isFinite(value) && value >= 0 && value < 1e7) {
    cents = Math.round(value * 100);
    if (Math.abs(cents - value * 100) > 1e-6) return bad;
  } else return bad;
  return cents * 10_000;
}

/** The price state an answer carries (origin-wire 3.5). */
export function priceState(listing: ListingPrice, changed: boolean): Record<string, unknown> {
  const micro = effectiveMicro(listing);
  return {
    price: priceText(micro),
    priceMicro: micro,
    default: listing.priceMicro === null,
    trialSale: listing.trialSale,
    changed,
  };
}

/**
 * Applies `{price?, trialSale?}` (already known to hold only those keys) to
 * `listing` at `now`: the error status and body, or the price state.
 */
export function changePrice(
  listing: ListingPrice,
  change: Record<string, unknown>,
  now: number,
): { status: number; body: Record<string, unknown> } {
  if (change.trialSale !== undefined && typeof change.trialSale !== "boolean") {
    return { status: 400, body: { error: "trialSale must be true or false" } };
  }
  let next = listing.priceMicro;
  if (change.price !== undefined) {
    if (change.price === null) next = null;
    else {
      const micro = parsePrice(change.price);
      if (typeof micro === "string") return { status: 400, body: { error: micro } };
      next = micro;
    }
  }
  const changed = change.price !== undefined && next !== listing.priceMicro;
  if (changed && listing.priceChangedAt !== null && now - listing.priceChangedAt < PRICE_CHANGE_MS) {
    const retryAfter = Math.ceil((listing.priceChangedAt + PRICE_CHANGE_MS - now) / 1000);
    return {
      status: 429,
      body: { error: "one price change per day per listing", code: "price_change_limit", retryAfter },
    };
  }
  if (changed) {
    listing.priceMicro = next;
    listing.priceChangedAt = now;
  }
  if (typeof change.trialSale === "boolean") listing.trialSale = change.trialSale;
  return { status: 200, body: priceState(listing, changed) };
}
