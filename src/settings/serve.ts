/**
 * The flags of `svc serve`, parsed and checked before anything starts.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { isLoopback } from "../http/mod.ts";
import { DEFAULT_STORE } from "../store/mod.ts";
import { defaultSqlMemory, formatBytes } from "../sql/mod.ts";
import { isSlug, notASlug } from "../wire/mod.ts";
import { nodeMemoryPlan } from "./memory.ts";
import type { MemoryPlan } from "../wire/mod.ts";
import { usageFrom } from "./usage.ts";
import { verifyRequired } from "./verify.ts";
import { sandboxOff, switchedOff } from "./sandbox.ts";
import { CliError, UsageError } from "../errors/mod.ts";
import { SERVE_OPTIONS } from "../launch/mod.ts";
import { checkObjectStore, type ObjectStoreSettings, objectStoreSettings } from "./object_store.ts";
import { allowHostsOf, exportCacheBytes, hostOk, intIn, pageCacheBytes, sqlMemory } from "./_serve_values.ts";

/** The default port of a node. */
export const DEFAULT_PORT = 8686;
/** The default seconds between follow syncs. */
export const DEFAULT_INTERVAL = 600;
/** The default cap on connections served at once. */
export const DEFAULT_MAX_CONNECTIONS = 64;
/** The shortest token a node bound beyond loopback takes. */
export const MIN_EXPOSED_TOKEN = 16;

/** `svc serve`'s settings. */
export interface ServeSettings {
  /** Store directory, or `s3://bucket/prefix`. */
  store: string;
  /** The store's bucket and the local part cache, when the store is in an object store. */
  objectStore: ObjectStoreSettings | null;
  /** Address to bind. */
  host: string;
  /** Port to bind. */
  port: number;
  /** Node token, or null. */
  token: string | null;
  /** Refuse every write. */
  readOnly: boolean;
  /** No request log. */
  quiet: boolean;
  /** Host names answered besides the node's own address. */
  allowHosts: string[];
  /** Connections served at once. */
  maxConnections: number;
  /** Hard memory ceiling of each SQL worker, in bytes. */
  sqlMemory: number;
  /** Versions kept per project, or null for all. */
  keepVersions: number | null;
  /** Bytes of finished exports kept. */
  exportCache: number;
  /** The memory budget and its shares (`--memory`), the page cache's (`--page-cache`) among them. */
  memory: MemoryPlan;
  /** The Delta Sharing share's name. */
  shareName: string;
  /** Projects to follow. */
  follow: string[];
  /** Seconds between follow syncs. */
  interval: number;
  /** Accept only signed versions when following. */
  verify: boolean;
  /** Node to follow instead of the origin. */
  upstream: string | null;
  /** The upstream node's token. */
  upstreamToken: string | null;
  /** The origin (`--base-url`, `SVC_BASE_URL`): where following goes without `--upstream`, and whose keys sign. */
  baseUrl: string | null;
  /** The agent key for the origin (`--api-key`, `SVC_API_KEY`); never sent upstream. */
  apiKey: string | null;
  /** Longest a followed project may go without a good sync before `/readyz` says not ready, in ms (null: no limit). */
  readyMaxLagMs: number | null;
  /** Whether `GET /metrics` answers (`--no-metrics`, `SVC_METRICS=off` turn it off). */
  metrics: boolean;
  /** Whether the node narrows its Deno permissions (`--no-sandbox`, `SVC_SANDBOX=off` turn it off). */
  sandbox: boolean;
  /** Whether the node says where it serves as one JSON line on stdout (`--json`). */
  json: boolean;
  /** Whether `--help` was asked. */
  help: boolean;
}

