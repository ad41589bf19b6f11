/**
 * ISO 8601 text for DuckDB's dates, times, timestamps and intervals.
 *
 * @module
 */
import {
  DuckDBDateValue,
  DuckDBIntervalValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTimeTZValue,
  type DuckDBValue,
} from "@duckdb/node-api";

/** `+02` or `+0530` as ISO's `+02:00` / `+05:30`. */
function isoOffset(text: string): string {
  return text.replace(/([+-])(\d\d):?(\d\d)?$/, (_, sign, h, m) => `${sign}${h}:${m ?? "00"}`);
}

/** DuckDB prints a space where ISO wants a `T`. */
function isoTimestamp(text: string, zoned: boolean): string {
  if (/infinity$/.test(text)) return text;
  const iso = text.replace(" ", "T");
  return zoned ? isoOffset(iso) : iso;
}

/** An interval as an ISO 8601 duration, each part with its own sign (`PT-1H-30M`). */
export function isoDuration(value: DuckDBIntervalValue): string {
  const years = Math.trunc(value.months / 12);
  const months = value.months % 12;
  const negative = value.micros < 0n;
  const micros = negative ? -value.micros : value.micros;
  const sign = negative ? "-" : "";
  const hours = micros / 3_600_000_000n;
  const minutes = (micros / 60_000_000n) % 60n;
  const seconds = micros % 60_000_000n;
  const whole = seconds / 1_000_000n;
  const fraction = (seconds % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  let date = "";
  if (years) date += `${years}Y`;
  if (months) date += `${months}M`;
  if (value.days) date += `${value.days}D`;
  let time = "";
  if (hours) time += `${sign}${hours}H`;
  if (minutes) time += `${sign}${minutes}M`;
  if (seconds) time += `${sign}${whole}${fraction ? "." + fraction : ""}S`;
  if (!date && !time) return "PT0S";
  return `P${date}${time ? "T" + time : ""}`;
}

/**
 * The ISO 8601 text of a temporal DuckDB value, or null when `value` is not
 * one this module knows.
 */
export function temporalText(value: DuckDBValue): string | null {
  if (value instanceof DuckDBDateValue) {
    if (value.days === DuckDBDateValue.PosInf.days) return "infinity";
    if (value.days === DuckDBDateValue.NegInf.days) return "-infinity";
    return value.toString();
  }
  if (value instanceof DuckDBTimestampTZValue) return isoTimestamp(value.toString(), true);
  if (
    value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampSecondsValue ||
    value instanceof DuckDBTimestampMillisecondsValue || value instanceof DuckDBTimestampNanosecondsValue
  ) {
    return isoTimestamp(value.toString(), false);
  }
  if (value instanceof DuckDBTimeTZValue) return isoOffset(value.toString());
  if (value instanceof DuckDBIntervalValue) return isoDuration(value);
  return null;
}
