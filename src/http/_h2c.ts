/**
 * HTTP/2 with prior knowledge over cleartext is not served: a client that
 * opens with the HTTP/2 preface is told so in its own protocol, an empty
 * SETTINGS frame then GOAWAY with HTTP_1_1_REQUIRED (RFC 9113, 7), instead
 * of bytes it cannot parse.
 *
 * @module
 */

/** Error code HTTP_1_1_REQUIRED. */
const HTTP_1_1_REQUIRED = 0x0d;

function frame(type: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(9 + payload.length);
  out[0] = (payload.length >> 16) & 0xff;
  out[1] = (payload.length >> 8) & 0xff;
  out[2] = payload.length & 0xff;
  out[3] = type;
  out.set(payload, 9);
  return out;
}

/**
 * The bytes that refuse an HTTP/2 connection: SETTINGS (empty), then GOAWAY
 * (last stream 0, HTTP_1_1_REQUIRED, a reason for people).
 *
 * @example
 * ```ts
 * import { h2cRefusal } from "./_h2c.ts";
 * h2cRefusal()[3]; // 4, a SETTINGS frame
 * ```
 */
export function h2cRefusal(): Uint8Array {
  const reason = new TextEncoder().encode("this node speaks HTTP/1.1 only");
  const goaway = new Uint8Array(8 + reason.length);
  new DataView(goaway.buffer).setUint32(4, HTTP_1_1_REQUIRED);
  goaway.set(reason, 8);
  const settings = frame(0x4, new Uint8Array(0));
  const away = frame(0x7, goaway);
  const out = new Uint8Array(settings.length + away.length);
  out.set(settings);
  out.set(away, settings.length);
  return out;
}
