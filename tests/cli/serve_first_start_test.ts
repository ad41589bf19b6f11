/**
 * A first start behind a TLS-intercepting proxy: a copy of the node's files
 * with no `node_modules` and an empty Deno cache, whose npm registry is a
 * server whose certificate no CA here trusts. `svc serve` stops at once
 * saying what could not be downloaded, why, and which variable names the
 * proxy's CA; it never says it cannot narrow itself (it did not get that
 * far). Given that CA in `DENO_CERT`, the certificate is no longer the
 * matter (this registry has no packages to give).
 *
 * @module
 */
import { cp, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { assertEquals, assertMatch, assertNotMatch } from "../support/assert.ts";
import { ROOT, withoutDenoNotices } from "../support/cli_process.ts";
import { tempDir } from "../support/store_fixture.ts";
import { untrustedTls } from "../support/untrusted_tls.ts";

/** The files a node runs from, copied to `to` (no node_modules). */
async function nodeFiles(to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const file of ["deno.json", "deno.lock", "cli.ts", "mod.ts", "server.ts"]) {
    await cp(join(ROOT, file), join(to, file));
  }
  await cp(join(ROOT, "src"), join(to, "src"), { recursive: true });
}

/** `svc serve` from `dir` on a first start (empty Deno cache) with `registry` as npm's registry. */
async function firstStart(dir: string, registry: string, env: Record<string, string> = {}) {
  const clean = Deno.env.toObject();
  for (const name of Object.keys(clean)) {
    if (name.startsWith("DENO_") || name.startsWith("SVC_") || name.startsWith("NPM_")) delete clean[name];
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli.ts", "serve", "--store", join(dir, "store"), "--port", "0"],
    cwd: join(dir, "svc"),
    env: { ...clean, DENO_DIR: join(dir, "deno-dir"), NPM_CONFIG_REGISTRY: `${registry}/`, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  return { code: out.code, stderr: withoutDenoNotices(new TextDecoder().decode(out.stderr)) };
}

Deno.test("a first start behind a proxy whose CA is not trusted says to set DENO_CERT, and nothing of narrowing", async () => {
  const tls = await untrustedTls();
  const dir = await tempDir("svc-first-start-");
  try {
    await nodeFiles(join(dir.path, "svc"));
    const refused = await firstStart(dir.path, tls.url);
    assertEquals(refused.code, 1, refused.stderr);
    const line = refused.stderr.split("\n").find((l) => l.startsWith("error: ")) ?? "";
    assertMatch(
      line,
      new RegExp(
        `^error: cannot download the npm package \\S+ from ${tls.url}: its TLS certificate is not trusted ` +
          `\\(invalid peer certificate: UnknownIssuer\\); behind a TLS-intercepting proxy, set DENO_CERT to the proxy's CA`,
      ),
    );
    assertNotMatch(refused.stderr, /cannot be narrowed/);
    assertNotMatch(refused.stderr, /svc node serving/);

    const trusted = await firstStart(dir.path, tls.url, { DENO_CERT: tls.caFile });
    assertEquals(trusted.code, 1, trusted.stderr);
    assertNotMatch(trusted.stderr, /not trusted|UnknownIssuer|DENO_CERT/);
    assertEquals(tls.asked.length > 0, true, "the registry was asked once its CA was trusted");
  } finally {
    await dir.cleanup();
    await tls.close();
  }
});
