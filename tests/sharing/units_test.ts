/** The pieces of Delta Sharing that need no node: Spark types, predicates, page tokens, recipients on disk. */
import { assert, assertEquals, assertRejects, assertThrows } from "../support/assert.ts";
import { tempDir } from "../support/store_fixture.ts";
import {
  addRecipient,
  compareExact,
  compareUtf8,
  dayOf,
  exactNumber,
  instantOf,
  listRecipients,
  mayMatch,
  pageKeyFor,
  pageOf,
  parseJsonPredicate,
  parseSqlPredicate,
  recipientBook,
  removeRecipient,
  sparkType,
} from "../../src/sharing/mod.ts";

Deno.test("DuckDB types become Spark's: primitives, decimals, lists, structs, maps", () => {
  assertEquals(sparkType("VARCHAR"), "string");
  assertEquals(sparkType("BIGINT"), "long");
  assertEquals(sparkType("DOUBLE"), "double");
  assertEquals(sparkType("BOOLEAN"), "boolean");
  assertEquals(sparkType("DECIMAL(18,3)"), "decimal(18,3)");
  assertEquals(sparkType("BIGINT[]"), { type: "array", elementType: "long", containsNull: true });
  assertEquals(sparkType('STRUCT(a BIGINT, "b c" VARCHAR[])'), {
    type: "struct",
    fields: [
      { name: "a", type: "long", nullable: true, metadata: {} },
      { name: "b c", type: { type: "array", elementType: "string", containsNull: true }, nullable: true, metadata: {} },
    ],
  });
  assertEquals(sparkType("STRUCT(UTINYINT, INTEGER, VARCHAR)"), "string", "a struct DuckDB shows without names");
  assertEquals(sparkType("STRUCT(UTINYINT, INTEGER)[]"), { type: "array", elementType: "string", containsNull: true });
  assertEquals(sparkType("MAP(VARCHAR, DOUBLE)"), {
    type: "map",
    keyType: "string",
    valueType: "double",
    valueContainsNull: true,
  });
});

Deno.test("predicates skip a file only when its statistics prove no row matches", () => {
  const file = {
    numRecords: 10,
    columns: new Map([
      ["id", { kind: "int" as const, min: "10", max: "20", nulls: 0 }],
      ["name", { kind: "string" as const, min: "b", max: "m", nulls: 3 }],
    ]),
  };
  const no = (p: string) => assertEquals(mayMatch(parseSqlPredicate(p), file), false, p);
  const maybe = (p: string) => assertEquals(mayMatch(parseSqlPredicate(p), file), true, p);
  no("id > 20");
  no("id < 10");
  no("id = 21");
  no("25 <= id");
  no("name = 'z'");
  no("id IS NULL");
  maybe("id >= 20");
  maybe("name IS NULL");
  maybe("name IS NOT NULL");
  maybe("id = 'x'"); // types that do not compare keep the file
  maybe("lower(name) = 'b'");
  maybe("id > 5 OR id < 0");
  const tree = (op: string, value: string) =>
    parseJsonPredicate(JSON.stringify({
      op,
      children: [{ op: "column", name: "id", valueType: "int" }, { op: "literal", value, valueType: "int" }],
    }));
  assertEquals(mayMatch(tree("greaterThan", "20"), file), false);
  assertEquals(mayMatch(tree("equal", "15"), file), true);
  assertEquals(mayMatch({ op: "and", children: [tree("equal", "15"), tree("lessThan", "5")] }, file), false);
  assertEquals(mayMatch({ op: "or", children: [tree("equal", "15"), tree("lessThan", "5")] }, file), true);
  assertEquals(mayMatch({ op: "not", child: { op: "isNull", column: "id" } }, file), true);
  assertEquals(mayMatch({ op: "not", child: tree("lessThan", "30") }, file), false); // every row is < 30
  assertEquals(mayMatch(parseJsonPredicate("not json"), file), true);
  assertEquals(mayMatch(tree("equal", "1.5"), file), true); // an int literal that is not one: not understood
});

