/**
 * An origin-side signer for the exact-number vectors, written apart from
 * `src/`: it renders the signed statement straight from the manifest's JSON
 * text (numbers kept as the literals they were written as, never a
 * JavaScript number in between) and signs it with `node:crypto`'s Ed25519.
 * Integer literals are written as their exact digits; any other number as
 * JavaScript's `JSON.stringify` writes it (wire.md, "Signatures and trust").
 *
 * @module
 */
import { createPrivateKey, sign } from "node:crypto";
import { Buffer } from "node:buffer";

/** A JSON value whose numbers are still their source literals. */
type Node = { num: string } | { str: string } | { lit: "true" | "false" | "null" } | Node[] | Map<string, Node>;

/** Keys the origin leaves out of the signed manifest (local bookkeeping included). */
const UNSIGNED = new Set([
  "signature",
  "urlExpiresAt",
  "paid",
  "verified",
  "count",
  "file",
  "downloaded",
  "pulledAt",
  "loaded",
  "loadedAt",
  "loadedFrom",
  "source",
]);

/** Reads JSON text into a tree that keeps each number's literal. */
function readTree(text: string): Node {
  let at = 0;
  const ws = () => {
    while (" \t\n\r".includes(text[at]) && at < text.length) at++;
  };
  const expect = (c: string) => {
    ws();
    if (text[at++] !== c) throw new SyntaxError(`expected ${c} at ${at - 1}`);
  };
  const string = (): string => {
    const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at));
    if (!m) throw new SyntaxError(`bad string at ${at}`);
    at += m[0].length;
    return JSON.parse(m[0]); // which refuses control characters
  };
  const value = (): Node => {
    ws();
    const c = text[at];
    if (c === "{") {
      at++;
      const map = new Map<string, Node>();
      ws();
      if (text[at] === "}") return (at++, map);
      for (;;) {
        ws();
        const key = string();
        expect(":");
        map.set(key, value());
        ws();
        if (text[at++] === "}") return map;
      }
    }
    if (c === "[") {
      at++;
      const list: Node[] = [];
      ws();
      if (text[at] === "]") return (at++, list);
      for (;;) {
        list.push(value());
        ws();
        if (text[at++] === "]") return list;
      }
    }
    if (c === '"') return { str: string() };
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at));
    if (!m) throw new SyntaxError(`unexpected ${c} at ${at}`);
    at += m[0].length;
    return m[0] === "true" || m[0] === "false" || m[0] === "null" ? { lit: m[0] } : { num: m[0] };
  };
  const tree = value();
  ws();
  if (at !== text.length) throw new SyntaxError("text after the value");
  return tree;
}

/** An integer literal as its digits; any other number as `JSON.stringify` writes it. */
function numberText(literal: string): string {
  return /^-?\d+$/.test(literal) ? BigInt(literal).toString() : JSON.stringify(Number(literal));
}

function render(node: Node): string {
  if (Array.isArray(node)) return `[${node.map(render).join(",")}]`;
  if (node instanceof Map) {
    const keys = [...node.keys()].sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${render(node.get(k)!)}`).join(",")}}`;
  }
  if ("num" in node) return numberText(node.num);
  if ("str" in node) return JSON.stringify(node.str);
  return node.lit;
}

/** The statement the origin signs for the manifest written as `manifestText`. */
export function canonicalStatement(origin: string, manifestText: string): string {
  const manifest = readTree(manifestText);
  if (!(manifest instanceof Map)) throw new TypeError("a manifest is an object");
  const content = new Map<string, Node>();
  for (const [key, value] of manifest) {
    if (UNSIGNED.has(key)) continue;
    content.set(
      key,
      key === "parts" && Array.isArray(value)
        ? value.map((p) => p instanceof Map ? new Map([...p].filter(([k]) => k !== "url")) : p)
        : value,
    );
  }
  const statement = new Map<string, Node>([
    ["v", { num: "1" }],
    ["origin", { str: origin }],
    ["manifest", content],
  ]);
  return render(statement);
}

/** Ed25519 over the UTF-8 of `statement` with the key of the 32-byte `seedHex`, standard base64. */
export function signStatement(seedHex: string, statement: string): string {
  const key = createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), Buffer.from(seedHex, "hex")]),
    format: "der",
    type: "pkcs8",
  });
  return sign(null, Buffer.from(statement, "utf8"), key).toString("base64");
}
