/**
 * Ctrl-C in a client command: the bar's line is ended, `interrupted` is
 * printed with what the command says it had done by then, and the process
 * exits 130.
 *
 * @module
 */
import process from "node:process";
import { denoGlobal, exit } from "../runtime/mod.ts";
import { endProgressLine } from "./progress.ts";

let note: (() => string) | null = null;
const cleanups = new Set<() => void>();
let installed = false;

/**
 * From now on, SIGINT prints `interrupted` (with the note set by
 * {@linkcode noteOnInterrupt}, if any) on stderr and exits 130.
 *
 * @example
 * ```ts
 * import { exitOnInterrupt } from "./interrupt.ts";
 * exitOnInterrupt();
 * ```
 */
export function exitOnInterrupt(): void {
  if (installed) return;
  installed = true;
  const stop = () => {
    endProgressLine();
    let said = "";
    try {
      said = note?.() ?? "";
    } catch { /* the note is a courtesy */ }
    for (const cleanup of cleanups) {
      try {
        cleanup();
      } catch { /* leave what cannot be cleaned */ }
    }
    process.stderr.write(`interrupted${said ? `: ${said}` : ""}\n`);
    exit(130);
  };
  const deno = denoGlobal();
  if (deno) deno.addSignalListener("SIGINT", stop);
  else process.on("SIGINT", stop);
}

/**
 * What to say after `interrupted` if Ctrl-C comes now (null: nothing more).
 */
export function noteOnInterrupt(describe: (() => string) | null): void {
  note = describe;
}

/**
 * Runs `cleanup` (synchronous: the process exits right after) if Ctrl-C
 * comes before the returned function is called to withdraw it.
 */
export function cleanUpOnInterrupt(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
}
