import { assertEquals } from "../support/assert.ts";
import { amount, barLine, humanBytes, plural, progress, summaryLine } from "../../src/cli/progress.ts";

Deno.test("byte counts in decimal SI units", () => {
  const cases: [number, string][] = [
    [0, "0 B"],
    [999, "999 B"],
    [1000, "1.0 kB"],
    [52_500, "52.5 kB"],
    [999_949, "999.9 kB"],
    [999_950, "1.0 MB"],
    [6_500_000, "6.5 MB"],
    [1_234_567_890, "1.2 GB"],
    [3e15, "3.0 PB"],
    [4e18, "4000.0 PB"],
  ];
  for (const [n, text] of cases) assertEquals(humanBytes(n), text, String(n));
});

Deno.test("plurals: 1 part, 2 parts, 0 parts, 1 batch, 3 batches", () => {
  assertEquals(
    [
      plural(1, "part"),
      plural(2, "part"),
      plural(0, "part"),
      plural(1, "batch", "batches"),
      plural(3, "batch", "batches"),
    ],
    ["1 part", "2 parts", "0 parts", "1 batch", "3 batches"],
  );
});

Deno.test("amounts: done of a known total, only what is done when the total is unknown (never 1/0)", () => {
  assertEquals(amount(52_500, 6_500_000, "bytes"), "52.5 kB / 6.5 MB");
  assertEquals(amount(52_500, 0, "bytes"), "52.5 kB");
  assertEquals(amount(250, 600, "record"), "250 / 600 records");
  assertEquals(amount(1, 1, "part"), "1 / 1 part");
  assertEquals(amount(1, 0, "record"), "1 record");
  assertEquals(amount(7, 0, "record"), "7 records");
});

Deno.test("the terminal bar: a bar when the total is known, none when it is not; notes after a dot", () => {
  assertEquals(barLine("pull cities", 0, 100, "bytes", ""), `pull cities [${".".repeat(24)}] 0 B / 100 B`);
  assertEquals(
    barLine("pull cities", 50, 100, "bytes", ""),
    `pull cities [${"#".repeat(12)}${".".repeat(12)}] 50 B / 100 B`,
  );
  assertEquals(barLine("pull cities", 200, 100, "bytes", ""), `pull cities [${"#".repeat(24)}] 200 B / 100 B`);
  assertEquals(barLine("contribute notes", 52_500, 0, "bytes", "1 batch"), "contribute notes 52.5 kB · 1 batch");
});

Deno.test("the summary line: what was done, of the total only when it stopped short, and the time", () => {
  assertEquals(summaryLine("load", 6_500_000, 6_500_000, "bytes", "", 1234), "load: 6.5 MB in 1.2 s");
  assertEquals(
    summaryLine("pull cities", 3_000_000, 6_500_000, "bytes", "", 50),
    "pull cities: 3.0 MB / 6.5 MB in 0.1 s",
  );
  assertEquals(summaryLine("pull cities", 250, 0, "record", "", 0), "pull cities: 250 records in 0.0 s");
});

function recorder(tty: boolean, options: { enabled?: boolean; summary?: boolean } = {}) {
  const out: string[] = [];
  let clock = 0;
  const bar = progress("export cities", { tty, write: (t) => out.push(t), now: () => clock, ...options });
  return { out, bar, tick: (ms: number) => (clock += ms) };
}

Deno.test("without a terminal nothing is drawn while it runs, and one summary line at the end", () => {
  const { out, bar, tick } = recorder(false);
  for (let done = 0; done <= 1_000_000; done += 10_000) {
    bar.update(done, 1_000_000);
    tick(10);
  }
  assertEquals(out, []);
  bar.finish();
  assertEquals(out, ["export cities: 1.0 MB in 1.0 s\n"]);
});

Deno.test("on a terminal the bar is redrawn in place at most every 100 ms, and its last state ends the line", () => {
  const { out, bar, tick } = recorder(true);
  bar.update(0, 0);
  tick(50);
  bar.update(1000, 0);
  tick(60);
  bar.update(2000, 0);
  assertEquals(out, ["\rexport cities 0 B\x1b[K", "\rexport cities 2.0 kB\x1b[K"]);
  bar.update(3000, 3000); // whole: drawn at once
  assertEquals(out.length, 3);
  bar.finish();
  assertEquals(out.slice(3), [`\rexport cities [${"#".repeat(24)}] 3.0 kB / 3.0 kB\x1b[K`, "\n"]);
});

Deno.test("--no-progress shows nothing; a display never updated shows nothing; summary: false has no summary", () => {
  const off = recorder(true, { enabled: false });
  off.bar.update(5, 10);
  off.bar.finish();
  assertEquals(off.out, []);
  const idle = recorder(false);
  idle.bar.finish();
  assertEquals(idle.out, []);
  const quiet = recorder(false, { summary: false });
  quiet.bar.update(5, 10);
  quiet.bar.finish();
  assertEquals(quiet.out, []);
});
