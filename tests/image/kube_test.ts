/**
 * The Kubernetes manifests of `deploy/kubernetes/`, played for real with
 * podman 4.3's `kube play`: the test origin in a pod, the mirror and two
 * readers from the rendered example overlay. A test overlay on top of the
 * example changes settings only (the image under test, the origin's address
 * and keys, test tokens, 2 s follow intervals, and `SVC_UPSTREAM` naming the
 * mirror's pod, since podman resolves pod names and not Services); the
 * workloads play as rendered, but for what podman 4.3 cannot do (see
 * `tests/support/kube_play.ts`): each reader is the readers' Deployment under
 * a name of its own, podman playing one replica per Deployment, and no pod
 * declares its port, podman publishing every declared port on the host.
 *
 * ```sh
 * eval "$(scripts/container/prepare.sh)" && deno test -A --lock=deno.dev.lock tests/image/kube_test.ts
 * ```
 *
 * @module
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { type KubeObject, kustomize } from "../support/kube_manifests.ts";
import {
  configMapVolumes,
  createNetwork,
  createSecrets,
  deploymentPod,
  forPodman,
  play,
  podAddress,
  podLogs,
} from "../support/kube_play.ts";
import { buildTestImage, podman, podmanOk, TEST_IMAGE } from "../support/podman.ts";
import { trustFileText } from "../support/signing.ts";
import { citiesStore, citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";

const NETWORK = "svc-kube-test";
const ORIGIN_POD = "svc-kube-origin";
const ORIGIN = `http://${ORIGIN_POD}:8080`;
const SEED = "77".repeat(32);
const MIRROR_TOKEN = "kube-test-mirror-token-0123456789";
const READER_TOKEN = "kube-test-reader-token-0123456789";
const INTERVAL_S = 2;
const MIRROR = deploymentPod("svc-mirror");
const READERS = ["svc-reader-a", "svc-reader-b"];
const PODS = [ORIGIN_POD, MIRROR, ...READERS.map(deploymentPod)];
const PVC = "svc-mirror-data";

/** The test overlay: settings for this machine over the example overlay; no workload is patched. */
function testOverlay(dir: string): string {
  const [image, tag] = TEST_IMAGE.split(":");
  return `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ${relative(dir, join(ROOT, "deploy/kubernetes/overlays/example"))}
images:
  - name: ghcr.io/svc-node/svc
    newName: ${image}
    newTag: ${tag}
configMapGenerator:
  - name: svc-settings
    behavior: merge
    literals:
      - SVC_BASE_URL=${ORIGIN}
      - SVC_FOLLOW=cities
      - SVC_UPSTREAM=http://${MIRROR}:8686
      - mirror-follow-interval=${INTERVAL_S}
      - reader-follow-interval=${INTERVAL_S}
  - name: svc-trust
    behavior: replace
    files:
      - trust.json
secretGenerator:
  - name: svc-tokens
    behavior: replace
    literals:
      - mirror-token=${MIRROR_TOKEN}
      - reader-token=${READER_TOKEN}
      - api-key=agent-key
`;
}

/** The origin's pod: the svc image running `tests/support/kube_origin_main.ts` over `store`. */
function originPod(store: string): KubeObject {
  const main = "/app/tests/support/kube_origin_main.ts";
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: ORIGIN_POD },
    spec: {
      containers: [{
        name: "origin",
        image: TEST_IMAGE,
        command: ["/usr/local/bin/deno", "run", "-A", "--cached-only", "--config", "/app/deno.json", main],
        args: ["/store", SEED, ORIGIN],
        // A fixture, not a workload: root, to serve the store the test writes as root.
        securityContext: { runAsUser: 0 },
        volumeMounts: [{ name: "tests", mountPath: "/app/tests", readOnly: true }, {
          name: "store",
          mountPath: "/store",
        }],
      }],
      volumes: [
        { name: "tests", hostPath: { path: join(ROOT, "tests"), type: "Directory" } },
        { name: "store", hostPath: { path: store, type: "Directory" } },
      ],
    },
  };
}

