/**
 * The JSON form of every DuckDB type in a query answer, type by type, read
 * from the raw answer text so that no JSON parser can hide a lost digit.
 */
import { assertEquals } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { sql } from "./_query.ts";

/** [SQL expression, DuckDB type name, exact JSON text of the value]. */
const CASES: [string, string, string][] = [
  ["true", "BOOLEAN", "true"],
  ["127::TINYINT", "TINYINT", "127"],
  ["(-32768)::SMALLINT", "SMALLINT", "-32768"],
  ["2147483647::INTEGER", "INTEGER", "2147483647"],
  ["255::UTINYINT", "UTINYINT", "255"],
  ["4294967295::UINTEGER", "UINTEGER", "4294967295"],
  ["9007199254740991::BIGINT", "BIGINT", "9007199254740991"],
  ["9007199254740993::BIGINT", "BIGINT", '"9007199254740993"'],
  ["(-9223372036854775807 - 1)::BIGINT", "BIGINT", '"-9223372036854775808"'],
  ["18446744073709551615::UBIGINT", "UBIGINT", '"18446744073709551615"'],
  ["12::HUGEINT", "HUGEINT", "12"],
  ["170141183460469231731687303715884105727::HUGEINT", "HUGEINT", '"170141183460469231731687303715884105727"'],
  ["340282366920938463463374607431768211455::UHUGEINT", "UHUGEINT", '"340282366920938463463374607431768211455"'],
  ["123456789012345678901234567890::VARINT", "BIGNUM", '"123456789012345678901234567890"'],
  ["0.1::FLOAT", "FLOAT", "0.1"],
  ["'nan'::FLOAT", "FLOAT", "null"],
  ["0.1::DOUBLE + 0.2", "DOUBLE", "0.30000000000000004"],
  ["'nan'::DOUBLE", "DOUBLE", "null"],
  ["'inf'::DOUBLE", "DOUBLE", "null"],
  ["'-inf'::DOUBLE", "DOUBLE", "null"],
  ["1e300::DOUBLE", "DOUBLE", "1e+300"],
  ["12345.67::DECIMAL(10,2)", "DECIMAL(10,2)", "12345.67"],
  ["(-0.5)::DECIMAL(4,3)", "DECIMAL(4,3)", "-0.500"],
  [
    "1234567890123456789012345678.0123456789::DECIMAL(38,10)",
    "DECIMAL(38,10)",
    "1234567890123456789012345678.0123456789",
  ],
  ["'héllo \"q\" \\ ' || chr(10)", "VARCHAR", '"héllo \\"q\\" \\\\ \\n"'],
  ["DATE '2026-11-22'", "DATE", '"2026-11-22"'],
  ["'infinity'::DATE", "DATE", '"infinity"'],
  ["TIME '03:04:05.123456'", "TIME", '"03:04:05.123456"'],
  ["'03:04:05+02'::TIMETZ", "TIME WITH TIME ZONE", '"03:04:05+02:00"'],
  ["TIMESTAMP '2026-11-22 03:04:05.123456'", "TIMESTAMP", '"2026-11-22T03:04:05.123456"'],
  ["'2026-11-22 03:04:05'::TIMESTAMP_S", "TIMESTAMP_S", '"2026-11-22T03:04:05"'],
  ["'2026-11-22 03:04:05.123'::TIMESTAMP_MS", "TIMESTAMP_MS", '"2026-11-22T03:04:05.123"'],
  ["'2026-11-22 03:04:05.123456789'::TIMESTAMP_NS", "TIMESTAMP_NS", '"2026-11-22T03:04:05.123456789"'],
  ["TIMESTAMPTZ '2026-11-22 03:04:05+02'", "TIMESTAMP WITH TIME ZONE", '"2026-11-22T01:04:05+00:00"'],
  ["'-infinity'::TIMESTAMP", "TIMESTAMP", '"-infinity"'],
  ["INTERVAL '1 year 2 months 3 days 04:05:06.5'", "INTERVAL", '"P1Y2M3DT4H5M6.5S"'],
  ["INTERVAL '-90 minutes'", "INTERVAL", '"PT-1H-30M"'],
  ["INTERVAL '0 seconds'", "INTERVAL", '"PT0S"'],
  ["'550e8400-e29b-41d4-a716-446655440000'::UUID", "UUID", '"550e8400-e29b-41d4-a716-446655440000"'],
  ["'\\xDE\\xAD\\x00'::BLOB", "BLOB", '"dead00"'],
  ["'0101'::BIT", "BIT", '"0101"'],
  ["'b'::ENUM('a', 'b')", "ENUM('a', 'b')", '"b"'],
  ["[1, 2, NULL]", "INTEGER[]", "[1,2,null]"],
  ["[9007199254740993]::BIGINT[]", "BIGINT[]", '["9007199254740993"]'],
  ["[1, 2, 3]::INTEGER[3]", "INTEGER[3]", "[1,2,3]"],
  [
    "{'a': 1, 'b': [true], 'c': {'d': 'nan'::DOUBLE}}",
    'STRUCT("a" INTEGER, "b" BOOLEAN[], "c" STRUCT("d" DOUBLE))',
    '{"a":1,"b":[true],"c":{"d":null}}',
  ],
  ["MAP {'k': 1, 'j': 2}", "MAP(VARCHAR, INTEGER)", '{"k":1,"j":2}'],
  ["union_value(num := 2)::UNION(num INTEGER, str VARCHAR)", 'UNION("num" INTEGER, "str" VARCHAR)', "2"],
  ["'{\"x\": [1, 2]}'::JSON", "VARCHAR", '"{\\"x\\": [1, 2]}"'],
  ["NULL::INTEGER", "INTEGER", "null"],
];

Deno.test("every DuckDB type has its JSON form in query answers", async () => {
  await withNode({}, async ({ url }) => {
    for (const [expression, type, json] of CASES) {
      const r = await sql(url, `SELECT ${expression} AS v`);
      assertEquals(r.status, 200, `${expression}: ${r.text}`);
      assertEquals(r.body.types, [type], expression);
      const rows = /"rows":(\[\[.*\]\]),"count"/s.exec(r.text)?.[1];
      assertEquals(rows, `[[${json}]]`, expression);
    }
  });
});
