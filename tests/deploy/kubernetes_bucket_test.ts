/**
 * The Kubernetes overlay of a fleet over a bucket
 * (`deploy/kubernetes/overlays/bucket/`), rendered by `kubectl kustomize`:
 * every object against its kind's API schema; the mirror writing the bucket
 * with no volume claim; readers with no volume but `/tmp`, following
 * nothing, reading the bucket; one Secret for the bucket's credentials; the
 * restricted Pod Security Standard; egress to the bucket, the origin (the
 * mirror) and DNS only; and an environment and arguments the image's
 * entrypoint takes as they are, with permissions naming the bucket.
 *
 * ```sh
 * deno test -A --lock=deno.dev.lock tests/deploy/kubernetes_bucket_test.ts
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { type KubeObject, kustomize, validateObject } from "../support/kube_manifests.ts";
import { planContainer } from "../../src/container/plan.ts";

const BUCKET = join(ROOT, "deploy/kubernetes/overlays/bucket");
const STORE = "s3://svc-datasets/fleet";
const objects = await kustomize(BUCKET);

const named = (kind: string, name: string): KubeObject => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name.replace(/-[a-z0-9]{10}$/, "") === name);
  assert(found, `${kind} ${name} is rendered`);
  return found;
};
const deployments = () => objects.filter((o) => o.kind === "Deployment");
const container = (d: KubeObject): KubeObject => d.spec.template.spec.containers[0];

/** The environment of `c`, ConfigMaps and Secrets resolved. */
function envOf(c: KubeObject): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of c.env) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      env[e.name] = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name === ref.name).data[ref.key];
    } else {
      const ref = e.valueFrom.secretKeyRef;
      env[e.name] = atob(objects.find((o) => o.kind === "Secret" && o.metadata.name === ref.name).data[ref.key]);
    }
  }
  return env;
}