/** The help text of `svc serve`. */
export const SERVE_HELP = `Usage: svc serve [options]

Serve a store over HTTP: the read API, on the same paths as the origin.

Options:
  --store DIR             store directory (default: ${DEFAULT_STORE}), or
                          s3://bucket/prefix: a store in an S3-compatible
                          bucket, reached with AWS_ACCESS_KEY_ID,
                          AWS_SECRET_ACCESS_KEY (AWS_SESSION_TOKEN), served
                          --read-only or written by --follow only
  --s3-endpoint URL       the object store's endpoint (default:
                          AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS's)
  --s3-region REGION      its region (default: AWS_REGION,
                          AWS_DEFAULT_REGION, else us-east-1)
  --part-cache SIZE       with an s3:// store, the most bytes of parts kept
                          on local disk for reading (default: 2GiB; env
                          SVC_NODE_PART_CACHE)
  --cache-dir DIR         with an s3:// store, the folder they are kept in
                          (default: svc-cache; env SVC_NODE_CACHE_DIR)
  --host ADDR             address to bind (default: 127.0.0.1); anything but
                          loopback needs a --token of ${MIN_EXPOSED_TOKEN}+ characters
  --port N                port (default: ${DEFAULT_PORT})
  --token TOKEN           require Authorization: Bearer TOKEN
                          (default: env SVC_NODE_TOKEN)
  --read-only             refuse every write
  --quiet                 no request log
  --allow-host NAME[:PORT]
                          a node without a token also answers requests for
                          Host NAME (any port, or PORT only), as when it is
                          reached through a proxy or a remapped port
                          (repeatable; env SVC_ALLOWED_HOSTS, separated by
                          spaces or commas); a node with a token answers any
                          Host, and without the token only what is public
  --share-name NAME       the name of the Delta Sharing share the node's
                          projects are tables of, under /delta-sharing
                          (default: svc; env SVC_SHARE_NAME)
  --keep-versions N       keep the newest N versions of every project, local
                          and followed; older ones and the parts only they
                          list are deleted (env SVC_NODE_KEEP_VERSIONS;
                          default: keep all)
  --export-cache SIZE     bytes of finished exports kept for the next
                          download, least recently used dropped first
                          (default: 1GiB; 0: none; a --read-only node keeps
                          none; env SVC_NODE_EXPORT_CACHE)
  --memory SIZE           the memory budget of the node and its SQL
                          workers together, e.g. 512MiB; the page cache,
                          DuckDB's and the workers' limits are carved from
                          it (default: three quarters of the container's
                          memory limit when one is set, else a quarter of
                          this machine's memory; at least 256MiB; env
                          SVC_NODE_MEMORY)
  --page-cache SIZE       bytes of decoded row groups kept in memory for
                          data pages (default: the budget's share, at most
                          256 MiB; 0: none; env SVC_NODE_PAGE_CACHE)
  --sql-memory SIZE       hard memory ceiling of each of the two SQL workers,
                          e.g. 2GiB (default: a quarter of this machine's
                          memory within 1-4 GiB: ${formatBytes(defaultSqlMemory())};
                          env SVC_NODE_SQL_MEMORY)
  --max-connections N     connections served at once; the next one is
                          answered 503 (default: ${DEFAULT_MAX_CONNECTIONS}; env
                          SVC_NODE_MAX_CONNECTIONS)
  --follow SLUG ...       keep these projects current from the origin (env
                          SVC_FOLLOW, space separated); needs an agent key
  --interval SECONDS      seconds between follow syncs (default: ${DEFAULT_INTERVAL};
                          env SVC_FOLLOW_INTERVAL)
  --verify                with --follow, take only versions signed by a
                          key pinned for the origin (svc trust add; env
                          SVC_VERIFY=1)
  --upstream URL          follow from this node instead of the origin; the
                          agent key is never sent there (env SVC_UPSTREAM)
  --upstream-token TOKEN  the upstream node's token (env SVC_UPSTREAM_TOKEN)
  --ready-max-lag AGE     with --follow, GET /readyz says not ready when a
                          project's last good sync is older than AGE (90s,
                          15m, 2h; env SVC_READY_MAX_LAG; default: no limit,
                          so an upstream outage leaves readers serving)
  --no-metrics            GET /metrics answers 404 (env SVC_METRICS=off)
  --no-sandbox            under Deno, keep the permissions svc was started
                          with instead of running the node under only what
                          it needs (env SVC_SANDBOX=off)
  --base-url URL          the origin (default: SVC_BASE_URL)
  --api-key KEY           the agent key for the origin (default: SVC_API_KEY)
  --json                  once serving, print one JSON line on stdout: url,
                          mcp, store, auth, readOnly, follow, from,
                          interval, sandbox (the log stays on stderr)
  -h, --help              show this help
`;

