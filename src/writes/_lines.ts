/**
 * Text lines of a stream of UTF-8 bytes cut anywhere: a line or a character
 * that spans two chunks comes out whole.
 *
 * @module
 */

/**
 * The lines of `chunks` (UTF-8, lines ended by `\n`), the last one given
 * even without its end; chunks may end inside a line or a character.
 *
 * @example
 * ```ts
 * import { linesOf } from "./_lines.ts";
 * const bytes = new TextEncoder().encode('{"a":"é"}\n{"b":2}\n');
 * async function* cut() { yield bytes.subarray(0, 8); yield bytes.subarray(8); }
 * const lines = await Array.fromAsync(linesOf(cut())); // ['{"a":"é"}', '{"b":2}']
 * ```
 */
export async function* linesOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of chunks) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = lines.pop()!;
    yield* lines;
  }
  rest += decoder.decode();
  if (rest !== "") yield rest;
}
