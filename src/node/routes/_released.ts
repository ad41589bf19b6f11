/**
 * A streamed answer that lets go of what it holds (a leased version) once
 * its body has been read to the end, has failed, or was cancelled by a
 * client that went away.
 *
 * @module
 */

/**
 * `stream` passed through, calling `release` once it ends, fails or is
 * cancelled (`release` may be called more than once: a version's release is).
 *
 * @example
 * ```ts
 * import { released } from "./_released.ts";
 * let done = false;
 * const body = released(new Response("abc").body!, () => (done = true));
 * await new Response(body).text(); // "abc"
 * console.log(done); // true
 * ```
 */
export function released(stream: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (e) {
        release();
        controller.error(e);
      }
    },
    async cancel(reason) {
      // Let go only once the source has stopped (a query under way finishes its chunk first).
      try {
        await reader.cancel(reason);
      } finally {
        release();
      }
    },
  }, { highWaterMark: 0 });
}
