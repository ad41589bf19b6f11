/**
 * The client of a node or the origin: typed methods for the node's
 * operations (and `call` for any operation of the catalog), configured by
 * options or the `SVC_*` environment, with the transport rules
 * of `http.ts` (retries where safe, errors by status, deprecation warnings).
 * It only talks HTTP: what moves versions into or out of a store on disk
 * (pull, save, load, a local query) is `src/local/`, which takes a client.
 *
 * @module
 */
import {
  type DataPage,
  listedLicense,
  type Manifest,
  ORIGIN_LICENSES,
  type ProjectDetail,
  type ProjectEntry,
  WIRE_LIMITS,
} from "../wire/mod.ts";
import { type AnswerOf, CATALOG, type InputOf, type OperationName } from "../catalog/mod.ts";
import { callOperation } from "./operation_call.ts";
import {
  contribute,
  type ContributeOptions,
  contribution,
  type ContributionAnswer,
  waitForContribution,
} from "./contributions.ts";
import { KeyRequiredError, SvcError, ValueError } from "./errors.ts";
import { exportAnswer } from "./export_answer.ts";
import { callJson, callStream, type Endpoint } from "./http.ts";
import type { CallContext } from "./context.ts";
import type { SvcDeprecationWarning } from "./deprecation.ts";
import type { ExportAnswer, ExportFileOptions, ExportFileResult, QueryAnswer } from "./types.ts";

export type { QueryAnswer } from "./types.ts";
export type { ContributeOptions, ContributionAnswer } from "./contributions.ts";
export { listedLicense, ORIGIN_LICENSES } from "../wire/mod.ts";

/** The local node, where a client goes when nothing names another base URL. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8686";

/** How to build a {@linkcode Client}. */
export interface ClientOptions {
  /** Base URL of the origin or a node (default `SVC_BASE_URL`, else the local node). */
  baseUrl?: string;
  /** Agent key or node token (default `SVC_API_KEY`). */
  apiKey?: string | null;
  /** Milliseconds before one attempt is given up (default 60,000). */
  timeout?: number;
  /** Retries of calls that are safe to repeat (default 2). */
  retries?: number;
  /** Where deprecation warnings go (default `console.warn`). */
  onWarning?: (warning: SvcDeprecationWarning) => void;
  /** The environment to read `SVC_*` from (default: none; pass `process.env` or `Deno.env.toObject()`). */
  env?: Record<string, string | undefined>;
  /**
   * Whether calls that need an agent key on the origin refuse to go without
   * one (default true). Turn off only to talk to a node known to have no token.
   */
  requireKey?: boolean;
}

/** Most part digests one manifest request may list in `have` (the origin's limit). */
export const MAX_HAVE: number = WIRE_LIMITS.have;

/** The `have` of a manifest request (checked: at most {@linkcode MAX_HAVE} digests), or undefined for none. */
function haveQuery(have: readonly string[]): string | undefined {
  if (have.length === 0) return undefined;
  if (have.length > MAX_HAVE) {
    throw new ValueError(`have lists at most ${MAX_HAVE} part digests (the origin's limit), not ${have.length}`);
  }
  const bad = have.find((sha) => !/^[0-9a-f]{64}$/.test(sha));
  if (bad !== undefined) {
    throw new ValueError(`have lists part SHA-256 digests (64 hex digits), not ${JSON.stringify(bad)}`);
  }
  return have.join(",");
}

function search(params: Record<string, number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : "";
}

/**
 * A client of one base URL.
 *
 * @example
 * ```ts
 * import { Client } from "./client.ts";
 * import { serveNode } from "../node/mod.ts";
 *
 * const serving = await serveNode({ store: await Deno.makeTempDir(), host: "127.0.0.1", port: 0, token: "local" });
 * const client = new Client({ baseUrl: serving.url, apiKey: "local" });
 * await client.create({
 *   slug: "cities",
 *   title: "Cities",
 *   readme: "Cities of the world, one per record.",
 *   schemaDef: { fields: [{ name: "name", type: "string" }, { name: "population", type: "integer" }] },
 * });
 * console.log((await client.projects()).map((p) => p.slug)); // ["cities"]
 * await serving.shutdown();
 * ```
 */
export class Client {
  /** The base URL calls go to. */
  readonly baseUrl: string;
  readonly #endpoint: Endpoint;
  /** The node probe's answer, once one came (null while none has: an unreachable base URL is asked again). */
  #isNode: Promise<boolean | null> | null = null;
  readonly #requireKey: boolean;
  /** What the call areas share with this client. */
  readonly #context: CallContext;

