/**
 * Progress on stderr for long operations: a bar redrawn in place on a
 * terminal, a line every tenth of the way otherwise.
 *
 * @module
 */
import process from "node:process";

/** A progress display. */
export interface Progress {
  /** Shows `done` of the total, with a note. */
  update(done: number, note?: string): void;
  /** Ends the display (the last state stays on screen). */
  finish(): void;
}

/**
 * A progress display for `label` counting to `total` units.
 *
 * @example
 * ```ts ignore
 * const bar = progress("contribute notes", 5000);
 * bar.update(500, "1 batch");
 * bar.finish();
 * ```
 */
export function progress(label: string, total: number): Progress {
  const tty = process.stderr.isTTY === true;
  let lastTenth = -1;
  let drawn = false;
  const line = (done: number, note: string) => {
    const share = total > 0 ? Math.min(1, done / total) : 1;
    const width = 24;
    const filled = Math.round(share * width);
    return `${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}${note ? ` ${note}` : ""}`;
  };
  return {
    update(done, note = "") {
      if (tty) {
        process.stderr.write(`\r${line(done, note)}\x1b[K`);
        drawn = true;
        return;
      }
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (tenth !== lastTenth) {
        lastTenth = tenth;
        process.stderr.write(line(done, note) + "\n");
      }
    },
    finish() {
      if (tty && drawn) process.stderr.write("\n");
    },
  };
}

/**
 * A progress bar drawn from the first report on, for operations that learn
 * their total as they start (`onProgress(done, total)`); `finish` ends it if
 * it was drawn.
 *
 * @example
 * ```ts ignore
 * const bar = progressOnReport("pull cities", "bytes");
 * await pull(client, "cities", { store, onProgress: bar.onProgress });
 * bar.finish();
 * ```
 */
export function progressOnReport(
  label: string,
  unit: string,
): { onProgress: (done: number, total: number) => void; finish: () => void } {
  let bar: Progress | null = null;
  return {
    onProgress(done, total) {
      bar ??= progress(label, total);
      bar.update(done, unit);
    },
    finish: () => bar?.finish(),
  };
}
