/**
 * Noticing that the process that started this one has gone. A launcher that
 * dies on SIGTERM without passing it on (`npx`, `npm exec`, a shell wrapper)
 * leaves its child to init; a server left that way would serve on, orphaned,
 * holding its port.
 *
 * @module
 */
import process from "node:process";
import { unrefTimer } from "./timers.ts";

/**
 * Calls `fn` once when the parent process goes away (this process is
 * re-parented), checking every `everyMs`. A process whose parent is PID 1
 * (a container's entrypoint, init, a service manager) has no launcher to
 * lose and is not watched. Returns a function that stops watching.
 *
 * @example
 * ```ts
 * import { onParentGone } from "./parent.ts";
 * const stop = onParentGone(() => console.error("parent gone, stopping"));
 * stop();
 * ```
 */
export function onParentGone(fn: () => void, everyMs = 1000): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => {};
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    fn();
  }, everyMs);
  // The watch never keeps a process alive on its own.
  unrefTimer(timer);
  return () => clearInterval(timer);
}
