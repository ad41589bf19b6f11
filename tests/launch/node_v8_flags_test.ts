import { assertEquals } from "../support/assert.ts";
import { denoNodeV8Flags, NODE_TIER_UP_FLAGS, nodeHeapFlags } from "../../src/launch/mod.ts";

const MIB = 1024 ** 2;

/** What this Deno says when it evaluates one line under `flags`: its exit code and its output. */
async function denoWith(flags: string[]): Promise<{ code: number; out: string }> {
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["eval", ...flags, "console.log('started')"],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder();
  return { code: run.code, out: (text.decode(run.stdout) + text.decode(run.stderr)).trim() };
}

Deno.test("the node's V8 flags: its heap's, then sooner tier-up, each in --v8-flags=", () => {
  assertEquals(denoNodeV8Flags(3 * MIB), [
    "--v8-flags=--max-semi-space-size=3",
    "--v8-flags=--initial-old-space-size=12",
    "--v8-flags=--no-memory-reducer",
    "--v8-flags=--invocation-count-for-maglev=100",
    "--v8-flags=--invocation-count-for-turbofan=1000",
  ]);
  assertEquals(denoNodeV8Flags(null), [...nodeHeapFlags(null), ...NODE_TIER_UP_FLAGS].map((f) => `--v8-flags=${f}`));
});

Deno.test("this Deno's V8 takes every flag the node is started with (it refuses one it does not know)", async () => {
  assertEquals(await denoWith(denoNodeV8Flags(16 * MIB)), { code: 0, out: "started" });
  const refused = await denoWith(["--v8-flags=--no-such-flag-in-v8"]);
  assertEquals(refused.code, 1, refused.out);
});
