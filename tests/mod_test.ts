/**
 * The package's default entry run as a program (`deno run -A jsr:@svc/cli
 * serve` runs `mod.ts`) is the command line; imported, it runs nothing.
 *
 * @module
 */
import { assertEquals, assertMatch } from "./support/assert.ts";
import { VERSION } from "../mod.ts";

const MOD = new URL("../mod.ts", import.meta.url).pathname;

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--lock=deno.dev.lock", MOD, ...args],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("mod.ts run as the program is svc: --version, a usage error, serve", async () => {
  const version = await run(["--version"]);
  assertEquals([version.code, version.stdout.trim()], [0, `svc (svc-sdk) ${VERSION}`], version.stderr);
  const unknown = await run(["no-such-command"]);
  assertEquals(unknown.code, 2, unknown.stderr);
  assertMatch(unknown.stderr, /^error: /);
  const store = await Deno.makeTempDir();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--lock=deno.dev.lock", MOD, "serve", "--store", store, "--port", "0"],
      stdout: "null",
      stderr: "piped",
      stdin: "null",
    }).spawn();
    let said = "";
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    while (!/ on http:\/\/\S+ \(/.test(said)) {
      const { done, value } = await reader.read();
      if (done) break;
      said += value;
    }
    const url = / on (http:\/\/\S+) \(/.exec(said)?.[1];
    assertEquals(typeof url, "string", said);
    assertEquals(await fetch(`${url}/healthz`).then(async (r) => [r.status, (await r.json()).node]), [200, true]);
    child.kill("SIGTERM");
    assertEquals((await child.status).code, 0);
    reader.releaseLock();
    await child.stderr.cancel().catch(() => {});
  } finally {
    await Deno.remove(store, { recursive: true });
  }
});

Deno.test("mod.ts imported runs nothing: its exports only", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", `import { VERSION } from "${MOD}"; console.log(VERSION);`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(new TextDecoder().decode(out.stdout).trim(), VERSION, new TextDecoder().decode(out.stderr));
});
