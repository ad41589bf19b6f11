/**
 * What a launcher tells the child it started: the signals it receives, as
 * they come, and its own parent's going as SIGHUP, unless a signal follows
 * within a moment. A terminal's Ctrl-C that also ends the shell reaches the
 * launcher as SIGINT about when its parent goes, and its watch may see the
 * parent gone first: the child should hear SIGINT, and say so.
 *
 * @module
 */
import { unrefTimer } from "./timers.ts";

/** How long a launcher waits, once its parent has gone, for a signal that says why. */
export const HANGUP_GRACE_MS = 250;

/** A launcher's messages to its child. */
export interface ChildSignals {
  /** Passes `signal` on now. */
  pass(signal: string): void;
  /** The launcher's parent has gone: SIGHUP after `graceMs`, unless a signal was passed by then. */
  parentGone(): void;
}

/**
 * The messages of a launcher whose child `kill` signals (errors from a child
 * that has exited are ignored).
 *
 * @example
 * ```ts
 * import { childSignals } from "./child_signals.ts";
 * const told: string[] = [];
 * const signals = childSignals((s) => told.push(s), 10);
 * signals.parentGone();
 * signals.pass("SIGINT");
 * await new Promise((r) => setTimeout(r, 20));
 * told; // ["SIGINT"]
 * ```
 */
export function childSignals(kill: (signal: string) => void, graceMs = HANGUP_GRACE_MS): ChildSignals {
  let passed = false;
  const pass = (signal: string) => {
    passed = true;
    try {
      kill(signal);
    } catch { /* it has exited */ }
  };
  return {
    pass,
    parentGone: () => {
      unrefTimer(setTimeout(() => passed || pass("SIGHUP"), graceMs));
    },
  };
}
