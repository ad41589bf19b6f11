import { assertEquals } from "../support/assert.ts";
import { parseExactJson } from "../../src/wire/json_parse.ts";
import { csv, exactJson, jsonLines } from "../../src/cli/formats.ts";

Deno.test('CSV follows RFC 4180: header, CRLF, quotes doubled, fields with , " or line breaks quoted', () => {
  const text = csv(
    ["id", "note", "n", "tags"],
    [
      [1, "plain", 2.5, null],
      [2, 'say "hi", then go', null, ["a", "b"]],
      [3, "two\nlines", -0, { k: 1 }],
      [4, "cr\rhere", true, ""],
    ],
  );
  assertEquals(
    text,
    "id,note,n,tags\r\n" +
      "1,plain,2.5,\r\n" +
      '2,"say ""hi"", then go",,"[""a"",""b""]"\r\n' +
      '3,"two\nlines",0,"{""k"":1}"\r\n' +
      '4,"cr\rhere",true,\r\n',
  );
  assertEquals(csv(["a"], []), "a\r\n", "no rows: the header alone");
});

Deno.test("JSON lines: one object a row keyed by column, big integers exact", () => {
  assertEquals(
    jsonLines(["id", "name"], [[1, "a"], [9007199254740993n, null]]),
    '{"id":1,"name":"a"}\n{"id":9007199254740993,"name":null}\n',
  );
  assertEquals(jsonLines(["x"], []), "");
});

Deno.test("exactJson keeps key order and big integers: what parseExactJson read comes back the same", () => {
  const line = '{"z":1,"id":9007199254740993,"nested":{"b":[1,-12345678901234567890],"a":"é\\n"},"f":0.5}';
  assertEquals(exactJson(parseExactJson(line)), line);
});
