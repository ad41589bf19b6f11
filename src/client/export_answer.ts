/**
 * An answer of `GET /projects/{slug}/export` read for what it holds: the
 * whole export (200), a range of it (206) or nothing past its end (416).
 *
 * @module
 */
import type { ExportAnswer } from "./types.ts";

const empty = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() });

/**
 * What `res` holds, its body unread (a 416's body is dropped).
 */
export async function exportAnswer(res: Response): Promise<ExportAnswer> {
  const filename = res.headers.get("content-disposition")?.match(/filename="([^"]+)"/)?.[1] ?? null;
  const etag = res.headers.get("etag");
  const contentRange = res.headers.get("content-range") ?? "";
  if (res.status === 416) {
    await res.body?.cancel();
    const whole = /^bytes \*\/(\d+)$/.exec(contentRange);
    const size = whole ? Number(whole[1]) : null;
    return { status: 416, filename, etag, offset: size ?? 0, size, body: empty() };
  }
  const range = res.status === 206 ? /^bytes (\d+)-\d+\/(\d+)$/.exec(contentRange) : null;
  const length = res.headers.get("content-length");
  return {
    status: res.status,
    filename,
    etag,
    offset: range ? Number(range[1]) : 0,
    size: range ? Number(range[2]) : length !== null && /^\d+$/.test(length) ? Number(length) : null,
    body: res.body ?? empty(),
  };
}
