import { assertEquals } from "../support/assert.ts";
import { refusedFilterValue } from "../../src/parquet/_filter_values.ts";

Deno.test("an integer column takes a whole number in its range", () => {
  for (
    const [value, type] of [["42", "BIGINT"], ["-9223372036854775808", "BIGINT"], [" +007 ", "INTEGER"], [
      "255",
      "UTINYINT",
    ]]
  ) {
    assertEquals(refusedFilterValue(value, type), null, `${value} ${type}`);
  }
  assertEquals(refusedFilterValue(String(2n ** 128n - 1n), "UHUGEINT"), null);
  assertEquals(refusedFilterValue("9223372036854775808", "BIGINT"), "is out of BIGINT's range");
  assertEquals(refusedFilterValue("-1", "UTINYINT"), "is out of UTINYINT's range");
  for (const value of ["1.5", "2.", ".5", "1e3"]) {
    assertEquals(refusedFilterValue(value, "BIGINT"), "is not a whole number");
  }
  for (const value of ["abc", "0x10", "1_000", "", "1.2.3", "nan", "1e"]) {
    assertEquals(refusedFilterValue(value, "BIGINT"), "is not a number", value);
  }
});

Deno.test("floats take numbers and inf/nan; a decimal column a plain number that fits its places and precision", () => {
  for (const value of ["1", "-0.25", "1e300", "inf", "-Infinity", "NaN"]) {
    assertEquals(refusedFilterValue(value, "DOUBLE"), null);
  }
  assertEquals(refusedFilterValue("x", "FLOAT"), "is not a number");
  for (const value of ["12.34", "12", "-12.3", "0.10", "12.340", "00012.5", "99999999.99"]) {
    assertEquals(refusedFilterValue(value, "DECIMAL(10,2)"), null, value);
  }
  assertEquals(refusedFilterValue("12.345", "DECIMAL(10,2)"), "has more than 2 decimal places");
  assertEquals(refusedFilterValue("123456789.5", "DECIMAL(10,2)"), "is out of DECIMAL(10,2)'s range");
  assertEquals(refusedFilterValue("1e2", "DECIMAL(10,2)"), "is not written without an exponent");
  assertEquals(refusedFilterValue("inf", "DECIMAL(10,2)"), "is not a number");
});

Deno.test("other types are left to DuckDB's cast", () => {
  assertEquals(refusedFilterValue("2024-01-01", "DATE"), null);
  assertEquals(refusedFilterValue("true", "BOOLEAN"), null);
  assertEquals(refusedFilterValue("anything", "UUID"), null);
});
