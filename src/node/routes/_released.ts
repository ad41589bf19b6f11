/**
 * A streamed answer that lets go of what it holds (a leased version) once
 * its body has been read to the end, has failed, or was cancelled by a
 * client that went away.
 *
 * @module
 */
import { relay } from "../../http/mod.ts";

/**
 * `stream` passed through (`relay`: a byte stream's reads still go into the
 * server writer's own buffer), calling `release` once it ends, fails or has
 * stopped after a cancel (`release` may be called more than once: a
 * version's release is).
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
  return relay(stream, { settled: release });
}
