/** The pieces of Delta Sharing that need no node: Spark types, predicates, page tokens, recipients on disk. */
import { assert, assertEquals, assertRejects, assertThrows } from "../support/assert.ts";
import { tempDir } from "../support/store_fixture.ts";
import {
  addRecipient,
  listRecipients,
  mayMatch,
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
  assertEquals(sparkType("MAP(VARCHAR, DOUBLE)"), {
    type: "map",
    keyType: "string",
    valueType: "double",
    valueContainsNull: true,
  });
});

Deno.test("predicates skip a file only when its statistics prove no row matches", () => {
  const stats = {
    numRecords: 10,
    minValues: { id: 10, name: "b" },
    maxValues: { id: 20, name: "m" },
    nullCount: { id: 0, name: 3 },
  };
  const no = (p: string) => assertEquals(mayMatch(parseSqlPredicate(p), stats), false, p);
  const maybe = (p: string) => assertEquals(mayMatch(parseSqlPredicate(p), stats), true, p);
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
  assertEquals(mayMatch(tree("greaterThan", "20"), stats), false);
  assertEquals(mayMatch(tree("equal", "15"), stats), true);
  assertEquals(mayMatch({ op: "and", children: [tree("equal", "15"), tree("lessThan", "5")] }, stats), false);
  assertEquals(mayMatch({ op: "or", children: [tree("equal", "15"), tree("lessThan", "5")] }, stats), true);
  assertEquals(mayMatch({ op: "not", child: { op: "isNull", column: "id" } }, stats), true);
  assertEquals(mayMatch(parseJsonPredicate("not json"), stats), true);
});

Deno.test("page tokens page exactly once through a listing and only their own", () => {
  const all = ["a", "b", "c", "d", "e"];
  const seen: string[] = [];
  let token: string | null = null;
  do {
    const page: { items: string[]; nextPageToken?: string } = pageOf(all, "letters", token, 2);
    seen.push(...page.items);
    token = page.nextPageToken ?? null;
  } while (token !== null);
  assertEquals(seen, all);
  const first = pageOf(all, "letters", null, 2).nextPageToken!;
  assertThrows(() => pageOf(all, "digits", first, 2), /another query/);
  assertThrows(() => pageOf(all, "letters", "%%%", 2), /pageToken/);
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
