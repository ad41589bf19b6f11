/**
 * What the container does with its arguments and environment, decided
 * before anything runs: serve the volume's store (no arguments, or options
 * first), run an `svc` command in `/data`, print the version, or refuse.
 *
 * @module
 */
import { join } from "node:path";
import { CliError, UsageError } from "../errors/mod.ts";
import { denoNodeV8Flags, homeEnv } from "../launch/mod.ts";
import { checkServeSettings, nodeReach, parseServeArgs, type ServeSettings } from "../settings/mod.ts";
import { CONTAINER_PORT, type ContainerLayout } from "./layout.ts";
import { commandPermissions, nodePermissions } from "./permissions.ts";

/** The exit code when signatures are required and no key can be had (`EX_UNAVAILABLE`). */
export const EXIT_NO_KEYS = 69;

/** Environment variables, as the process has them. */
export type Env = Record<string, string | undefined>;

/** Reads a secret file's text; throws when it cannot. */
export type ReadSecret = (path: string) => string;

/** A process to start. */
export interface PlannedProcess {
  /** The command and its arguments (the Deno binary, permissions, `cli.ts`, the svc arguments). */
  argv: string[];
  /** Its environment. */
  env: Record<string, string>;
  /** Its working directory. */
  cwd: string;
}

/** Keys to pin before the node starts: `svc trust add` against the origin. */
export interface PinStep extends PlannedProcess {
  /** The origin whose keys sign the followed versions. */
  origin: string;
  /** The trust file the keys are pinned in. */
  trustFile: string;
}

/** What the container does. */
export type ContainerPlan =
  | { kind: "version" }
  | { kind: "refuse"; message: string; code: number }
  | { kind: "serve"; node: PlannedProcess; pin: PinStep | null; help: boolean }
  | { kind: "command"; command: PlannedProcess };

/** The secrets that may come from files: `NAME_FILE` holds the path of `NAME`'s value. */
const SECRET_VARIABLES = ["SVC_NODE_TOKEN", "SVC_API_KEY", "SVC_UPSTREAM_TOKEN"];

/** A refusal the entrypoint prints as `error: ...`. */
class Refusal extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
  }
}

/** The environment with `*_FILE` secrets read, `SVC_TRUST_FILE` defaulted, and nothing unset. */
function resolveEnv(env: Env, layout: ContainerLayout, readSecret: ReadSecret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  for (const name of SECRET_VARIABLES) {
    const file = out[`${name}_FILE`];
    delete out[`${name}_FILE`];
    if (file === undefined || file === "") continue;
    if (out[name]) throw new Refusal(`set ${name} or ${name}_FILE, not both`);
    let text: string;
    try {
      text = readSecret(file);
    } catch (e) {
      throw new Refusal(`${name}_FILE: cannot read ${file}: ${(e as Error).message}`);
    }
    const value = text.replace(/[\r\n]+$/, "");
    if (value === "") throw new Refusal(`${name}_FILE: ${file} is empty`);
    out[name] = value;
  }
  out.SVC_TRUST_FILE ||= join(layout.data, "trust.json");
  return out;
}

function containerPort(env: Record<string, string>): number {
  const raw = env.SVC_NODE_PORT ?? String(CONTAINER_PORT);
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new Refusal(`SVC_NODE_PORT must be a port from 1 to 65535, not ${JSON.stringify(raw)}`, 2);
  }
  return Number(raw);
}

function denoRun(layout: ContainerLayout, permissions: string[], args: string[]): string[] {
  return [
    layout.deno,
    "run",
    "--quiet",
    "--no-prompt",
    "--cached-only",
    "--config",
    join(layout.app, "deno.json"),
    ...permissions,
    join(layout.app, "cli.ts"),
    ...args,
  ];
}

function planServe(options: string[], env: Record<string, string>, layout: ContainerLayout): ContainerPlan {
  const port = containerPort(env);
  const args = ["serve", "--store", join(layout.data, "svc-data"), "--host", "0.0.0.0", "--port", String(port)];
  args.push(...options);
  let settings: ServeSettings;
  try {
    settings = parseServeArgs(args.slice(1), env);
  } catch (e) {
    throw new Refusal((e as Error).message, e instanceof UsageError ? 2 : 1);
  }
  if (!settings.help && settings.token === null) {
    throw new Refusal(
      "set SVC_NODE_TOKEN (or SVC_NODE_TOKEN_FILE) to a secret of 16 or more characters: " +
        "the container serves on every address and answers only requests that carry it",
    );
  }
  if (!settings.help) {
    try {
      checkServeSettings(settings);
    } catch (e) {
      if (e instanceof CliError) throw new Refusal(e.message);
      throw e;
    }
  }
  const following = settings.follow.length > 0;
  const trustFile = env.SVC_TRUST_FILE;
  // V8 sizes its heap when it starts (the young generation the budget allows, whether idle spells shrink it), and how
  // soon it optimizes.
  const v8 = denoNodeV8Flags(settings.memory.semiSpace);
  const node: PlannedProcess = {
    argv: denoRun(layout, [...nodePermissions(layout, nodeReach(settings, trustFile)), ...v8], args),
    // The node reads only SVC_* variables: its home folder, which its SQL errors show as `~`, is told it.
    env: { ...env, ...homeEnv(env.HOME) },
    cwd: layout.data,
  };
  let pin: PinStep | null = null;
  if (following && settings.verify) {
    const origin = settings.baseUrl!.replace(/\/+$/, "");
    pin = {
      argv: denoRun(layout, commandPermissions(layout), ["trust", "add", origin]),
      env,
      cwd: layout.data,
      origin,
      trustFile,
    };
  }
  return { kind: "serve", node, pin, help: settings.help };
}

/**
 * Decides what the container does with `argv` (the arguments after the
 * image's entrypoint) and `env`:
 *
 * - nothing, or options first (`--read-only`, `--follow a b`, `serve ...`):
 *   `svc serve --store /data/svc-data --host 0.0.0.0 --port $SVC_NODE_PORT`
 *   and the options, under {@linkcode nodePermissions}; `SVC_NODE_TOKEN`
 *   (or `SVC_NODE_TOKEN_FILE`) is required; with `SVC_VERIFY` and
 *   following, the origin's keys are pinned first;
 * - `--version`: the version;
 * - a command (`pull cities`, `query ...`): `svc` with it, in `/data`.
 *
 * `SVC_NODE_TOKEN_FILE`, `SVC_API_KEY_FILE` and `SVC_UPSTREAM_TOKEN_FILE`
 * name files holding those secrets; `SVC_TRUST_FILE` defaults to
 * `/data/trust.json`.
 *
 * @example
 * ```ts
 * import { planContainer } from "./plan.ts";
 * const layout = { app: "/app", deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", data: "/data" };
 * planContainer([], {}, layout, () => "").kind; // "refuse": no token
 * planContainer(["--version"], {}, layout, () => "").kind; // "version"
 * ```
 */
export function planContainer(
  argv: string[],
  env: Env,
  layout: ContainerLayout,
  readSecret: ReadSecret,
): ContainerPlan {
  try {
    if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) return { kind: "version" };
    const resolved = resolveEnv(env, layout, readSecret);
    if (argv.length === 0 || argv[0].startsWith("-")) return planServe(argv, resolved, layout);
    if (argv[0] === "serve") return planServe(argv.slice(1), resolved, layout);
    return {
      kind: "command",
      command: { argv: denoRun(layout, commandPermissions(layout), argv), env: resolved, cwd: layout.data },
    };
  } catch (e) {
    if (e instanceof Refusal) return { kind: "refuse", message: e.message, code: e.code };
    throw e;
  }
}
