import { assertEquals } from "../support/assert.ts";
import { hasResidentNumber, piiProblem } from "../../src/gates/pii.ts";

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WEIGHTS = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const pad = (n: number, w: number) => String(n).padStart(w, "0");

function checkDigit(twelve: string): number {
  const sum = [...twelve].reduce((a, d, i) => a + Number(d) * WEIGHTS[i], 0);
  return (11 - (sum % 11)) % 10;
}

function randomNumber(r: () => number): { date: string; tail: string; good: string; bad: string } {
  const yy = Math.floor(r() * 100);
  const mm = 1 + Math.floor(r() * 12);
  let dd = 1 + Math.floor(r() * DAYS[mm - 1]);
  if (mm === 2 && dd === 29 && yy % 4 !== 0) dd = 28;
  const date = pad(yy, 2) + pad(mm, 2) + pad(dd, 2);
  const tail = String(1 + Math.floor(r() * 8)) + pad(Math.floor(r() * 100000), 5);
  const check = checkDigit(date + tail);
  return { date, tail, good: date + tail + check, bad: date + tail + ((check + 1 + Math.floor(r() * 9)) % 10) };
}

Deno.test("pii: with a hyphen every valid date and sex digit is a hit, whatever the check digit", () => {
  const r = rng(1);
  for (let i = 0; i < 2000; i++) {
    const { good, bad } = randomNumber(r);
    for (const n of [good, bad]) assertEquals(hasResidentNumber(`x ${n.slice(0, 6)}-${n.slice(6)} y`), true, n);
  }
});

Deno.test("pii: written together or with a space, only a correct check digit is a hit", () => {
  const r = rng(2);
  for (let i = 0; i < 2000; i++) {
    const { good, bad } = randomNumber(r);
    assertEquals(hasResidentNumber(good), true, good);
    assertEquals(hasResidentNumber(`${good.slice(0, 6)} ${good.slice(6)}`), true, good);
    assertEquals(hasResidentNumber(bad), false, bad);
    assertEquals(hasResidentNumber(`${bad.slice(0, 6)} ${bad.slice(6)}`), false, bad);
  }
});

Deno.test("pii: digits inside a longer run, invalid dates, sex digits 0 and 9 are not numbers", () => {
  const r = rng(3);
  for (let i = 0; i < 1000; i++) {
    const { good } = randomNumber(r);
    const digit = String(Math.floor(r() * 10));
    assertEquals(hasResidentNumber(digit + good), false, digit + good);
    assertEquals(hasResidentNumber(good + digit), false, good + digit);
    assertEquals(hasResidentNumber(`${digit}${good.slice(0, 6)}-${good.slice(6)}`), false);
    assertEquals(hasResidentNumber(`${good.slice(0, 6)}-${good.slice(6)}${digit}`), false);
  }
  for (
    const s of [
      "901301-1234567",
      "900132-1234567",
      "900230-1234567",
      "010229-1234567",
      "900101-0234567",
      "900101-9234567",
    ]
  ) {
    assertEquals(hasResidentNumber(s), false, s);
  }
  assertEquals(hasResidentNumber("000229-1234567"), true, "leap day of a year divisible by 4");
});

Deno.test("pii: ten-digit and millisecond timestamps and ordinary text do not match", () => {
  const r = rng(4);
  for (let i = 0; i < 2000; i++) {
    const seconds = String(1_000_000_000 + Math.floor(r() * 900_000_000));
    assertEquals(hasResidentNumber(`at ${seconds}`), false, seconds);
    assertEquals(hasResidentNumber(`t=${seconds}.${pad(Math.floor(r() * 1000), 3)}`), false);
  }
  for (const s of ["phone 010-1234-5678", "ISBN 978-3-16-148410-0", "2026-11-22 03:04:05", "order 12345-67", ""]) {
    assertEquals(hasResidentNumber(s), false, s);
  }
});

Deno.test("pii: strings and keys are read recursively, numbers never", () => {
  const n = "900101-1234567";
  assertEquals(piiProblem({ a: { b: ["x", n] } }, 3), "line 3: resident registration number pattern detected");
  assertEquals(piiProblem({ [n]: 1 }, 1) !== null, true, "object keys are read");
  assertEquals(piiProblem({ n: 9001011234568 }, 1), null, "numbers are never read");
  assertEquals(piiProblem({ n: 9001011234568n }, 1), null);
});

Deno.test("pii: a record nested 100,000 deep is scanned without the call stack", () => {
  let deep: unknown = "900101-1234567";
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  assertEquals(piiProblem(deep as never, 1), "line 1: resident registration number pattern detected");
});