/**
 * Parses and checks `svc serve` arguments. `env` supplies `SVC_NODE_TOKEN`
 * and `SVC_ALLOWED_HOSTS`.
 *
 * @example
 * ```ts
 * import { parseServeArgs } from "./serve.ts";
 * parseServeArgs(["--port", "9000"], {}).port; // 9000
 * ```
 */
export function parseServeArgs(args: string[], env: Record<string, string | undefined>): ServeSettings {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, tokens: true, options: SERVE_OPTIONS });
  } catch (e) {
    throw usageFrom(e, "serve", SERVE_OPTIONS);
  }
  const { values, tokens } = parsed;
  const follow = followOf(values.follow, tokens ?? [], env);
  const host = values.host ?? "127.0.0.1";
  if (!hostOk(host)) throw new UsageError(`--host must be an IP address or host name, not ${JSON.stringify(host)}`);
  const token = values.token ?? (env.SVC_NODE_TOKEN || null);
  if (token !== null && !/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError("the node token must be printable ASCII without spaces");
  }
  for (const slug of follow) {
    if (!isSlug(slug)) throw new UsageError(`--follow: ${notASlug(slug)}`);
  }
  const upstream = upstreamOf(values.upstream, values["upstream-token"], env);
  const verify = verifyRequired(values.verify, env);
  if (values.verify && follow.length === 0) throw new UsageError("--verify needs --follow");
  if (values.interval !== undefined && follow.length === 0) throw new UsageError("--interval needs --follow");
  const interval = values.interval ?? (env.SVC_FOLLOW_INTERVAL || undefined);
  const keep = values["keep-versions"] ?? (env.SVC_NODE_KEEP_VERSIONS || undefined);
  if (upstream !== null && follow.length === 0) throw new UsageError("--upstream needs --follow");
  if (values["ready-max-lag"] !== undefined && follow.length === 0) {
    throw new UsageError("--ready-max-lag needs --follow");
  }
  const lag = values["ready-max-lag"] ?? (env.SVC_READY_MAX_LAG || undefined);
  const sqlCeiling = sqlMemory(values["sql-memory"] ?? (env.SVC_NODE_SQL_MEMORY || null));
  const memory = nodeMemoryPlan(values.memory ?? (env.SVC_NODE_MEMORY || null), env, {
    pageCache: pageCacheBytes(values["page-cache"] ?? (env.SVC_NODE_PAGE_CACHE || null)),
    sqlCeiling,
  });
  return {
    store: values.store ?? DEFAULT_STORE,
    objectStore: objectStoreSettings(values, env),
    host,
    port: values.port === undefined ? DEFAULT_PORT : intIn("port", values.port, 0, 65535),
    token,
    readOnly: values["read-only"] ?? false,
    quiet: values.quiet ?? false,
    allowHosts: allowHostsOf(values["allow-host"], env),
    maxConnections: intIn(
      "max-connections",
      values["max-connections"] ?? (env.SVC_NODE_MAX_CONNECTIONS || String(DEFAULT_MAX_CONNECTIONS)),
      1,
      100_000,
    ),
    sqlMemory: sqlCeiling,
    memory,
    keepVersions: keep === undefined ? null : intIn("keep-versions", keep, 1, 1_000_000_000),
    exportCache: exportCacheBytes(values["export-cache"] ?? (env.SVC_NODE_EXPORT_CACHE || null)),
    shareName: shareNameOf(values["share-name"] ?? (env.SVC_SHARE_NAME || "svc")),
    follow,
    interval: interval === undefined ? DEFAULT_INTERVAL : intIn("interval", interval, 1, 31_536_000),
    verify: verify && follow.length > 0,
    upstream,
    upstreamToken: values["upstream-token"] ?? (upstream === null ? null : env.SVC_UPSTREAM_TOKEN || null),
    baseUrl: values["base-url"] ?? (env.SVC_BASE_URL || null),
    apiKey: values["api-key"] ?? (env.SVC_API_KEY || null),
    readyMaxLagMs: lag === undefined || follow.length === 0 ? null : ageMs("ready-max-lag", lag),
    metrics: !(values["no-metrics"] ?? false) && !switchedOff("SVC_METRICS", env.SVC_METRICS),
    sandbox: !(values["no-sandbox"] ?? false) && !sandboxOff(env.SVC_SANDBOX),
    json: values.json ?? false,
    help: values.help ?? false,
  };
}

