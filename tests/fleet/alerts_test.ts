/**
 * The Prometheus files operators copy (deploy/prometheus/), checked by
 * Debian's `promtool`: the alert rules (`check rules`, which also lints for
 * duplicates), their unit tests (`test rules alerts_test.yml`: alerts that
 * fire when they should and stay quiet when they should), and the example
 * scrape configuration (`check config`, with the token files it names put in
 * place beside a copy, as an operator mounts them).
 *
 * @module
 */
import { join } from "node:path";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { assertEquals, assertMatch } from "../support/assert.ts";
import { tempDir } from "../support/store_fixture.ts";
import { requireTools, ROOT, runTool } from "./_fleet.ts";

const DEPLOY = join(ROOT, "deploy/prometheus");

Deno.test("fleet: promtool check rules passes deploy/prometheus/alerts.yml without a lint complaint", async () => {
  await requireTools("promtool:prometheus");
  const ran = await runTool("promtool", ["check", "rules", "--lint=all", join(DEPLOY, "alerts.yml")]);
  assertEquals(ran.code, 0, ran.stdout + ran.stderr);
  assertMatch(ran.stdout, /SUCCESS: \d+ rules found/);
  assertEquals(ran.stderr.trim(), "", "no lint complaints");
  console.log(`alerts: ${/SUCCESS: (\d+) rules found/.exec(ran.stdout)![1]} rules`);
});

Deno.test("fleet: promtool test rules: the alerts fire when they should and not otherwise", async () => {
  await requireTools("promtool:prometheus");
  const ran = await runTool("promtool", ["test", "rules", "alerts_test.yml"], { cwd: DEPLOY });
  assertEquals(ran.code, 0, ran.stdout + ran.stderr);
  assertMatch(ran.stdout + ran.stderr, /SUCCESS/);
});

Deno.test("fleet: promtool check config passes the example prometheus.yml with its token files in place", async () => {
  await requireTools("promtool:prometheus");
  const dir = await tempDir("svc-fleet-prometheus-");
  try {
    await copyFile(join(DEPLOY, "prometheus.yml"), join(dir.path, "prometheus.yml"));
    await copyFile(join(DEPLOY, "alerts.yml"), join(dir.path, "alerts.yml"));
    await mkdir(join(dir.path, "secrets/svc-tokens"), { recursive: true });
    for (const name of ["mirror-token", "reader-token"]) {
      await writeFile(join(dir.path, "secrets/svc-tokens", name), "example-token-0123456789\n");
    }
    const ran = await runTool("promtool", ["check", "config", join(dir.path, "prometheus.yml")]);
    assertEquals(ran.code, 0, ran.stdout + ran.stderr);
    assertMatch(ran.stdout, /SUCCESS: \d+ rule files found/);
    assertMatch(ran.stdout, /is valid prometheus config file syntax/);
  } finally {
    await dir.cleanup();
  }
});
