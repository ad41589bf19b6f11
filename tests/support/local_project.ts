/**
 * A local project over HTTP for write tests: its creation body, JSON posts,
 * and batches of simple records.
 *
 * @module
 */
import type { Json } from "./assert.ts";

/** The body that creates the local project `notes` (id and text). */
export const NOTES = {
  slug: "notes",
  title: "Agent notes",
  readme: "Notes an agent keeps while it works.",
  schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }] },
};

/** A JSON POST; a string body is sent as it is. */
export async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as Json, text };
}

/** Contribution body `i`: `size` records with ids `i * size` onwards. */
export function batch(i: number, size = 10): { records: { id: number; text: string }[] } {
  return { records: Array.from({ length: size }, (_, j) => ({ id: i * size + j, text: `note ${i * size + j}` })) };
}
