/**
 * `svc serve`: run a node until SIGINT (exit 130) or SIGTERM (exit 0), letting
 * in-flight requests finish.
 *
 * @module
 */
import process from "node:process";
import { join } from "node:path";
import { mkdir, realpath } from "node:fs/promises";
import { serveNode } from "../node/mod.ts";
import {
  exit,
  onLauncherHangup,
  onParentGone,
  onShutdownSignal,
  outliveOutputReaders,
  surviveStrayErrors,
} from "../runtime/mod.ts";
import type { Follower } from "../follow/mod.ts";
import { type CopyTarget, copyTarget, type ObjectStore, objectTarget, openObjectStoreNode } from "../store/mod.ts";
import type { S3Config } from "../objectstore/mod.ts";
import { trustFilePath } from "../trust/mod.ts";
import { CliError } from "../errors/mod.ts";
import { checkServeSettings, parseServeArgs, SERVE_HELP, type ServeSettings } from "../settings/mod.ts";
import { SANDBOX_CHILD, sandboxLine } from "./sandbox.ts";

/**
 * Runs `svc serve` with `args`; resolves when the node has stopped, with the
 * exit code.
 */
export async function serveCommand(args: string[]): Promise<number> {
  const settings = parseServeArgs(args, process.env);
  if (settings.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  checkServeSettings(settings);
  outliveOutputReaders();
  surviveStrayErrors((e) => process.stderr.write(`error: unhandled, the node goes on: ${(e as Error)?.stack ?? e}\n`));
  const log = settings.quiet ? null : (line: string) => process.stderr.write(line + "\n");
  const objectStore = settings.objectStore ? await openBucket(settings.objectStore) : null;
  const follower = settings.follow.length > 0 ? await followerFor(settings, objectStore) : null;
  const serving = await serveNode({
    store: settings.objectStore?.cacheDir ?? settings.store,
    objectStore: objectStore ?? undefined,
    host: settings.host,
    port: settings.port,
    token: settings.token,
    readOnly: settings.readOnly,
    allowedHosts: settings.allowHosts,
    limits: { maxConnections: settings.maxConnections },
    sql: { memory: settings.sqlMemory },
    memory: settings.memory,
    keepVersions: settings.keepVersions,
    exportCache: settings.exportCache,
    shareName: settings.shareName,
    readyMaxLagMs: settings.readyMaxLagMs,
    metrics: settings.metrics,
    log,
    follow: follower ?? undefined,
  }).catch(async (e) => {
    await follower?.stop();
    if ((e as { code?: string })?.code === "EADDRINUSE" || /address already in use|AddrInUse/i.test(String(e))) {
      throw new CliError(
        `port ${settings.port} on ${settings.host} is already in use (another svc serve?): stop that, or pick ` +
          `another with --port N (--port 0 takes a free one and prints it); commands that talk to a node ` +
          `(SVC_BASE_URL) must then be given its address`,
      );
    }
    throw e;
  });
  let code = 0;
  let stops = 0;
  const stopped = new Promise<void>((resolve) => {
    const stop = (why: string, exitCode: number) => {
      stops++;
      if (stops > 1) exit(130);
      code = exitCode;
      process.stderr.write(`svc node stopping (${why}): requests in flight have 5 s to finish\n`);
      // A sync under way is left behind: a pull cut off leaves no half version.
      void follower?.stop();
      serving.shutdown().then(resolve, (e) => {
        process.stderr.write(`error: ${(e as Error).message}\n`);
        code = 1;
        resolve();
      });
    };
    onShutdownSignal((signal) => stop(signal, signal === "SIGINT" ? 130 : 0));
    // A launcher that dies on SIGTERM without passing it on (npx) must not leave the node serving.
    onParentGone(() => stop("the process that started it has gone", 0));
    // The narrowed node's own launcher says so when the process that started it has gone.
    if (process.env[SANDBOX_CHILD] === "1") onLauncherHangup(() => stop("the process that started it has gone", 0));
  });
  // Said only once the handlers are in place: a Ctrl-C right after the line always stops the node cleanly.
  const walls = await serving.node.sandbox();
  if (settings.json) process.stdout.write(JSON.stringify(servingJson(settings, serving.url, walls)) + "\n");
  process.stderr.write(servingLines(settings, serving.url, follower !== null, walls));
  await stopped;
  return code;
}

/** What `svc serve` says on stderr once it serves: where, the MCP and browser addresses, following, the sandbox. */
function servingLines(settings: ServeSettings, url: string, following: boolean, walls: readonly string[]): string {
  const auth = settings.token ? "token required" : "no token";
  const readOnly = settings.readOnly || settings.objectStore !== null ? ", read-only" : "";
  return `svc node serving ${settings.store} on ${url} (${auth}${readOnly})\n` +
    `MCP (Streamable HTTP): ${url}/mcp\n` +
    `In a browser: ${url}/\n` +
    (following
      ? `following ${settings.follow.join(" ")} from ${settings.upstream ?? settings.baseUrl} every ` +
        `${settings.interval} s${settings.verify ? ", signatures required" : ""}\n`
      : "") +
    `${sandboxLine(settings, process.env, walls)}\n`;
}

/**
 * What `svc serve --json` prints on stdout once the node serves: where, over
 * which store, with or without a token, what it follows and from where, and
 * the walls its sandbox holds (the reference takes `--json` on every
 * command; a script reads the port `--port 0` took from here).
 *
 * @example
 * ```ts
 * import { servingJson } from "./serve.ts";
 * import { parseServeArgs } from "../settings/mod.ts";
 * servingJson(parseServeArgs(["--json"], {}), "http://127.0.0.1:8686", ["landlock"]).mcp;
 * // "http://127.0.0.1:8686/mcp"
 * ```
 */
export function servingJson(settings: ServeSettings, url: string, walls: readonly string[]): Record<string, unknown> {
  const following = settings.follow.length > 0;
  return {
    url,
    mcp: `${url}/mcp`,
    store: settings.store,
    auth: settings.token ? "token" : "none",
    readOnly: settings.readOnly || settings.objectStore !== null,
    follow: settings.follow,
    from: following ? settings.upstream ?? settings.baseUrl : null,
    interval: following ? settings.interval : null,
    sandbox: walls,
  };
}

/**
 * The store in the bucket `bucket` names, its parts kept in the real path
 * of its cache folder (made when missing).
 */
async function openBucket(bucket: NonNullable<ServeSettings["objectStore"]>): Promise<ObjectStore> {
  await mkdir(bucket.cacheDir, { recursive: true });
  const store = await openObjectStoreNode({
    // checkServeSettings refused a bucket without credentials.
    config: bucket.s3 as S3Config,
    root: await realpath(bucket.cacheDir),
    partCacheBytes: bucket.partCacheBytes,
    warn: (message) => process.stderr.write(`warning: ${message}\n`),
  });
  // Wrong keys, a missing bucket or an endpoint that does not answer are said now, not at the first request.
  await store.client.listPage("", { maxKeys: 1 }).catch((e) => {
    throw new CliError(`cannot read ${bucket.location}: ${(e as Error).message}`);
  });
  return store;
}

/**
 * The follow loop of `settings`: from the upstream node (with its token, never
 * the agent key) or from the origin (with the agent key); signatures checked
 * against the keys pinned for the origin either way.
 */
async function followerFor(settings: ServeSettings, bucket: ObjectStore | null): Promise<Follower> {
  const target: CopyTarget = bucket
    ? objectTarget(bucket.client, {
      singleWriter: settings.objectStore!.singleWriter,
      // Beside the part cache: the narrowed node writes there (and in no temporary folder it would have to ask for).
      scratch: join(bucket.root, ".taking"),
      // The node's own view of the bucket: it serves what its follower commits at once.
      store: bucket,
    })
    : copyTarget(settings.store);
  // A mirror writing a bucket whose server cannot keep two writers apart is refused now, not at its first version.
  await target.checkWrites();
  for (const slug of settings.follow) {
    if ((await target.meta(slug))?.local === true) {
      throw new CliError(`${slug} is a local project in ${settings.store}; a local project cannot be followed`);
    }
  }
  // Loaded only to follow: a node that follows nothing starts without the client's code.
  const [{ Client }, { startFollower }] = await Promise.all([import("../client/mod.ts"), import("../follow/mod.ts")]);
  const client = settings.upstream
    ? new Client({ baseUrl: settings.upstream, apiKey: settings.upstreamToken, requireKey: false })
    : new Client({ baseUrl: settings.baseUrl!, apiKey: settings.apiKey });
  return await startFollower({
    client,
    store: target,
    trust: {
      trustFile: trustFilePath(process.env),
      origin: settings.baseUrl!.replace(/\/+$/, ""),
      required: settings.verify,
    },
    slugs: settings.follow,
    intervalMs: settings.interval * 1000,
    keepVersions: settings.keepVersions,
    log: settings.quiet ? null : (line) => process.stderr.write(line + "\n"),
  });
}
