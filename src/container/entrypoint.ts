/**
 * The container's PID 1: plans what to run ({@linkcode planContainer}),
 * pins the origin's keys when signatures are required, then runs the node
 * (or the command) under narrowed permissions, forwarding SIGTERM and
 * SIGINT and exiting with its code.
 *
 * ```sh
 * deno run --allow-read --allow-env --allow-run=/usr/local/bin/deno src/container/entrypoint.ts
 * ```
 *
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { readTrustFile } from "../trust/mod.ts";
import { CGROUP_MEMORY_ENV, returningMalloc } from "../launch/mod.ts";
import { cgroupMemoryLimit } from "../runtime/mod.ts";
import { containerMemoryLimit } from "./memory_limit.ts";
import { VERSION } from "../version.ts";
import { type ContainerLayout, findDuckdbBinding, IMAGE_LAYOUT } from "./layout.ts";
import { type ContainerPlan, EXIT_NO_KEYS, planContainer, type PlannedProcess } from "./plan.ts";

const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;

/** The child running now, to which signals go. */
let current: Deno.ChildProcess | null = null;
/** The signal that asked us to stop, if one did. */
let stopping: keyof typeof SIGNALS | null = null;

/**
 * Runs `planned` with our stdio; resolves with its exit code (128 + signal
 * number when a signal ended it). `Deno.Command`, not `node:child_process`:
 * the latter reports a child it signalled as killed by the signal even when
 * the child caught it and exited 0.
 */
async function run(planned: PlannedProcess): Promise<number> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(planned.argv[0], {
      args: planned.argv.slice(1),
      cwd: planned.cwd,
      env: planned.env,
      clearEnv: true,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
      // A group of its own: a signal sent to ours (Ctrl-C at a terminal) reaches it once, forwarded, not twice.
      detached: true,
    }).spawn();
  } catch (e) {
    process.stderr.write(`error: could not start ${planned.argv[0]}: ${(e as Error).message}\n`);
    return 1;
  }
  current = child;
  const status = await child.status;
  current = null;
  if (status.signal) return 128 + ((SIGNALS as Record<string, number>)[status.signal] ?? 0);
  return status.code;
}

/** Whether `trustFile` holds an unrevoked key for `origin`. */
async function holdsKeys(trustFile: string, origin: string): Promise<boolean> {
  try {
    const trust = await readTrustFile(trustFile);
    return (trust.origins[origin] ?? []).some((k) => !k.revoked);
  } catch {
    return false;
  }
}

/** One line naming what the node may reach, for the operator. */
function describe(argv: string[]): string {
  const flags = argv.filter((a) => /^--allow-(read|write|net)=/.test(a));
  return flags.map((f) => f.slice("--allow-".length)).join("  ");
}

/** Carries out `plan`; resolves with the container's exit code. */
async function carryOut(plan: ContainerPlan): Promise<number> {
  switch (plan.kind) {
    case "version":
      process.stdout.write(`svc (svc-sdk) ${VERSION}\n`);
      return 0;
    case "refuse":
      process.stderr.write(`error: ${plan.message}\n`);
      return plan.code;
    case "command":
      return await run(plan.command);
    case "serve": {
      if (plan.pin) {
        const pinned = await run(plan.pin);
        if (stopping) return 128 + SIGNALS[stopping];
        if (!(await holdsKeys(plan.pin.trustFile, plan.pin.origin))) {
          process.stderr.write(
            `error: SVC_VERIFY is set but no key of ${plan.pin.origin} is pinned in ${plan.pin.trustFile} ` +
              `and none could be pinned now (svc trust add exited ${pinned}): the node takes no unsigned version\n`,
          );
          return EXIT_NO_KEYS;
        }
        if (pinned !== 0) {
          process.stderr.write(`svc container: the origin could not be asked for its keys; using the keys held\n`);
        }
      }
      if (!plan.help) process.stderr.write(`svc container: node may ${describe(plan.node.argv)}\n`);
      return await run(plan.node);
    }
  }
}

/**
 * Runs the container's entrypoint with `argv` and `env`; resolves with the
 * exit code.
 */
export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  for (const name of Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]) {
    process.on(name, () => {
      stopping ??= name;
      if (current) current.kill(name);
      else process.exit(128 + SIGNALS[name]);
    });
  }
  // The image's layout; the variables exist so that the entrypoint can be tried outside an image.
  const app = env.SVC_CONTAINER_APP || IMAGE_LAYOUT.app;
  const duckdbBinding = findDuckdbBinding(app);
  if (duckdbBinding === null) {
    process.stderr.write(
      `error: no DuckDB binding for ${process.arch} under ${app}/node_modules: the image is incomplete\n`,
    );
    return 1;
  }
  const layout: ContainerLayout = {
    app,
    deno: env.SVC_CONTAINER_DENO || IMAGE_LAYOUT.deno,
    data: env.SVC_CONTAINER_DATA || IMAGE_LAYOUT.data,
    duckdbBinding,
  };
  // The node may not read /proc/self to learn the container's memory limit (its default budget): it is told.
  const limit = env[CGROUP_MEMORY_ENV] ??
    String(cgroupMemoryLimit() ?? await containerMemoryLimit(layout.deno) ?? "none");
  const told = { ...env, ...returningMalloc(env), [CGROUP_MEMORY_ENV]: limit };
  return await carryOut(planContainer(argv, told, layout, (path) => readFileSync(path, "utf8")));
}

if (import.meta.main) {
  process.exit(await main(process.argv.slice(2), process.env));
}