async function until<T>(what: string, check: () => Promise<T | null | false>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (true) {
    const got = await check().catch(() => null);
    if (got) return got;
    if (Date.now() > deadline) {
      const logs = await Promise.all(PODS.map(podLogs));
      throw new Error(`timed out waiting until ${what}\n${logs.join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function readyz(address: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`http://${address}:8686/readyz`, { signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: await res.json() };
}

async function servedVersion(address: string, token: string): Promise<number> {
  const res = await fetch(`http://${address}:8686/projects/cities/data?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(5_000),
  });
  if (res.status !== 200) throw new Error(`data page: ${res.status} ${await res.text()}`);
  return (await res.json()).version;
}

async function cleanUp(secrets: string[], volumes: string[]): Promise<void> {
  for (const pod of PODS) await podman(["pod", "rm", "-f", "-t", "0", pod]);
  for (const volume of [PVC, ...new Set(volumes)]) await podman(["volume", "rm", "-f", volume]);
  for (const secret of secrets) await podman(["secret", "rm", secret]);
  await podman(["network", "rm", "-f", NETWORK]);
}

Deno.test("kubernetes manifests under podman kube play: origin, mirror and two readers", async (t) => {
  await buildTestImage();
  const work = await tempDir("svc-kube-");
  const store = join(work.path, "origin");
  await citiesStore(store);
  const writer = new StoreWriter(store);
  let version = 2;
  const publish = async () => {
    version++;
    await writer.version("cities", version, { parts: [{ sql: citySql(0, 100 * version) }] });
  };
  const secrets: string[] = [];
  const volumes: string[] = [];
  await cleanUp([], []);
  try {
    const overlay = join(work.path, "overlay");
    await mkdir(overlay);
    await writeFile(join(overlay, "kustomization.yaml"), testOverlay(overlay));
    await writeFile(join(overlay, "trust.json"), await trustFileText(ORIGIN, SEED));
    const rendered = await kustomize(overlay);
    const configMaps = rendered.filter((o) => o.kind === "ConfigMap");
    const deployment = (name: string) => rendered.find((o) => o.kind === "Deployment" && o.metadata.name === name);
    volumes.push(...configMapVolumes(deployment("svc-mirror")), ...configMapVolumes(deployment("svc-reader")));
    const playReader = (name: string) =>
      play([...configMaps, forPodman(deployment("svc-reader"), name)], NETWORK, work.path, `${name}.yaml`);
    const addresses: Record<string, string> = {};

    await createNetwork(NETWORK);
    secrets.push(...await createSecrets(rendered, work.path));
    await play([originPod(store)], NETWORK, work.path, "origin.yaml");
    const origin = await podAddress(ORIGIN_POD);
    await until("the origin serves", () => fetch(`http://${origin}:8080/.well-known/svc-keys`).then((r) => r.ok));

    await t.step("the mirror plays from the rendered manifests and is ready once it holds v2, verified", async () => {
      const pvc = rendered.find((o) => o.kind === "PersistentVolumeClaim");
      await play(
        [...configMaps, pvc, forPodman(deployment("svc-mirror"), "svc-mirror")],
        NETWORK,
        work.path,
        "mirror.yaml",
      );
      addresses.mirror = await podAddress(MIRROR);
      await until("the mirror is ready", async () => (await readyz(addresses.mirror)).status === 200);
      assertEquals(await servedVersion(addresses.mirror, MIRROR_TOKEN), 2);
      const config = await podmanOk(["inspect", `${MIRROR}-svc`, "--format", "{{.HostConfig.ReadonlyRootfs}}"]);
      assertEquals(config.stdout.trim(), "true");
      const status = await podmanOk(["exec", `${MIRROR}-svc`, "/bin/sh", "-c", "id -u; id -g; cat /proc/self/status"]);
      const [uid, gid] = status.stdout.split("\n");
      assertEquals([uid, gid], ["10001", "10001"]);
      assertMatch(status.stdout, /^CapEff:\s+0+$/m);
      assertMatch(status.stdout, /^NoNewPrivs:\s+1$/m);
    });

    await t.step("both readers fill their emptyDir from the mirror and become ready", async () => {
      for (const name of READERS) await playReader(name);
      for (const name of READERS) {
        addresses[name] = await podAddress(deploymentPod(name));
        await until(`${name} is ready`, async () => (await readyz(addresses[name])).status === 200);
        assertEquals(await servedVersion(addresses[name], READER_TOKEN), 2);
      }
    });

    await t.step("a new origin version reaches both readers within the follow interval plus 10 s", async () => {
      const started = Date.now();
      await publish();
      for (const name of READERS) {
        await until(
          `${name} serves v${version}`,
          async () => (await servedVersion(addresses[name], READER_TOKEN)) === version,
          60_000,
        );
      }
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `v${version} reached both readers in ${seconds.toFixed(1)} s (intervals ${INTERVAL_S} s + ${INTERVAL_S} s)`,
      );
      // Two hops: the mirror's round, then the readers'.
      assert(seconds <= 2 * INTERVAL_S + 10, `${seconds} s`);
    });

    await t.step("a reader removed and played again is not ready until it holds the current version", async () => {
      const b = deploymentPod("svc-reader-b");
      await podmanOk(["pod", "rm", "-f", "-t", "0", b]);
      await publish();
      await until(
        `the mirror holds v${version}`,
        async () => (await servedVersion(addresses.mirror, MIRROR_TOKEN)) === version,
      );
      // With the mirror away, the new reader can fill nothing: it must say so, not serve.
      await podmanOk(["pod", "stop", "-t", "10", MIRROR]);
      await playReader("svc-reader-b");
      const address = await podAddress(b);
      const notReady = await until("the new reader answers /readyz", async () => {
        const r = await readyz(address);
        return r.status === 503 ? r.body : null;
      });
      assertEquals(notReady.ready, false);
      assert(typeof notReady.reason === "string" && notReady.reason.length > 0, JSON.stringify(notReady));
      // Long enough for a few of its rounds to fail; reader a, which holds a copy, stays ready meanwhile.
      const failing = Date.now() + 3 * INTERVAL_S * 1000;
      while (Date.now() < failing) {
        assertEquals((await readyz(address)).status, 503, "not ready without the data");
        assertEquals((await readyz(addresses["svc-reader-a"])).status, 200, "a mirror outage leaves reader a in");
        await new Promise((r) => setTimeout(r, 200));
      }
      await podmanOk(["pod", "start", MIRROR]);
      const statuses: number[] = [];
      // The data page is read the moment /readyz first says 200.
      const served = await until("the new reader is ready", async () => {
        const r = await readyz(address);
        statuses.push(r.status);
        return r.status === 200 ? { version: await servedVersion(address, READER_TOKEN) } : null;
      });
      assertEquals(served.version, version, "ready means it holds the current version");
      assert(statuses.slice(0, -1).every((s) => s === 503), `only 503 before ready: ${statuses.join(" ")}`);
    });
  } finally {
    writer.close();
    await cleanUp(secrets, volumes);
    await work.cleanup();
  }
});