/**
 * An age such as `90s`, `15m`, `2h` or `1d` (a bare number is seconds), in
 * milliseconds; at least a second.
 *
 * @example
 * ```ts
 * import { ageMs } from "./serve.ts";
 * ageMs("ready-max-lag", "15m"); // 900000
 * ```
 */
export function ageMs(name: string, raw: string): number {
  const found = /^(\d{1,9})(s|m|h|d)?$/.exec(raw.trim());
  const unit = { s: 1, m: 60, h: 3600, d: 86_400 }[found?.[2] ?? "s"] ?? 1;
  if (!found || Number(found[1]) === 0) {
    throw new UsageError(`--${name} must be an age such as 90s, 15m or 2h, not ${JSON.stringify(raw)}`);
  }
  return Number(found[1]) * unit * 1000;
}

function shareNameOf(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name)) {
    throw new UsageError(
      `--share-name is 1 to 64 letters, digits, "_" or "-", starting with a letter or digit: ${name}`,
    );
  }
  return name;
}

/**
 * The slugs to follow: `--follow` values, and the words after a `--follow`
 * (`--follow a b`), else `SVC_FOLLOW`; any other word is a usage error.
 */
function followOf(
  flags: string[] | undefined,
  tokens: { kind: string; name?: string; value?: string }[],
  env: Record<string, string | undefined>,
): string[] {
  const follow = [...(flags ?? [])];
  if (follow.length === 0 && !flags) follow.push(...(env.SVC_FOLLOW ?? "").split(/\s+/).filter((x) => x));
  let last = "";
  for (const t of tokens) {
    if (t.kind === "option") last = t.name!;
    else if (t.kind === "positional" && last === "follow") follow.push(t.value!);
    else if (t.kind === "positional") throw new UsageError(`svc serve takes no argument ${JSON.stringify(t.value)}`);
  }
  return follow;
}

/** The upstream node to follow (`--upstream` or `SVC_UPSTREAM`), an http(s) URL, or null. */
function upstreamOf(
  flag: string | undefined,
  tokenFlag: string | undefined,
  env: Record<string, string | undefined>,
): string | null {
  const upstream = flag ?? (env.SVC_UPSTREAM || null);
  if (upstream !== null) {
    let url: URL | null = null;
    try {
      url = new URL(upstream);
    } catch { /* refused below */ }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new UsageError(`--upstream must be an http(s) URL, not ${JSON.stringify(upstream)}`);
    }
  }
  if (tokenFlag !== undefined && upstream === null) throw new UsageError("--upstream-token needs --upstream");
  return upstream;
}

/**
 * Refuses settings the node cannot run with: a non-loopback address without
 * a token of at least 16 characters, and following without the origin or a key.
 *
 * @example
 * ```ts
 * import { checkServeSettings, parseServeArgs } from "./serve.ts";
 * checkServeSettings(parseServeArgs([], {}));
 * ```
 */
export function checkServeSettings(s: ServeSettings): void {
  if (!isLoopback(s.host) && s.token === null) {
    throw new CliError(
      `refusing to listen on ${s.host} without a token: anything but loopback needs --token or SVC_NODE_TOKEN`,
    );
  }
  if (!isLoopback(s.host) && s.token !== null && s.token.length < MIN_EXPOSED_TOKEN) {
    throw new CliError(
      `refusing to listen on ${s.host} with a token of ${s.token.length} characters: ` +
        `beyond loopback the token must have at least ${MIN_EXPOSED_TOKEN}`,
    );
  }
  if (s.follow.length > 0 && s.baseUrl === null) {
    throw new CliError("following needs the origin: --base-url or SVC_BASE_URL");
  }
  if (s.follow.length > 0 && s.apiKey === null) {
    throw new CliError("following needs an agent key: --api-key or SVC_API_KEY (with --upstream it stays here)");
  }
  if (s.objectStore) checkObjectStore(s.objectStore, s);
}
