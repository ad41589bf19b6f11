/**
 * Writes the `exact` section of `vectors.json`: manifests as the origin
 * sends them, holding integers beyond 2^53 and floats in several written
 * forms, each with the statement the origin signs (rendered from the text by
 * `canonical.ts`, not by `src/`) and its signature by the first vector key.
 *
 * ```sh
 * deno run -A tests/trust/make_exact_vectors.ts   # rewrites tests/trust/vectors.json's "exact"
 * ```
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { canonicalStatement, signStatement } from "./canonical.ts";

/** Where the number under test goes: the `stats` key of a manifest as the origin serves it. */
function manifestText(stats: string): string {
  return `{
  "format": "svc-dataset-manifest/1",
  "project": "cities",
  "version": 3,
  "parent": 2,
  "createdAt": "2026-11-02T00:00:00Z",
  "parts": [
    {
      "sha256": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
      "bytes": 1234,
      "records": 2,
      "url": "http://127.0.0.1:8686/parts/cities/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.parquet?exp=1&sig=x"
    }
  ],
  "totals": {"records": 2, "bytes": 1234, "parts": 1, "contributions": 1},
  "stats": ${stats},
  "urlExpiresAt": "2026-11-22T04:00:00+00:00"
}`;
}

/** Each case: its name, the `stats` value as written, and whether `JSON.parse` alone would still verify it. */
const CASES: [string, string, boolean][] = [
  ["2^53+1", `{"maxId": 9007199254740993}`, false],
  ["-(2^53+1)", `{"minId": -9007199254740993}`, false],
  ["2^63-1", `{"maxId": 9223372036854775807}`, false],
  ["2^64+1", `{"maxId": 18446744073709551617}`, false],
  ["10^30, digits and not 1e+30", `{"maxId": 1000000000000000000000000000000}`, false],
  ["2^53-1 and 2^53, where JSON.parse is still exact", `{"safe": 9007199254740991, "first": 9007199254740992}`, true],
  [
    "big integers nested in arrays and objects",
    `{"ranges": [[-9223372036854775808, 9223372036854775807], {"deep": {"ids": [18446744073709551615, 1, -18446744073709551617]}}], "n": 7}`,
    false,
  ],
  [
    "an integer literal is exact, a float literal naming the same value is a float",
    `[9007199254740993, 9007199254740993.0, 9.007199254740993e15]`,
    false,
  ],
  [
    "floats in JavaScript's form",
    `{"mean": 1.5e-07, "upper": 1.5E-7, "e16": 1e16, "e16decimal": 10000000000000000.0, "negZero": -0.0, ` +
    `"negZeroInt": -0, "one": 1.0, "e21": 1e21, "e20": 1.2345678901234568e20, "tiny": 5e-324, ` +
    `"max": 1.7976931348623157e308, "tenth": 0.1, "plusExp": 2.5e+3, "micro": 0.000001, "belowMicro": 0.0000001}`,
    true,
  ],
  [
    "big integers beside floats",
    `{"sum": 18446744073709551617, "mean": 2.5, "min": -9007199254740993, "ratio": 1e-7}`,
    false,
  ],
];

const path = new URL("./vectors.json", import.meta.url);
const vectors = JSON.parse(await readFile(path, "utf8"));
vectors.exact = {
  note: "manifestText is kept as text: JSON.parse (this file's own import included) would round its integers",
  cases: CASES.map(([name, stats, jsonParseVerifies]) => {
    const text = manifestText(stats);
    const statement = canonicalStatement(vectors.origin, text);
    return {
      name,
      manifestText: text,
      statement,
      signature: signStatement(vectors.seeds[0], statement),
      jsonParseVerifies,
    };
  }),
};
await writeFile(path, JSON.stringify(vectors, null, 2) + "\n");
