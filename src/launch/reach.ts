/**
 * What `svc [global flags] serve [options]` says a node must reach (its
 * store, address, the hosts it follows from, whether it writes), read from
 * the arguments and environment without `node:util` or anything else: the
 * sandbox decides this before the command line's code loads. It reads only
 * what it is sure of and answers null for anything else (an unknown option,
 * a value out of shape, help), in which case the full parser decides
 * (`cli/sandbox.ts`). `tests/launch/reach_test.ts` holds it equal to the
 * full parser's `nodeReach`.
 *
 * @module
 */
import { SERVE_OPTIONS } from "./serve_options.ts";

/** What the reader found. */
export interface ServeReach {
  /** The store as named (relative to the working folder, or absolute). */
  store: string;
  /** Address to bind. */
  host: string;
  /** Port to bind. */
  port: number;
  /** Projects followed. */
  follow: string[];
  /** Whether signatures are required when following. */
  verify: boolean;
  /** The node followed instead of the origin, or null. */
  upstream: string | null;
  /** The origin, or null. */
  baseUrl: string | null;
  /** Whether the node writes nothing. */
  readOnly: boolean;
  /** Whether the sandbox is on. */
  sandbox: boolean;
  /** Whether the request log is off. */
  quiet: boolean;
  /** The memory budget as written (`--memory`, `SVC_NODE_MEMORY`), or null when not given. */
  memory: string | null;
}

type Env = Record<string, string | undefined>;
type OptionName = keyof typeof SERVE_OPTIONS;

/** The global flags before the command: `--base-url` and `--api-key`, as `cli/global_flags.ts` takes them. */
function globalFlags(args: string[], env: Env): string[] | null {
  const rest = [...args];
  while (rest[0] === "--base-url" || rest[0] === "--api-key" || /^--(base-url|api-key)=/.test(rest[0] ?? "")) {
    const flag = rest.shift()!;
    const eq = flag.indexOf("=");
    const name = eq < 0 ? flag : flag.slice(0, eq);
    const value = eq < 0 ? rest.shift() : flag.slice(eq + 1);
    if (value === undefined || value === "") return null;
    env[name === "--base-url" ? "SVC_BASE_URL" : "SVC_API_KEY"] = value;
  }
  return rest;
}

/** The options given, each name's values in order; null for anything unknown or ambiguous. */
function options(args: string[]): Map<OptionName, (string | true)[]> | null {
  const found = new Map<OptionName, (string | true)[]>();
  let last: OptionName | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--") || arg === "--") {
      // A word after --follow is one more project (as the full parser reads it); anything else is for it to refuse.
      if (last === "follow" && !arg.startsWith("-")) found.get("follow")!.push(arg);
      else return null;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = (eq < 0 ? arg.slice(2) : arg.slice(2, eq)) as OptionName;
    const option = SERVE_OPTIONS[name] as { type: string } | undefined;
    if (!option) return null;
    let value: string | true = true;
    if (option.type === "string") {
      value = eq < 0 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined) return null;
    } else if (eq >= 0) return null;
    found.set(name, [...(found.get(name) ?? []), value]);
    last = name;
  }
  return found;
}

/**
 * A switch variable (`SVC_SANDBOX`, `SVC_METRICS`) read as on or off:
 * `on`, `1`, `true`, `yes` are on; `off`, `0`, `false`, `no` off; unset or
 * empty is `fallback`; anything else null.
 *
 * @example
 * ```ts
 * import { onOff } from "./reach.ts";
 * onOff("OFF", true); // false
 * onOff("maybe", true); // null
 * ```
 */
export function onOff(raw: string | undefined, fallback: boolean): boolean | null {
  if (raw === undefined || raw === "") return fallback;
  const value = raw.trim().toLowerCase();
  if (["off", "0", "false", "no"].includes(value)) return false;
  if (["on", "1", "true", "yes"].includes(value)) return true;
  return null;
}

/**
 * What `args` (the process's arguments) and `env` say a `svc serve` node
 * must reach, or null when they are not `serve`, ask for help, or hold
 * anything the reader is not sure of.
 *
 * @example
 * ```ts
 * import { serveReach } from "./reach.ts";
 * serveReach(["serve", "--store", "/data/s", "--port", "9000"], {})?.port; // 9000
 * serveReach(["pull", "cities"], {}); // null
 * ```
 */
export function serveReach(args: string[], env: Env): ServeReach | null {
  const given = { ...env };
  const rest = globalFlags(args, given);
  if (rest === null || rest[0] !== "serve") return null;
  const found = options(rest.slice(1));
  if (found === null || found.has("help")) return null;
  const one = (name: OptionName) => {
    const values = found.get(name);
    return values === undefined ? undefined : values[values.length - 1];
  };
  const text = (name: OptionName) => one(name) as string | undefined;
  const port = text("port") ?? "8686";
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) return null;
  const follow = (found.get("follow") as string[] | undefined) ??
    (given.SVC_FOLLOW ?? "").split(/\s+/).filter((x) => x);
  const upstream = text("upstream") ?? (given.SVC_UPSTREAM || null);
  const baseUrl = text("base-url") ?? (given.SVC_BASE_URL || null);
  const verify = one("verify") === true ||
    (one("verify") === undefined && /^(1|true|yes)$/i.test(given.SVC_VERIFY ?? ""));
  const sandboxEnv = onOff(given.SVC_SANDBOX, true);
  if (sandboxEnv === null) return null;
  // Settings in error are the node's to report: it parses them in full when it starts.
  if (follow.length > 0 && baseUrl === null) return null;
  for (const url of [upstream, baseUrl]) {
    if (url !== null && !/^https?:\/\/[^/?#\s]+/i.test(url)) return null;
  }
  // A store in an object store reaches its bucket with AWS_* variables: the full parser decides.
  if (
    /^s3:/i.test(text("store") ?? "") ||
    ["s3-endpoint", "s3-region", "part-cache", "cache-dir"].some((n) => found.has(n as OptionName))
  ) {
    return null;
  }
  return {
    store: text("store") ?? "svc-data",
    host: text("host") ?? "127.0.0.1",
    port: Number(port),
    follow,
    verify: verify && follow.length > 0,
    upstream,
    baseUrl,
    readOnly: one("read-only") === true,
    sandbox: one("no-sandbox") !== true && sandboxEnv,
    quiet: one("quiet") === true,
    memory: text("memory") ?? (given.SVC_NODE_MEMORY || null),
  };
}
