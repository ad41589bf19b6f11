/**
 * Waiting in tests: until a condition holds (checked every 50 ms, a probe
 * that throws counts as not yet), and whether a process still runs.
 *
 * @module
 */

/** Resolves once `ok()` holds; throws naming `what` after `ms`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await Promise.resolve().then(ok).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether process `pid` runs (a signal it ignores reaches it). */
export function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}
