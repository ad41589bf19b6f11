/**
 * Answers: JSON with the node's headers, and errors as `{"error": "..."}`.
 *
 * @module
 */
import { bytesResponse } from "../http/mod.ts";
import { stringifyExactJson } from "../wire/mod.ts";

/** Headers every JSON answer carries. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-svc-node": "1",
};

/**
 * A JSON answer from prebuilt JSON text.
 *
 * @example
 * ```ts
 * import { jsonText } from "./response.ts";
 * jsonText('{"ok":true}');
 * ```
 */
export function jsonText(text: string, status = 200, headers: Record<string, string> = {}): Response {
  return bytesResponse(text, { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * A JSON answer from prebuilt JSON, already UTF-8.
 *
 * @example
 * ```ts
 * import { jsonBytes } from "./response.ts";
 * jsonBytes(new TextEncoder().encode('{"ok":true}'));
 * ```
 */
export function jsonBytes(
  bytes: Uint8Array<ArrayBuffer>,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return bytesResponse(bytes, { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * A JSON answer; a `bigint` (an integer beyond 2^53 in a manifest) is written
 * as its digits.
 *
 * @example
 * ```ts
 * import { json } from "./response.ts";
 * json({ ok: true });
 * ```
 */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonText(stringifyExactJson(body), status, headers);
}

/**
 * An error answer: `{"error": message}` with `status`.
 *
 * @example
 * ```ts
 * import { errorResponse } from "./response.ts";
 * errorResponse(404, "no such path");
 * ```
 */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ error: message }, status, headers);
}

/** Text gathered before a piece of a streamed JSON answer is sent. */
const STREAM_PIECE = 64 * 1024;

/**
 * A JSON answer written as `pieces` come (a manifest over many
 * contributions): small pieces are gathered into larger ones; an answer that
 * fits in one is sent with its length.
 *
 * @example
 * ```ts
 * import { jsonPieces } from "./response.ts";
 * async function* pieces() { yield '{"ok":'; yield "true}"; }
 * await (await jsonPieces(pieces())).json(); // { ok: true }
 * ```
 */
export async function jsonPieces(pieces: AsyncIterable<string>): Promise<Response> {
  const iterator = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const gather = async (): Promise<{ text: string; done: boolean }> => {
    let text = "";
    while (text.length < STREAM_PIECE) {
      const next = await iterator.next();
      if (next.done) return { text, done: true };
      text += next.value;
    }
    return { text, done: false };
  };
  const first = await gather();
  if (first.done) return jsonText(first.text);
  let pending: { text: string; done: boolean } | null = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const piece = pending ?? await gather();
      pending = null;
      if (piece.text) controller.enqueue(encoder.encode(piece.text));
      if (piece.done) controller.close();
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, { status: 200, headers: JSON_HEADERS });
}
