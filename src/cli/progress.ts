/**
 * Progress on stderr for long operations. On a terminal, a bar redrawn in
 * place (at most ten times a second); anywhere else (a log, a pipe) nothing
 * while it runs and one summary line at the end. Bytes are shown in decimal
 * SI units (`52.5 kB / 6.5 MB`); a total not known yet shows only what is
 * done. `--no-progress` turns it all off.
 *
 * @module
 */
import process from "node:process";

/** What is counted: `"bytes"`, or a noun in the singular (`"record"`), made plural as needed. */
export type Unit = string;

/**
 * `n` bytes in decimal SI units: `999 B`, `52.5 kB`, `6.5 MB`, `1.2 GB`.
 *
 * @example
 * ```ts
 * import { humanBytes } from "./progress.ts";
 * humanBytes(52_500); // "52.5 kB"
 * ```
 */
export function humanBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ["kB", "MB", "GB", "TB", "PB"];
  let value = n / 1000;
  let i = 0;
  while (value >= 999.95 && i < units.length - 1) {
    value /= 1000;
    i++;
  }
  return `${value.toFixed(1)} ${units[i]}`;
}

/**
 * `n` and a noun, plural unless `n` is 1.
 *
 * @example
 * ```ts
 * import { plural } from "./progress.ts";
 * plural(1, "part"); // "1 part"
 * plural(3, "batch", "batches"); // "3 batches"
 * ```
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * How far along: `done / total` in `unit`, or only `done` when the total is
 * not known (0 or less).
 *
 * @example
 * ```ts
 * import { amount } from "./progress.ts";
 * amount(52_500, 6_500_000, "bytes"); // "52.5 kB / 6.5 MB"
 * amount(1, 0, "record"); // "1 record"
 * ```
 */
export function amount(done: number, total: number, unit: Unit): string {
  const known = total > 0;
  if (unit === "bytes") return known ? `${humanBytes(done)} / ${humanBytes(total)}` : humanBytes(done);
  return known ? `${done} / ${plural(total, unit)}` : plural(done, unit);
}

/**
 * The bar line of a terminal: label, a bar when the total is known, the
 * amount and a note.
 *
 * @example
 * ```ts
 * import { barLine } from "./progress.ts";
 * barLine("pull cities", 3_250_000, 6_500_000, "bytes", ""); // "pull cities [############............] 3.3 MB / 6.5 MB"
 * ```
 */
export function barLine(label: string, done: number, total: number, unit: Unit, note: string): string {
  const width = 24;
  const filled = total > 0 ? Math.round(Math.min(1, done / total) * width) : 0;
  const bar = total > 0 ? ` [${"#".repeat(filled)}${".".repeat(width - filled)}]` : "";
  return `${label}${bar} ${amount(done, total, unit)}${note ? ` · ${note}` : ""}`;
}

/**
 * The one line written at the end where there is no terminal: what was done
 * (of the total, when it stopped short) and how long it took.
 *
 * @example
 * ```ts
 * import { summaryLine } from "./progress.ts";
 * summaryLine("load", 6_500_000, 6_500_000, "bytes", "", 1234); // "load: 6.5 MB in 1.2 s"
 * ```
 */
export function summaryLine(label: string, done: number, total: number, unit: Unit, note: string, ms: number): string {
  const what = done < total ? amount(done, total, unit) : amount(done, 0, unit);
  return `${label}: ${what}${note ? ` · ${note}` : ""} in ${(ms / 1000).toFixed(1)} s`;
}

/** A progress display. */
export interface Progress {
  /** Shows `done` of `total` (0: not known), with a note. */
  update(done: number, total: number, note?: string): void;
  /** Ends the display: the bar's line is ended, or the summary line written. */
  finish(): void;
}

/** How a progress display behaves. */
export interface ProgressOptions {
  /** What is counted (default `"bytes"`). */
  unit?: Unit;
  /** Show anything at all (false for `--no-progress`; default true). */
  enabled?: boolean;
  /** Write a summary line at the end when there is no terminal (default true). */
  summary?: boolean;
  /** Whether stderr is a terminal (default: asked of stderr). */
  tty?: boolean;
  /** Where to write (default stderr). */
  write?: (text: string) => void;
  /** The clock (default `Date.now`). */
  now?: () => number;
}

/** Whether a bar is on screen without its line ended, so that what comes next starts a line of its own. */
let openLine: ((text: string) => void) | null = null;

/**
 * Ends the line of a bar still being drawn (before an error or an interrupt
 * note is written).
 *
 * @example
 * ```ts
 * import { endProgressLine } from "./progress.ts";
 * endProgressLine();
 * process.stderr.write("error: ...\n");
 * ```
 */
export function endProgressLine(): void {
  openLine?.("\n");
  openLine = null;
}

/**
 * Clears the line of a bar still being drawn, so that a line written to
 * stdout on the same terminal stands on its own (the bar is drawn again by
 * its next update).
 *
 * @example
 * ```ts
 * import { clearProgressLine } from "./progress.ts";
 * clearProgressLine();
 * process.stdout.write("merged  c_1  accepted 2/2 → v1\n");
 * ```
 */
export function clearProgressLine(): void {
  openLine?.("\r\x1b[K");
  openLine = null;
}

/**
 * A progress display for `label`.
 *
 * @example
 * ```ts
 * import { progress } from "./progress.ts";
 * const bar = progress("contribute notes", { unit: "bytes" });
 * bar.update(52_500, 6_500_000, "1 batch");
 * bar.finish();
 * ```
 */
export function progress(label: string, options: ProgressOptions = {}): Progress {
  const unit = options.unit ?? "bytes";
  const enabled = options.enabled ?? true;
  const tty = options.tty ?? process.stderr.isTTY === true;
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  const now = options.now ?? Date.now;
  const started = now();
  let last: { done: number; total: number; note: string } | null = null;
  let drawnAt = -Infinity;
  const draw = () => {
    write(`\r${barLine(label, last!.done, last!.total, unit, last!.note)}\x1b[K`);
    drawnAt = now();
    openLine = write;
  };
  return {
    update(done, total, note = "") {
      if (!enabled) return;
      last = { done, total, note };
      if (tty && (now() - drawnAt >= 100 || (total > 0 && done >= total))) draw();
    },
    finish() {
      if (!enabled || last === null) return;
      if (tty) {
        draw();
        endProgressLine();
      } else if (options.summary ?? true) {
        write(summaryLine(label, last.done, last.total, unit, last.note, now() - started) + "\n");
      }
    },
  };
}

/**
 * A progress display fed by an operation's `onProgress(done, total)` report.
 */
export function progressOnReport(
  label: string,
  unit: Unit,
  enabled = true,
): { onProgress: (done: number, total: number) => void; finish: () => void } {
  const bar = progress(label, { unit, enabled });
  return { onProgress: (done, total) => bar.update(done, total), finish: () => bar.finish() };
}