  /**
   * A client configured by `options`, or by the `SVC_*` variables of `options.env`.
   *
   * @example
   * ```ts
   * import { Client } from "./client.ts";
   *
   * const client = new Client({ env: { SVC_BASE_URL: "http://127.0.0.1:8686/", SVC_API_KEY: "key" } });
   * console.log(client.baseUrl); // "http://127.0.0.1:8686"
   * ```
   */
  constructor(options: ClientOptions = {}) {
    const env = options.env ?? {};
    this.baseUrl = (options.baseUrl ?? env.SVC_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    try {
      const url = new URL(this.baseUrl);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    } catch {
      throw new ValueError(`baseUrl must be an http(s) URL, not ${JSON.stringify(this.baseUrl)}`);
    }
    this.#requireKey = options.requireKey ?? true;
    this.#endpoint = {
      baseUrl: this.baseUrl,
      apiKey: options.apiKey ?? (env.SVC_API_KEY || null),
      timeoutMs: options.timeout,
      retries: options.retries,
      onWarning: options.onWarning,
    };
    this.#context = {
      endpoint: this.#endpoint,
      env,
      requireKey: this.#requireKey,
      needKey: (call) => this.#needKey(call),
      isNode: () => this.isNode(),
    };
  }

  /**
   * Refuses `call` before sending when it needs an agent key and there is
   * none (origin-wire 1.3), unless the base URL is a node without a token,
   * which takes it keyless. A base URL that does not answer the probe is
   * not refused here: the call itself then says that it cannot be reached.
   */
  /**
   * What the calls of this client share (the endpoint, the environment, the
   * key check and the node probe), for the areas a client built on this one
   * adds (the origin's, `@svc/origin`).
   */
  protected get callContext(): CallContext {
    return this.#context;
  }

  async #needKey(call: string): Promise<void> {
    if (this.#endpoint.apiKey || !this.#requireKey) return;
    if ((await this.#probe()) === false) throw new KeyRequiredError(call);
  }

  /**
   * What every call that needs an agent key does before sending (origin-wire
   * 1.3): refuses `call` with a {@linkcode KeyRequiredError} when there is no
   * key and the base URL is not a node without a token (asked once per
   * client, `GET /healthz`); for commands that send on their own.
   *
   * @example
   * ```ts ignore
   * import { Client } from "./client.ts";
   * await new Client({ baseUrl: "http://127.0.0.1:8686" }).checkKey("contribute");
   * ```
   */
  checkKey(call: string): Promise<void> {
    return this.#needKey(call);
  }

  /** Whether the base URL says it is a node: true, false, or null when it did not answer (asked again next time). */
  #probe(): Promise<boolean | null> {
    this.#isNode ??= callJson(this.#endpoint, "GET", "/healthz", null, {}, { route: "GET /healthz" }).then(
      ({ body }) => (body as { node?: unknown } | null)?.node === true,
      (e) => {
        if (!(e instanceof SvcError) || e.status !== null) return false;
        this.#isNode = null;
        return null;
      },
    );
    return this.#isNode;
  }

  /**
   * Calls operation `name` of the catalog with `input` (its path's
   * parameters and its fields; those left out are not sent) and resolves
   * with its answer. Every operation of a node is reachable so, those
   * without a method of their own too.
   *
   * @example
   * ```ts ignore
   * import { Client } from "./client.ts";
   * const detail = await new Client().call("project_detail", { slug: "cities" });
   * ```
   */
  async call<N extends OperationName>(name: N, input: InputOf<N>): Promise<AnswerOf<N>> {
    return await callOperation(this.#endpoint, CATALOG[name], input as Record<string, unknown>) as AnswerOf<N>;
  }

  /** Projects on the node or the origin. */
  async projects(): Promise<ProjectEntry[]> {
    return (await this.call("list_projects", {})).projects;
  }

  /** One project's detail. */
  project(slug: string): Promise<ProjectDetail> {
    return this.call("project_detail", { slug });
  }

  /**
   * A page of records. Public (the origin's since 0.28.0, a node's unless it
   * has a token): the key goes along when there is one. With
   * `exactIntegers`, integers beyond 2^53 come as `bigint` instead of
   * rounded numbers.
   */
  async data(
    slug: string,
    page: { version?: number; limit?: number; offset?: number; exactIntegers?: boolean } = {},
  ): Promise<DataPage> {
    const { exactIntegers, ...query } = page;
    return await callOperation(this.#endpoint, CATALOG.read_page, { slug, ...query }, { exactIntegers }) as DataPage;
  }

  /**
   * Every record of a version, page by page (`pageSize` up to 1000); with
   * `exactIntegers`, integers beyond 2^53 come as `bigint`.
   */
  async *records(
    slug: string,
    options: { version?: number; pageSize?: number; exactIntegers?: boolean } = {},
  ): AsyncGenerator<Record<string, unknown>> {
    const limit = options.pageSize ?? 1000;
    let version = options.version;
    for (let offset = 0;; offset += limit) {
      const page = await this.data(slug, { version, limit, offset, exactIntegers: options.exactIntegers });
      version = page.version;
      yield* page.records;
      if (page.count < limit) return;
    }
  }

  /**
   * A version's manifest (the newest whole one without `version`), integers
   * beyond 2^53 kept exact (as `bigint`): the signature covers their digits.
   * Parts whose SHA-256 is listed in `options.have` (at most
   * {@linkcode MAX_HAVE}: the origin's limit) come without a URL, and the
   * origin counts no egress for them.
   */
  async manifest(slug: string, version?: number, options: { have?: readonly string[] } = {}): Promise<Manifest> {
    const have = haveQuery(options.have ?? []);
    await this.#needKey("manifest");
    const input = { slug, version, have };
    return await callOperation(this.#endpoint, CATALOG.manifest, input, { exactIntegers: true }) as Manifest;
  }

  /** One read-only SQL statement over a version (table `records`). */
  async query(slug: string, sql: string, options: { version?: number; limit?: number } = {}): Promise<QueryAnswer> {
    await this.#needKey("query");
    const characters = [...sql].length;
    if (characters < 1 || characters > WIRE_LIMITS.sqlChars) {
      throw new ValueError(`sql must be a statement of 1-${WIRE_LIMITS.sqlChars} characters`);
    }
    const input = { slug, sql, version: options.version, limit: options.limit };
    return await callOperation(this.#endpoint, CATALOG.query, input, { retry: true }) as QueryAnswer;
  }

  /**
   * Whether the base URL is a node (its `/healthz` says `"node": true`),
   * asked once per client (again only while it has not answered). A node
   * with a token says so only to a client that sends the token.
   */
  async isNode(): Promise<boolean> {
    return (await this.#probe()) === true;
  }

  /**
   * A project: a local project on a node, or a project on the origin, whose
   * license must be one of {@linkcode ORIGIN_LICENSES} (any letter case, sent
   * as listed), checked before sending.
   */
  async create(project: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.#needKey("create");
    if (project.license !== undefined && !(await this.isNode())) {
      const listed = listedLicense(String(project.license));
      if (!listed) throw new ValueError(`license must be one of ${ORIGIN_LICENSES.join(", ")} on the origin`);
      project = { ...project, license: listed };
    }
    return (await callJson(this.#endpoint, "POST", "/projects", JSON.stringify(project), {}, {
      route: "POST /projects",
    })).body as Record<string, unknown>;
  }

  /**
   * Sends 1 to 500 records. With an `idempotencyKey` the call is safe to
   * repeat, so it is retried on transient failures. The origin screens
   * contributions asynchronously: with `wait` (true, or milliseconds; true
   * waits up to 900 s) the answer is polled until it is final.
   */
  contribute(
    slug: string,
    records: Record<string, unknown>[],
    options: ContributeOptions = {},
  ): Promise<ContributionAnswer & { replayed: boolean }> {
    return contribute(this.#context, slug, records, options);
  }

  /** Polls a contribution until it is `merged` or `rejected`; fails once `timeoutMs` passed (default 900 s). */
  waitForContribution(
    slug: string,
    id: string,
    options: { timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<ContributionAnswer> {
    return waitForContribution(this.#context, slug, id, options);
  }

  /**
   * Every record of a version as gzip-compressed JSON lines, streamed (the
   * timeout covers the wait for the answer's headers only). A node's route:
   * the key goes along when there is one, and a node with a token asks for it. With `from`, only
   * the bytes from `from.offset` on are asked for, and only while the export
   * is still the one tagged `from.etag` (`Range` with `If-Range`); the
   * answer's `status` and `offset` say what came (a node that cannot serve a
   * range sends the whole export, 200).
   */
  async export(
    slug: string,
    options: { version?: number; from?: { offset: number; etag: string } } = {},
  ): Promise<ExportAnswer> {
    const from = options.from;
    const res = await callStream(
      this.#endpoint,
      `/projects/${encodeURIComponent(slug)}/export${search({ version: options.version })}`,
      {
        route: "GET /projects/{slug}/export",
        headers: from ? { range: `bytes=${from.offset}-`, "if-range": from.etag } : {},
        pass: [416],
      },
    );
    return await exportAnswer(res);
  }

  /**
   * Downloads a version's export to a file (see `export_file.ts`): into
   * `<file>.part` first, resumed from there after a cut when the node still
   * serves the same export, checked to be whole gzip before it gets its name.
   */
  async exportFile(slug: string, options: ExportFileOptions = {}): Promise<ExportFileResult> {
    const { exportFile } = await import("./export_file.ts");
    return await exportFile(this, slug, options);
  }

  /** A contribution's answer. */
  contribution(slug: string, id: string): Promise<ContributionAnswer> {
    return contribution(this.#context, slug, id);
  }
}
