import { assert, assertEquals } from "../support/assert.ts";
import { schemaErrors, schemaProblem } from "../../src/gates/schema.ts";
import { recordIdentity, storedForm } from "../../src/gates/identity.ts";
import type { SchemaDef } from "../../src/wire/types.ts";

const SCHEMA: SchemaDef = {
  fields: [
    { name: "id", type: "integer" },
    { name: "name", type: "string" },
    { name: "score", type: "number" },
    { name: "ok", type: "boolean" },
    { name: "note", type: "string", required: false },
  ],
  allowExtra: false,
};
const GOOD = { id: 1, name: "a", score: 0.5, ok: true };

Deno.test("schema: required fields with their types; integers whole and 64-bit; booleans are not numbers", () => {
  assertEquals(schemaProblem(GOOD, 1, SCHEMA), null);
  assertEquals(schemaProblem({ ...GOOD, note: null }, 1, SCHEMA), null);
  assertEquals(schemaProblem({ ...GOOD, id: 9223372036854775807n }, 1, SCHEMA), null);
  assertEquals(schemaProblem({ ...GOOD, score: 3 }, 1, SCHEMA), null, "an integer is a number");
  assertEquals(schemaProblem({ ...GOOD, score: 9007199254740992n * 4n }, 1, SCHEMA), null, "2^55 is a float64");
  assertEquals(schemaProblem({ ...GOOD, id: -9223372036854775808n }, 1, SCHEMA), null);
  assertEquals(schemaProblem({ ...GOOD, id: 9.2e18 }, 1, SCHEMA), null, "a whole float within int64");
  const cases: [Record<string, unknown>, string][] = [
    [{ name: "a", score: 1, ok: true }, 'line 4: missing required field "id"'],
    [{ ...GOOD, id: null }, 'line 4: missing required field "id"'],
    [{ ...GOOD, id: 1.5 }, 'line 4: "id" must be integer'],
    [{ ...GOOD, id: "1" }, 'line 4: "id" must be integer'],
    [{ ...GOOD, id: true }, 'line 4: "id" must be integer'],
    [{ ...GOOD, id: 9223372036854775808n }, 'line 4: "id" is out of range for an integer'],
    [{ ...GOOD, id: -9223372036854775809n }, 'line 4: "id" is out of range for an integer'],
    [{ ...GOOD, id: 1e19 }, 'line 4: "id" is out of range for an integer'],
    [{ ...GOOD, id: 1e300 }, 'line 4: "id" is out of range for an integer'],
    [{ ...GOOD, id: Infinity }, 'line 4: "id" is out of range for an integer'],
    [{ ...GOOD, score: Infinity }, 'line 4: "score" is out of range for a number'],
    [{ ...GOOD, score: -Infinity }, 'line 4: "score" is out of range for a number'],
    [
      { ...GOOD, score: 9007199254740993n },
      'line 4: "score" is not exact as a number (9007199254740993 would not read back as sent)',
    ],
    [{ ...GOOD, score: false }, 'line 4: "score" must be number'],
    [{ ...GOOD, ok: 1 }, 'line 4: "ok" must be boolean'],
    [{ ...GOOD, name: ["a"] }, 'line 4: "name" must be string'],
    [{ ...GOOD, extra: 1 }, 'line 4: unknown field "extra"'],
  ];
  for (const [record, reason] of cases) {
    assertEquals(
      schemaProblem(record as never, 4, SCHEMA),
      reason,
      JSON.stringify(record, (_, v) => typeof v === "bigint" ? `${v}n` : v),
    );
  }
  assertEquals(schemaProblem([1] as never, 2, SCHEMA), "line 2: a record must be a JSON object");
  assertEquals(schemaProblem({ ...GOOD, extra: { x: 1 } }, 1, { ...SCHEMA, allowExtra: true }), null);
  assertEquals(
    schemaProblem({ ...GOOD, extra: { x: [1, Infinity] } }, 3, { ...SCHEMA, allowExtra: true }),
    'line 3: "extra.x[1]" is out of range for a number',
  );
});