Deno.test("the bucket overlay renders valid objects: no volume claim, the bucket's Secret, no keys policy for readers", () => {
  const kinds = objects.map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, "")}`).sort();
  assertEquals(kinds, [
    "ConfigMap/svc-settings",
    "ConfigMap/svc-trust",
    "Deployment/svc-mirror",
    "Deployment/svc-reader",
    "Namespace/svc-fleet",
    "NetworkPolicy/svc-mirror",
    "NetworkPolicy/svc-reader",
    "PodDisruptionBudget/svc-reader",
    "Secret/svc-bucket",
    "Secret/svc-tokens",
    "Service/svc-mirror",
    "Service/svc-readers",
    "Service/svc-readers-pods",
  ]);
  for (const object of objects) {
    try {
      validateObject(object);
    } catch (e) {
      throw new Error(`${object.kind} ${object.metadata?.name}: ${(e as Error).message}`);
    }
  }
  const secret = named("Secret", "svc-bucket");
  assertEquals(Object.keys(secret.data).sort(), ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
  for (const key of Object.keys(secret.data)) assertMatch(atob(secret.data[key]), /^EXAMPLE-ONLY-replace-me-/);
});

Deno.test("the bucket's credentials come from one Secret; every pod is restricted; the readers have no volume but /tmp", () => {
  for (const d of deployments()) {
    const pod = d.spec.template.spec;
    const c = container(d);
    for (const name of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
      const e = c.env.find((x: KubeObject) => x.name === name);
      assertMatch(e?.valueFrom?.secretKeyRef?.name ?? "", /^svc-bucket-/, `${d.metadata.name}: ${name}`);
      assertEquals(e.value, undefined);
    }
    for (const e of c.env) {
      if (/TOKEN|KEY|SECRET/.test(e.name)) assert(e.valueFrom?.secretKeyRef, `${d.metadata.name}: ${e.name}`);
    }
    assertEquals(pod.securityContext.runAsNonRoot, true);
    assertEquals(c.securityContext.readOnlyRootFilesystem, true);
    assertEquals(c.securityContext.allowPrivilegeEscalation, false);
    assertEquals(c.securityContext.capabilities, { drop: ["ALL"] });
    for (const v of pod.volumes) assert(!v.persistentVolumeClaim && !v.hostPath, `${d.metadata.name}: ${v.name}`);
  }
  const reader = named("Deployment", "svc-reader");
  const pod = reader.spec.template.spec;
  assertEquals(pod.volumes.map((v: KubeObject) => v.name).sort(), ["tmp", "trust"]);
  assertEquals(container(reader).volumeMounts.map((m: KubeObject) => m.mountPath).sort(), ["/etc/svc/trust", "/tmp"]);
  const tmp = pod.volumes.find((v: KubeObject) => v.name === "tmp").emptyDir;
  assertEquals([tmp.medium, tmp.sizeLimit], [undefined, "4Gi"], "on disk, room for the 2GiB part cache");
  assertEquals(reader.spec.replicas, 3);
});

Deno.test("the image's entrypoint takes both as they are: the mirror follows into the bucket, the readers read it", async () => {
  const dockerfile = await Deno.readTextFile(join(ROOT, "Dockerfile"));
  const entrypoint: string[] = JSON.parse(/^ENTRYPOINT (\[[^\]]*\])/ms.exec(dockerfile.replace(/\\\n\s*/g, ""))![1]);
  const layout = { app: "/app", deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", data: "/data" };
  const plans: Record<string, string> = {};
  for (const d of deployments()) {
    const c = container(d);
    assertEquals(c.args.slice(0, entrypoint.length), entrypoint, "the image's entrypoint, then svc serve's options");
    const options: string[] = c.args.slice(entrypoint.length);
    assert(options.includes(`--store=${STORE}`), d.metadata.name);
    const plan = planContainer(options, { SVC_NODE_PORT: "8686", ...envOf(c) }, layout, () => "");
    assertEquals(plan.kind, "serve", `${d.metadata.name}: ${JSON.stringify(plan)}`);
    if (plan.kind !== "serve") continue;
    const argv = plan.node.argv.join(" ");
    assertMatch(argv, /--allow-net=[^ ]*svc-datasets\.s3\.eu-west-1\.amazonaws\.com/, `${d.metadata.name}: the bucket`);
    assertMatch(argv, /--allow-env=[^ ]*AWS_ACCESS_KEY_ID,[^ ]*AWS_SECRET_ACCESS_KEY/);
    assertMatch(argv, /--allow-write=[^ ]*\/tmp\/svc-cache/, `${d.metadata.name}: writes its part cache`);
    assert(!/--allow-write=[^ ]*\/data\/svc-data/.test(argv), `${d.metadata.name}: no store on disk`);
    plans[d.metadata.name] = argv;
    if (d.metadata.name === "svc-mirror") assert(plan.pin, "the mirror pins the origin's keys and follows with them");
    else assertEquals(plan.pin, null, "a reader follows nothing");
  }
  assertMatch(plans["svc-reader"], /--read-only/);
  assert(
    !/svc-mirror:8686|origin\.example\.org/.test(plans["svc-reader"]),
    "a reader reaches neither mirror nor origin",
  );
  assertMatch(plans["svc-mirror"], /--allow-net=[^ ]*origin\.example\.org/);
});

Deno.test("network policies: readers reach the bucket and DNS only; the mirror the origin, the bucket and DNS", () => {
  const peers = (name: string) =>
    named("NetworkPolicy", name).spec.egress.map((rule: KubeObject) =>
      rule.to.map((peer: KubeObject) => peer.ipBlock?.cidr ?? peer.podSelector?.matchLabels?.["k8s-app"]).join()
    );
  assertEquals(peers("svc-reader"), ["198.51.100.0/24", "kube-dns"]);
  assertEquals(peers("svc-mirror"), ["203.0.113.0/24", "198.51.100.0/24", "kube-dns"]);
  assert(!/0\.0\.0\.0\/0|::\/0/.test(JSON.stringify(objects)), "no policy opens every address");
});
