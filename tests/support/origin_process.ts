/**
 * The test origin in a process of its own (`origin_main.ts`), for tests and
 * benchmarks that want the origin's work off their own event loop.
 *
 * @module
 */
import { DENO_RUN, ROOT } from "./cli_process.ts";

/** A test origin running in its own process. */
export interface OriginProcess {
  /** The process. */
  child: Deno.ChildProcess;
  /** The origin's base URL. */
  url: string;
  /** Posts `body` to the test control `name` (`rotate`, `revoke`) and answers its JSON. */
  control(name: string, body: unknown): Promise<unknown>;
  /** Stops the process (SIGTERM) and waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts the test origin over `store`, signing with the key of `seed` (64
 * hex digits); contributions made by uploads are screened `screenMs` after
 * their `complete` (default 150).
 *
 * @example
 * ```ts ignore
 * const origin = await spawnOrigin(store, "77".repeat(32));
 * try { await fetch(`${origin.url}/projects`); } finally { await origin.stop(); }
 * ```
 */
export async function spawnOrigin(
  store: string,
  seed: string,
  options: { screenMs?: number } = {},
): Promise<OriginProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "-A", `${ROOT}tests/support/origin_main.ts`, store, seed],
    env: options.screenMs === undefined ? {} : { SVC_TEST_SCREEN_MS: String(options.screenMs) },
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let text = "";
  const reader = child.stderr.getReader();
  while (!/controls on (\S+)\)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the origin did not start: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  child.stderr.cancel().catch(() => {});
  const controls = /controls on (\S+)\)/.exec(text)![1];
  return {
    child,
    url: /origin on (\S+) /.exec(text)![1],
    control: (name, body) =>
      fetch(`${controls}/_test/${name}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json()),
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone already */ }
      await child.status;
    },
  };
}