Deno.test("schemaProblem refuses text with a lone surrogate, which UTF-8 cannot hold as sent, wherever it is", () => {
  const extras = { ...SCHEMA, allowExtra: true };
  const lone = "\ud800";
  assertEquals(
    schemaProblem({ ...GOOD, name: `a${lone}` }, 2, SCHEMA),
    'line 2: "name" is not valid Unicode text (it holds a lone surrogate)',
  );
  assertEquals(
    schemaProblem({ ...GOOD, name: "\udc00\ud800" }, 2, SCHEMA),
    'line 2: "name" is not valid Unicode text (it holds a lone surrogate)',
    "reversed halves are two lone ones",
  );
  assertEquals(
    schemaProblem({ ...GOOD, extra: { x: ["ok", lone] } }, 3, extras),
    'line 3: "extra.x[1]" is not valid Unicode text (it holds a lone surrogate)',
  );
  assertEquals(
    schemaProblem({ ...GOOD, extra: { [`k${lone}`]: 1 } }, 3, extras),
    'line 3: a field name in "extra" is not valid Unicode text (it holds a lone surrogate)',
  );
  assertEquals(
    schemaProblem({ ...GOOD, [lone]: 1 }, 1, extras),
    "line 1: a field name is not valid Unicode text (it holds a lone surrogate)",
  );
  assertEquals(schemaProblem({ ...GOOD, name: "\ud83d\ude00 ok", extra: { "日本": "語\u0000" } }, 1, extras), null);
});

Deno.test("schemaErrors names the first 20 bad lines and counts them all", () => {
  const records = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? { ...GOOD, id: "bad" } : GOOD));
  const { errors, count } = schemaErrors(records as never, SCHEMA);
  assertEquals(count, 15);
  assertEquals(errors.length, 15);
  assertEquals(errors[0], { line: 1, error: '"id" must be integer' });
  assertEquals(errors[1], { line: 3, error: '"id" must be integer' });
  const many = schemaErrors(Array.from({ length: 25 }, () => ({ ...GOOD, ok: "no" })) as never, SCHEMA);
  assertEquals([many.count, many.errors.length, many.errors[19]], [25, 20, {
    line: 20,
    error: '"ok" must be boolean',
  }], "at most 20 lines, and no note beside them");
  assert(
    many.reason.startsWith('line 1: "ok" must be boolean; line 2: ') &&
      many.reason.endsWith('; line 20: "ok" must be boolean … (the first 20)'),
    many.reason,
  );
  const exactly = schemaErrors(Array.from({ length: 20 }, () => ({ ...GOOD, ok: "no" })) as never, SCHEMA);
  assertEquals([exactly.errors.length, exactly.reason.endsWith('line 20: "ok" must be boolean')], [20, true]);
});

Deno.test("a number that cannot be held is not echoed whole: a 100,000-digit value makes a short reason", () => {
  const schema = { fields: [{ name: "score", type: "number" }], allowExtra: false };
  const huge = BigInt("9".repeat(100_000));
  assertEquals(
    schemaErrors([{ score: huge }] as never, schema as never).reason,
    'line 1: "score" is out of range for a number',
  );
  const inexact = BigInt(`1${"0".repeat(299)}1`);
  assertEquals(
    schemaErrors([{ score: inexact }] as never, schema as never).reason,
    'line 1: "score" is not exact as a number (100000000000... (301 digits) would not read back as sent)',
  );
});

Deno.test("identity: the stored form drops nulls and orders nothing; equal records share an identity", () => {
  assertEquals(storedForm({ ...GOOD, note: null }, SCHEMA), GOOD);
  assertEquals(storedForm({ ...GOOD, score: 2n }, SCHEMA).score, 2);
  assertEquals(recordIdentity({ b: 1, a: { d: 2, c: 3 } }), recordIdentity({ a: { c: 3, d: 2 }, b: 1 }));
  assertEquals(recordIdentity({ a: 1 }) === recordIdentity({ a: 2 }), false);
  assertEquals(recordIdentity({ a: 9007199254740993n }) === recordIdentity({ a: 9007199254740992 }), false);
});
