/**
 * Ctrl-C in a client command: the bar's line is ended, `interrupted` is
 * printed with what the command says it had done by then, and the process
 * exits 130.
 *
 * @module
 */
import process from "node:process";
import { denoGlobal } from "../runtime/deno.ts";
import { exit } from "../runtime/mod.ts";
import { endProgressLine } from "./progress.ts";

let note: (() => string) | null = null;
let installed = false;

/**
 * From now on, SIGINT prints `interrupted` (with the note set by
 * {@linkcode noteOnInterrupt}, if any) on stderr and exits 130.
 *
 * @example
 * ```ts ignore
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
    process.stderr.write(`interrupted${said ? `: ${said}` : ""}\n`);
    exit(130);
  };
  const deno = denoGlobal();
  if (deno) deno.addSignalListener("SIGINT", stop);
  else process.on("SIGINT", stop);
}

/**
 * What to say after `interrupted` if Ctrl-C comes now (null: nothing more).
 *
 * @example
 * ```ts ignore
 * noteOnInterrupt(() => `${sent} batches sent`);
 * ```
 */
export function noteOnInterrupt(describe: (() => string) | null): void {
  note = describe;
}
