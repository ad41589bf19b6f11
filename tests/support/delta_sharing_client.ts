/**
 * A Delta Sharing client written from delta-io/delta-sharing's PROTOCOL.md
 * alone (not from the node's code), for tests: it loads a profile, walks
 * every page of a listing, reads the NDJSON answers line by line and checks
 * each line holds exactly one of the wrapper's fields.
 *
 * @module
 */

/** A profile file's fields. */
export interface Profile {
  shareCredentialsVersion: number;
  endpoint: string;
  bearerToken?: string;
  expirationTime?: string;
}

/** An answer that was not 2xx: the protocol's error body. */
export class SharingClientError extends Error {
  constructor(readonly status: number, readonly errorCode: string, message: string) {
    super(`${status} ${errorCode}: ${message}`);
  }
}

/** The lines of a metadata or query answer, sorted by kind. */
export interface TableAnswer {
  /** The `delta-table-version` header. */
  version: number;
  /** The `delta-sharing-capabilities` header of the answer, if any. */
  capabilities: string | null;
  protocol: Record<string, unknown>;
  metaData: Record<string, unknown>;
  files: Record<string, unknown>[];
  endStreamAction: Record<string, unknown> | null;
}

type Json = Record<string, unknown>;

/** A client of one profile. */
export class DeltaSharingClient {
  constructor(readonly profile: Profile) {}

  #url(path: string, query: Record<string, string | number | undefined> = {}): string {
    const base = this.profile.endpoint.replace(/\/+$/, "");
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    return `${base}${path}${qs ? `?${qs}` : ""}`;
  }

  async #fetch(method: string, url: string, body?: unknown, capabilities?: string): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.profile.bearerToken) headers.authorization = `Bearer ${this.profile.bearerToken}`;
    if (body !== undefined) headers["content-type"] = "application/json; charset=utf-8";
    if (capabilities) headers["delta-sharing-capabilities"] = capabilities;
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) {
      const text = await res.text();
      let parsed: Json = {};
      try {
        parsed = JSON.parse(text);
      } catch { /* not JSON: reported below */ }
      if (typeof parsed.errorCode !== "string" || typeof parsed.message !== "string") {
        throw new Error(`${res.status} without the protocol's error body: ${text.slice(0, 200)}`);
      }
      throw new SharingClientError(res.status, parsed.errorCode, parsed.message);
    }
    return res;
  }

  async #json(path: string, query: Record<string, string | number | undefined> = {}): Promise<Json> {
    const res = await this.#fetch("GET", this.#url(path, query));
    if (!/^application\/json/.test(res.headers.get("content-type") ?? "")) throw new Error("listing is not JSON");
    return await res.json();
  }

  /** One page of a listing. */
  async page(path: string, maxResults?: number, pageToken?: string): Promise<{ items: Json[]; next: string | null }> {
    const body = await this.#json(path, { maxResults, pageToken });
    const items = (body.items ?? []) as Json[];
    const next = typeof body.nextPageToken === "string" && body.nextPageToken !== "" ? body.nextPageToken : null;
    return { items, next };
  }

  /** Every item of a listing, following nextPageToken. */
  async all(path: string, maxResults?: number): Promise<Json[]> {
    const out: Json[] = [];
    let token: string | undefined;
    for (let i = 0; i < 10_000; i++) {
      const { items, next } = await this.page(path, maxResults, token);
      out.push(...items);
      if (next === null) return out;
      token = next;
    }
    throw new Error("listing never ends");
  }

  listShares(max?: number): Promise<Json[]> {
    return this.all("/shares", max);
  }
  async getShare(share: string): Promise<Json> {
    return (await this.#json(`/shares/${encodeURIComponent(share)}`)).share as Json;
  }
  listSchemas(share: string, max?: number): Promise<Json[]> {
    return this.all(`/shares/${encodeURIComponent(share)}/schemas`, max);
  }
  listTables(share: string, schema: string, max?: number): Promise<Json[]> {
    return this.all(`/shares/${encodeURIComponent(share)}/schemas/${encodeURIComponent(schema)}/tables`, max);
  }
  listAllTables(share: string, max?: number): Promise<Json[]> {
    return this.all(`/shares/${encodeURIComponent(share)}/all-tables`, max);
  }

  #table(share: string, schema: string, table: string): string {
    return `/shares/${encodeURIComponent(share)}/schemas/${encodeURIComponent(schema)}/tables/${
      encodeURIComponent(table)
    }`;
  }

  /** `GET .../version` (or the deprecated HEAD on the table). */
  async tableVersion(
    share: string,
    schema: string,
    table: string,
    startingTimestamp?: string,
    head = false,
  ): Promise<number> {
    const path = this.#table(share, schema, table) + (head ? "" : "/version");
    const res = await this.#fetch(head ? "HEAD" : "GET", this.#url(path, { startingTimestamp }));
    await res.body?.cancel();
    const v = res.headers.get("delta-table-version");
    if (v === null || !/^\d+$/.test(v)) throw new Error(`no delta-table-version header: ${v}`);
    return Number(v);
  }

  async #ndjson(res: Response): Promise<TableAnswer> {
    if (!/^application\/x-ndjson/.test(res.headers.get("content-type") ?? "")) throw new Error("answer is not NDJSON");
    const text = await res.text();
    if (!text.endsWith("\n")) throw new Error("NDJSON answer does not end its last line");
    const answer: TableAnswer = {
      version: Number(res.headers.get("delta-table-version")),
      capabilities: res.headers.get("delta-sharing-capabilities"),
      protocol: {},
      metaData: {},
      files: [],
      endStreamAction: null,
    };
    for (const line of text.slice(0, -1).split("\n")) {
      const wrapper = JSON.parse(line) as Json;
      const keys = Object.keys(wrapper);
      if (keys.length !== 1) throw new Error(`a line must hold exactly one action: ${line.slice(0, 200)}`);
      const [key] = keys;
      if (key === "protocol") answer.protocol = wrapper.protocol as Json;
      else if (key === "metaData") answer.metaData = wrapper.metaData as Json;
      else if (key === "file" || key === "add" || key === "cdf" || key === "remove") {
        answer.files.push({ kind: key, ...(wrapper[key] as Json) });
      } else if (key === "endStreamAction") answer.endStreamAction = wrapper.endStreamAction as Json;
      else throw new Error(`unknown action ${key}`);
    }
    return answer;
  }

  async metadata(share: string, schema: string, table: string, capabilities?: string): Promise<TableAnswer> {
    const res = await this.#fetch(
      "GET",
      this.#url(this.#table(share, schema, table) + "/metadata"),
      undefined,
      capabilities,
    );
    return await this.#ndjson(res);
  }

  async query(
    share: string,
    schema: string,
    table: string,
    body: Json = {},
    capabilities?: string,
  ): Promise<TableAnswer> {
    const res = await this.#fetch("POST", this.#url(this.#table(share, schema, table) + "/query"), body, capabilities);
    return await this.#ndjson(res);
  }

  /** Raw request, for hostile cases. */
  raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Response> {
    const all: Record<string, string> = { ...headers };
    if (this.profile.bearerToken) all.authorization ??= `Bearer ${this.profile.bearerToken}`;
    return fetch(this.#url(path), { method, headers: all, body });
  }
}
