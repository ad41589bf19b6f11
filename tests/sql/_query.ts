/**
 * Posting SQL to a node under test.
 *
 * @module
 */
import type { Json } from "../support/assert.ts";

/** POSTs `body` to `/projects/{slug}/query` and returns status, headers and parsed body. */
export async function postQuery(
  url: string,
  slug: string,
  body: Record<string, unknown>,
): Promise<{ status: number; headers: Headers; body: Json; text: string }> {
  const res = await fetch(`${url}/projects/${slug}/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
}

/** POSTs `sql` and returns the answer. */
export function sql(url: string, statement: string, extra: Record<string, unknown> = {}, slug = "cities") {
  return postQuery(url, slug, { sql: statement, ...extra });
}
