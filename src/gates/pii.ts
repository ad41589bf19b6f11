/**
 * The personal-data gate (`pii`): resident registration numbers in a
 * record's strings and object keys, never in its numbers.
 *
 * A hit is six digits forming a valid date (YYMMDD, leap days allowed), then
 * a hyphen, one space or nothing, then a digit 1 to 8 and six more digits,
 * with no digit directly before or after. With a hyphen that is enough; with
 * a space or nothing the check digit must also hold (weights
 * 2,3,4,5,6,7,8,9,2,3,4,5; check = (11 - sum mod 11) mod 10).
 *
 * @module
 */
import type { ExactJson } from "../wire/mod.ts";

const CANDIDATE = /(?<!\d)(\d{2})(\d{2})(\d{2})([- ]?)([1-8]\d{6})(?!\d)/g;
const WEIGHTS = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(yy: number, mm: number, dd: number): boolean {
  if (mm < 1 || mm > 12 || dd < 1 || dd > DAYS[mm - 1]) return false;
  return !(mm === 2 && dd === 29 && yy % 4 !== 0);
}

function checkDigitHolds(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * WEIGHTS[i];
  return (11 - (sum % 11)) % 10 === Number(digits[12]);
}

/**
 * Whether `text` holds a resident registration number.
 *
 * @example
 * ```ts
 * import { hasResidentNumber } from "./pii.ts";
 * hasResidentNumber("id 900101-1234567"); // true
 * hasResidentNumber("at 1732246800"); // false
 * ```
 */
export function hasResidentNumber(text: string): boolean {
  for (const m of text.matchAll(CANDIDATE)) {
    const [, yy, mm, dd, separator, rest] = m;
    if (!validDate(Number(yy), Number(mm), Number(dd))) continue;
    if (separator === "-" || checkDigitHolds(yy + mm + dd + rest)) return true;
  }
  return false;
}

/** Whether a string or key anywhere in `value` holds the pattern; walked with a stack of its own. */
function scan(value: ExactJson): boolean {
  const work: ExactJson[] = [value];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === "string") {
      if (hasResidentNumber(item)) return true;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) work.push(item[i]);
    } else if (item !== null && typeof item === "object") {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        if (hasResidentNumber(entries[i][0])) return true;
        work.push(entries[i][1]);
      }
    }
  }
  return false;
}

/**
 * Why `record` (the batch's `line`) fails the personal-data gate, or null.
 *
 * @example
 * ```ts
 * import { piiProblem } from "./pii.ts";
 * piiProblem({ note: "900101-1234567" }, 2); // "line 2: resident registration number pattern detected"
 * ```
 */
export function piiProblem(record: ExactJson, line: number): string | null {
  return scan(record) ? `line ${line}: resident registration number pattern detected` : null;
}