Deno.test("a float column's bounds never rule out NaN, which some writers leave out of the statistics", () => {
  // pyarrow and others write min/max over the numbers alone: a file of 1, 5 and NaN says [1, 5]
  const file = { numRecords: 3, columns: new Map([["x", { kind: "double" as const, min: "1", max: "5", nulls: 0 }]]) };
  const verdict = (p: string) => mayMatch(parseSqlPredicate(p), file);
  assertEquals([verdict("x > 10"), verdict("x >= 10"), verdict("x <> 3")], [true, true, true]); // NaN matches these
  assertEquals([verdict("x < 0"), verdict("x <= 0"), verdict("x = 10")], [false, false, false]); // and never these
});

Deno.test("strings compare by their UTF-8 bytes, numbers exactly, dates and instants by time", () => {
  const samples = [
    "",
    "a",
    "z",
    "\u00e9",
    "\u07ff",
    "\u0800",
    "\ud7ff",
    "\ue000",
    "\uff21",
    "\uffff",
    "\u{10000}",
    "\u{1f600}",
  ];
  const bytes = (s: string) => new TextEncoder().encode(s);
  const byBytes = (a: string, b: string) => {
    const [x, y] = [bytes(a), bytes(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
  };
  for (const a of samples) {
    for (const b of samples) {
      for (const [p, q] of [[a, b], [a + "x", b], [a, a + b]]) {
        assertEquals(compareUtf8(p, q), byBytes(p, q), `${p} ${q}`);
      }
    }
  }
  const exact = (t: string) => exactNumber(t)!;
  assertEquals(compareExact(exact("9007199254740993"), exact("9007199254740992")), 1);
  assertEquals(compareExact(exact("-12.50"), exact("-1.25e1")), 0);
  assertEquals(compareExact(exact("0.001"), exact("1e-2")), -1);
  assertEquals(compareExact(exact("-0"), exact("0.0")), 0);
  assertEquals(exactNumber("1.2.3"), null);
  assertEquals(dayOf("2021-02-29"), null);
  assertEquals(instantOf("2021-04-29 12:00:00+02")!.ns, instantOf("2021-04-29T10:00:00Z")!.ns);
  assertEquals(instantOf("2021-04-29 12:00:00.000000001")!.ns - instantOf("2021-04-29 12:00:00")!.ns, 1n);
});

Deno.test("page tokens page exactly once through a listing and only their own", () => {
  const all = ["a", "b", "c", "d", "e"];
  const key = pageKeyFor("t");
  const seen: string[] = [];
  let token: string | null = null;
  do {
    const page: { items: string[]; nextPageToken?: string } = pageOf(key, all, "letters", token, 2);
    seen.push(...page.items);
    token = page.nextPageToken ?? null;
  } while (token !== null);
  assertEquals(seen, all);
  const first = pageOf(key, all, "letters", null, 2).nextPageToken!;
  assertThrows(() => pageOf(key, all, "digits", first, 2), /not one this server gave/);
  assertThrows(() => pageOf(key, all, "letters", "%%%", 2), /pageToken/);
  assertThrows(() => pageOf(pageKeyFor("another node"), all, "letters", first, 2), /not one this server gave/);
  assertEquals(
    pageOf(pageKeyFor("t"), all, "letters", first, 2).items,
    ["c", "d"],
    "the same node token, the same key",
  );
  assertEquals(pageOf(key, all, "letters", null, 0), { items: [] }, "maxResults 0: no items and no token");
});

Deno.test("recipients: stored hashed, names unique, expiry and removal seen by a running book at once", async () => {
  const dir = await tempDir();
  try {
    const now = new Date("2026-11-25T00:00:00Z");
    const { token, recipient } = await addRecipient(dir.path, "bi-team", new Date("2026-12-01T00:00:00Z"), now);
    const text = await Deno.readTextFile(`${dir.path}/.sharing/recipients.json`);
    assert(!text.includes(token), "the token itself is not stored");
    assertEquals(recipient.tokenSha256.length, 64);
    await assertRejects(() => addRecipient(dir.path, "BI-team", null, now), /exists/);
    await assertRejects(() => addRecipient(dir.path, "../x", null, now), /name/);
    const book = recipientBook(dir.path);
    assertEquals((await book.holder(token, now.getTime()))?.name, "bi-team");
    assertEquals(await book.holder(token, Date.parse("2026-12-02T00:00:00Z")), null);
    assertEquals(await book.holder(token + "x", now.getTime()), null);
    await removeRecipient(dir.path, "bi-team");
    assertEquals(await book.holder(token, now.getTime()), null);
    assertEquals(await listRecipients(dir.path), []);
  } finally {
    await dir.cleanup();
  }
});
