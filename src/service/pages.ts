/**
 * A page of a version's records, as `GET /projects/{slug}/data` and MCP's
 * `read_dataset` give it: `{project, version, count, records, total, next}`,
 * `total` the records in the version and `next` the offset of the next page
 * (null after the last), built as JSON bytes around the page cache's.
 *
 * @module
 */
import { WIRE_LIMITS } from "../wire/mod.ts";
import type { NodeState } from "./state.ts";
import type { StoredVersion } from "../store/mod.ts";
import { requireVersion, withVersion } from "./versions.ts";

/** Largest page of `GET /data`. */
export const MAX_PAGE: number = WIRE_LIMITS.page.max;
/** Page size when `limit` is absent. */
export const DEFAULT_PAGE: number = WIRE_LIMITS.page.default;

/** Which page to read. */
export interface PageRequest {
  /** The version; the newest whole one when null. */
  version: number | null;
  /** Records in the page. */
  limit: number;
  /** Records skipped. */
  offset: number;
}

/**
 * The page of `slug` that `request` names, as the JSON bytes of the answer.
 */
export async function readPage(
  state: Pick<NodeState, "store" | "pages">,
  slug: string,
  request: PageRequest,
): Promise<Uint8Array<ArrayBuffer>> {
  const { limit, offset } = request;
  // From a bucket, the page reader leases the parts a page reads, not the whole version.
  const over = state.store.remote
    ? async <T>(fn: (v: StoredVersion) => Promise<T>) => await fn(await requireVersion(state, slug, request.version))
    : <T>(fn: (v: StoredVersion) => Promise<T>) => withVersion(state, slug, request.version, fn);
  return await over(async (version) => {
    // The counts come from the parts' footers, which the page needs first anyway (and keeps).
    const total = (await state.pages.partRecords(version)).reduce((a, n) => a + n, 0);
    const page = await state.pages.pageBytes(version, offset, limit, (count) => {
      const next = count > 0 && offset + count < total ? offset + count : null;
      return {
        head: `{"project":${JSON.stringify(slug)},"version":${version.version},"count":${count},"records":[`,
        tail: `],"total":${total},"next":${next}}`,
      };
    });
    return page.bytes;
  });
}
