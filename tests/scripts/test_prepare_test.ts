import { assertEquals, assertMatch } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { prepareTests, programFolder } from "../../scripts/test_prepare.ts";

async function prepare(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}scripts/test_prepare.ts`],
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("the test task's preflight says how long the suite takes, and fails at once, clearly, when a need is unmet", async () => {
  const missing = await prepare({ SVC_CHROMIUM: "/nowhere/chromium" });
  assertEquals(missing.code, 1);
  assertMatch(missing.stderr, /^test: the whole suite takes about \d+-\d+ minutes on 2 cores/);
  assertMatch(missing.stderr, /\nerror: SVC_CHROMIUM names \/nowhere\/chromium, which does not exist\n$/);
  const ready = await prepare({ SVC_CHROMIUM: Deno.execPath() });
  // scripts/readers/prepare.sh may add its own line: where the Spark connector cannot be had, it says so every time.
  const own = ready.stderr.split("\n").filter((line) => !line.startsWith("readers: "));
  assertEquals([ready.code, own.length], [0, 2], ready.stderr);
});

Deno.test("programs apt put outside PATH (HAProxy in /usr/sbin) are found there, and named for the runs' PATH", async () => {
  assertEquals(programFolder("sh", "") !== null, true, "a program in the system's folders needs no PATH");
  assertEquals(programFolder("no-such-program-svc", "/usr/bin"), null);
  if (programFolder("haproxy", "") !== "/usr/sbin") return; // HAProxy elsewhere here: nothing to show
  const narrow = await prepare({ SVC_CHROMIUM: Deno.execPath(), PATH: "/usr/local/bin:/usr/bin:/bin" });
  assertEquals(narrow.code, 0, narrow.stderr);
  assertMatch(narrow.stderr, /programs the tests run are in \/usr\/sbin, which PATH lacks/);
  const { pathAdditions, problems } = await prepareTests("/usr/local/bin:/usr/bin:/bin");
  assertEquals([pathAdditions.includes("/usr/sbin"), problems.filter((p) => /haproxy/.test(p))], [true, []]);
});
