/**
 * The Kubernetes manifests of `deploy/kubernetes/`: the base and the example
 * overlay, rendered by `kubectl kustomize` (Debian's kubectl; the test fails,
 * not skips, without it) and every object checked against the Kubernetes API
 * schema of its kind (`kubernetes-models`), then what the schema cannot say:
 * the "restricted" Pod Security Standard on every pod, tokens only from the
 * Secret, memory limits that hold what `--sql-memory` and `--page-cache`
 * allow, egress restricted, probes on `/healthz` and `/readyz`, and an
 * environment the image's entrypoint accepts as it is.
 *
 * ```sh
 * deno test -A --lock=deno.dev.lock tests/deploy/kubernetes_test.ts
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { type KubeObject, kustomize, validateObject } from "../support/kube_manifests.ts";
import { planContainer } from "../../src/container/plan.ts";
import { parseBytes } from "../../src/sql/mod.ts";

const BASE = join(ROOT, "deploy/kubernetes/base");
const OVERLAY = join(ROOT, "deploy/kubernetes/overlays/example");
const UID = 10001;
/** What the node process needs besides its SQL workers and page cache, at least. */
const NODE_HEADROOM = 384 * 1024 ** 2;

const [base, overlay] = await Promise.all([kustomize(BASE), kustomize(OVERLAY)]);
const RENDERED: [string, KubeObject[]][] = [["base", base], ["overlay", overlay]];

const ofKind = (objects: KubeObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: KubeObject[], kind: string, name: string): KubeObject => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  assert(found, `${kind} ${name} is rendered`);
  return found;
};
const podSpecs = (objects: KubeObject[]) =>
  ofKind(objects, "Deployment").map((d) => ({ name: d.metadata.name as string, pod: d.spec.template.spec }));
const allContainers = (pod: KubeObject): KubeObject[] => [...pod.containers, ...(pod.initContainers ?? [])];
const envOf = (container: KubeObject, name: string): KubeObject | undefined =>
  container.env?.find((e: KubeObject) => e.name === name);

/** Kubernetes' memory quantities (`3Gi`, `512Mi`, `1G`), in bytes. */
function quantity(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(text);
  assert(m, `${text} is a quantity`);
  const units: Record<string, number> = {
    "": 1,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  };
  return Number(m[1]) * units[m[2] ?? ""];
}

Deno.test("kubectl kustomize renders the base and the example overlay with the kinds expected", () => {
  const kinds = (objects: KubeObject[]) =>
    objects.map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, "")}`);
  const expected = [
    "ConfigMap/svc-settings",
    "ConfigMap/svc-trust",
    "Deployment/svc-mirror",
    "Deployment/svc-reader",
    "NetworkPolicy/svc-mirror",
    "NetworkPolicy/svc-reader",
    "NetworkPolicy/svc-reader-origin-keys",
    "PersistentVolumeClaim/svc-mirror-data",
    "PodDisruptionBudget/svc-reader",
    "Service/svc-mirror",
    "Service/svc-readers",
    "Service/svc-readers-pods",
  ];
  assertEquals(kinds(base).sort(), expected);
  assertEquals(kinds(overlay).sort(), [...expected, "Namespace/svc-fleet", "Secret/svc-tokens"].sort());
  for (const o of overlay.filter((o) => o.kind !== "Namespace")) assertEquals(o.metadata.namespace, "svc-fleet");
});

Deno.test("every rendered object conforms to the Kubernetes API schema of its kind", () => {
  for (const [where, objects] of RENDERED) {
    for (const object of objects) {
      try {
        validateObject(object);
      } catch (e) {
        throw new Error(`${where}: ${object.kind} ${object.metadata?.name}: ${(e as Error).message}`);
      }
    }
  }
});

/** The validator's message for `object`; fails when it takes `object`. */
function refusal(object: KubeObject): string {
  try {
    validateObject(object);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`the validator took ${JSON.stringify(object).slice(0, 200)}`);
}

Deno.test("the validator is real: wrong types, missing fields and bad enums are refused", () => {
  const deployment = named(overlay, "Deployment", "svc-reader");
  const container = (d: KubeObject) => d.spec.template.spec.containers[0];
  const broken: [string, (d: KubeObject) => void, RegExp][] = [
    ["replicas as text", (d) => d.spec.replicas = "three", /replicas must be integer/],
    ["no selector", (d) => delete d.spec.selector, /required property '?selector/],
    ["runAsUser as text", (d) => d.spec.template.spec.securityContext.runAsUser = "svc", /runAsUser must be integer/],
    ["a port as an object", (d) => container(d).ports[0].containerPort = {}, /containerPort/],
    ["env without a name", (d) => delete container(d).env[0].name, /required property '?name/],
    ["probe path as a number", (d) => container(d).livenessProbe.httpGet.path = 1, /path/],
    ["an unknown pull policy", (d) => container(d).imagePullPolicy = "Sometimes", /imagePullPolicy/],
  ];
  for (const [what, breakIt, message] of broken) {
    const copy = structuredClone(deployment);
    breakIt(copy);
    assertMatch(refusal(copy), message, what);
  }
  const policy = structuredClone(named(overlay, "NetworkPolicy", "svc-reader"));
  policy.spec.policyTypes = "Egress";
  assertMatch(refusal(policy), /policyTypes must be array/);
  assertMatch(refusal({ apiVersion: "v1", kind: "Pod", metadata: { name: "x" } }), /no schema/);
});

Deno.test("every pod meets the restricted Pod Security Standard and runs as 10001", () => {
  for (const [where, objects] of RENDERED) {
    for (const { name, pod } of podSpecs(objects)) {
      const at = `${where} ${name}`;
      assertEquals(pod.securityContext.runAsNonRoot, true, at);
      assertEquals([pod.securityContext.runAsUser, pod.securityContext.runAsGroup], [UID, UID], at);
      assertEquals(pod.securityContext.fsGroup, UID, at);
      assertEquals(pod.securityContext.seccompProfile, { type: "RuntimeDefault" }, at);
      assertEquals(pod.hostNetwork ?? false, false, at);
      assertEquals(pod.enableServiceLinks, false, `${at}: no SVC_*_PORT=tcp://... from Service links`);
      for (const c of allContainers(pod)) {
        const sc = c.securityContext;
        assertEquals(sc.allowPrivilegeEscalation, false, at);
        assertEquals(sc.readOnlyRootFilesystem, true, at);
        assertEquals(sc.runAsNonRoot, true, at);
        assertEquals(sc.runAsUser, UID, at);
        assertEquals(sc.capabilities, { drop: ["ALL"] }, at);
        assertEquals(sc.seccompProfile, { type: "RuntimeDefault" }, at);
        assertEquals(sc.privileged ?? false, false, at);
        const mounts = Object.fromEntries(c.volumeMounts.map((m: KubeObject) => [m.mountPath, m.name]));
        const volume = pod.volumes.find((v: KubeObject) => v.name === mounts["/tmp"]);
        assert(volume?.emptyDir, `${at}: a writable /tmp`);
        assertEquals(volume.emptyDir.medium, undefined, `${at}: /tmp on disk, outside the memory limit`);
        for (const v of pod.volumes) assert(!v.hostPath, `${at}: no hostPath`);
      }
    }
  }
});

Deno.test("the containers run the image's entrypoint, as the Dockerfile names it, after seeding the trust file", async () => {
  const dockerfile = await Deno.readTextFile(join(ROOT, "Dockerfile"));
  const entry = /^ENTRYPOINT (\[[^\]]*\])/ms.exec(dockerfile.replace(/\\\n\s*/g, ""));
  assert(entry, "the Dockerfile has an ENTRYPOINT");
  const entrypoint: string[] = JSON.parse(entry[1]);
  for (const [where, objects] of RENDERED) {
    for (const { name, pod } of podSpecs(objects)) {
      const c = pod.containers[0];
      assertEquals(c.args, entrypoint, `${where} ${name}`);
      assertEquals(c.command.slice(0, 2), ["/bin/sh", "-c"]);
      assertMatch(c.command[2], /exec "\$@"$/);
      assertEquals(envOf(c, "SVC_TRUST_FILE")?.value, "/data/trust.json");
      const trust = c.volumeMounts.find((m: KubeObject) => m.mountPath === "/etc/svc/trust");
      assertEquals(trust?.readOnly, true);
      const volume = pod.volumes.find((v: KubeObject) => v.name === trust.name);
      assertMatch(volume.configMap.name, /^svc-trust/);
    }
  }
});

Deno.test("every token comes from the Secret; the example's values are obvious placeholders", () => {
  for (const [where, objects] of RENDERED) {
    for (const { name, pod } of podSpecs(objects)) {
      for (const c of allContainers(pod)) {
        for (const e of c.env ?? []) {
          if (!/TOKEN|KEY|SECRET|PASSWORD/.test(e.name)) continue;
          assertEquals(e.value, undefined, `${where} ${name}: ${e.name} is no literal`);
          assertMatch(e.valueFrom?.secretKeyRef?.name ?? "", /^svc-tokens/, `${where} ${name}: ${e.name}`);
        }
        assert(!(c.envFrom ?? []).some((f: KubeObject) => f.configMapRef), "no settings in bulk from a ConfigMap");
      }
    }
  }
  for (const o of ofKind(base, "ConfigMap")) {
    assert(!/TOKEN|API_KEY/.test(Object.keys(o.data).join(" ")), `${o.metadata.name} holds no token`);
  }
  const [secret] = ofKind(overlay, "Secret");
  const keys = Object.keys(secret.data).sort();
  assertEquals(keys, ["api-key", "mirror-token", "reader-token"]);
  for (const key of keys) assertMatch(atob(secret.data[key]), /^EXAMPLE-ONLY-replace-me-/, key);
  for (const { pod } of podSpecs(overlay)) {
    for (const e of pod.containers[0].env) {
      if (e.valueFrom?.secretKeyRef) {
        assertEquals(e.valueFrom.secretKeyRef.name, secret.metadata.name);
        assert(keys.includes(e.valueFrom.secretKeyRef.key));
      }
    }
  }
});

/** The environment `pod`'s container starts with, ConfigMaps and the Secret resolved from `objects`. */
function resolvedEnv(objects: KubeObject[], pod: KubeObject): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of pod.containers[0].env) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom.configMapKeyRef) {
      env[e.name] = named(objects, "ConfigMap", e.valueFrom.configMapKeyRef.name).data[e.valueFrom.configMapKeyRef.key];
    } else {
      const secret = objects.find((o) => o.kind === "Secret" && o.metadata.name === e.valueFrom.secretKeyRef.name);
      env[e.name] = secret ? atob(secret.data[e.valueFrom.secretKeyRef.key]) : "a-token-of-twenty-chars";
    }
  }
  return env;
}

Deno.test("the image's entrypoint takes the environment as it is: mirror from the origin, readers from the mirror", async () => {
  const source = await Array.fromAsync(Deno.readDir(join(ROOT, "src/settings")), (f) => f.name)
    .then((names) => Promise.all(names.map((n) => Deno.readTextFile(join(ROOT, "src/settings", n)))))
    .then((texts) => texts.join("\n") + Deno.readTextFileSync(join(ROOT, "src/container/plan.ts")));
  const layout = { app: "/app", deno: "/usr/local/bin/deno", duckdbBinding: "/app/duckdb.node", data: "/data" };
  for (const [where, objects] of RENDERED) {
    for (const { name, pod } of podSpecs(objects)) {
      const env = resolvedEnv(objects, pod);
      for (const variable of Object.keys(env)) {
        const known = new RegExp(`\\b${variable}\\b`).test(source);
        assert(known, `${where} ${name}: ${variable} is read by the node or its entrypoint`);
      }
      const plan = planContainer([], { SVC_NODE_PORT: "8686", ...env }, layout, () => "");
      assertEquals(plan.kind, "serve", `${where} ${name}: ${JSON.stringify(plan)}`);
      if (plan.kind !== "serve") continue;
      assert(plan.pin, `${where} ${name}: keys pinned before serving (SVC_VERIFY)`);
      const argv = plan.node.argv.join(" ");
      assertMatch(argv, /--allow-write=[^ ]*\/data\/svc-data/, `${where} ${name}: writes its store`);
      if (name === "svc-reader") {
        assertEquals(env.SVC_UPSTREAM, "http://svc-mirror:8686");
        assertMatch(argv, /--allow-net=[^ ]*svc-mirror:8686/);
      } else assertEquals(env.SVC_UPSTREAM, undefined, "the mirror follows the origin");
    }
  }
  const readers = (objects: KubeObject[]) =>
    resolvedEnv(objects, named(objects, "Deployment", "svc-reader").spec.template.spec);
  assertEquals(readers(base).SVC_READY_MAX_LAG, undefined, "unset in the base on purpose");
  assertEquals(readers(overlay).SVC_READY_MAX_LAG, "15m");
});

Deno.test("memory limits hold two SQL workers at SVC_NODE_SQL_MEMORY, the page cache and the node", () => {
  for (const [where, objects] of RENDERED) {
    for (const { name, pod } of podSpecs(objects)) {
      const c = pod.containers[0];
      const sql = parseBytes(envOf(c, "SVC_NODE_SQL_MEMORY")?.value ?? "");
      const pageCache = parseBytes(envOf(c, "SVC_NODE_PAGE_CACHE")?.value ?? "");
      assert(sql !== null && pageCache !== null, `${where} ${name}: both set, not left to the machine's memory`);
      assert(sql >= 1024 ** 3, "the node takes no --sql-memory under 1GiB");
      const limit = quantity(c.resources.limits.memory);
      const request = quantity(c.resources.requests.memory);
      const needed = 2 * sql + pageCache + NODE_HEADROOM;
      assert(limit >= needed, `${where} ${name}: limit ${limit} < 2 x ${sql} + ${pageCache} + ${NODE_HEADROOM}`);
      assert(request <= limit && request >= 512 * 1024 ** 2, `${where} ${name}: request ${request}`);
      assertEquals(c.resources.limits.cpu, undefined, "no CPU limit: throttling stalls syncs and probes");
    }
  }
});

Deno.test("probes: startup and liveness on /healthz, readiness on /readyz", () => {
  for (const [where, objects] of RENDERED) {
    for (const { name, pod } of podSpecs(objects)) {
      const c = pod.containers[0];
      assertEquals(c.ports, [{ name: "http", containerPort: 8686 }], `${where} ${name}`);
      assertEquals(c.livenessProbe.httpGet, { path: "/healthz", port: 8686 });
      assertEquals(c.startupProbe.httpGet, { path: "/healthz", port: 8686 });
      assertEquals(c.readinessProbe.httpGet, { path: "/readyz", port: 8686 });
      assert(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold >= 60, "a minute to start");
    }
  }
});

Deno.test("workloads: one mirror on its volume, replaced not rolled; readers on emptyDir, with a budget", () => {
  for (const [where, objects] of RENDERED) {
    const mirror = named(objects, "Deployment", "svc-mirror");
    assertEquals([mirror.spec.replicas, mirror.spec.strategy.type], [1, "Recreate"], where);
    const mirrorData = mirror.spec.template.spec.volumes.find((v: KubeObject) => v.name === "data");
    assertEquals(mirrorData.persistentVolumeClaim.claimName, "svc-mirror-data");
    const reader = named(objects, "Deployment", "svc-reader");
    assert(reader.spec.replicas >= 2, `${where}: readers are several`);
    assertEquals(reader.spec.strategy.rollingUpdate.maxUnavailable, 0);
    assert(reader.spec.template.spec.volumes.find((v: KubeObject) => v.name === "data").emptyDir);
    // A stopping reader serves 5 s more while balancers learn it is gone, then has the node's 5 s for requests in
    // flight, within the grace period.
    const stopping = reader.spec.template.spec.containers[0].lifecycle.preStop.exec.command;
    assertEquals(stopping, ["/bin/sleep", "5"]);
    assert(reader.spec.template.spec.terminationGracePeriodSeconds >= 5 + 5 + 5, `${where}: grace for both waits`);
    const budget = named(objects, "PodDisruptionBudget", "svc-reader");
    assertEquals(budget.spec.selector.matchLabels, reader.spec.selector.matchLabels);
    for (const service of ofKind(objects, "Service")) {
      const target = ofKind(objects, "Deployment").filter((d) =>
        Object.entries(service.spec.selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v)
      );
      assertEquals(target.length, 1, `${where}: Service ${service.metadata.name} selects one workload`);
      assertEquals(service.spec.ports[0].port, 8686);
    }
    for (const o of objects.filter((o) => o.kind !== "Namespace")) {
      assertEquals(o.metadata.labels?.["app.kubernetes.io/name"], "svc", `${o.kind} ${o.metadata.name}`);
      assert(o.metadata.labels?.["app.kubernetes.io/part-of"], `${o.kind} ${o.metadata.name}`);
    }
  }
  assertEquals(named(overlay, "Deployment", "svc-reader").spec.replicas, 3);
  assertEquals(
    named(overlay, "Namespace", "svc-fleet").metadata.labels["pod-security.kubernetes.io/enforce"],
    "restricted",
  );
});

Deno.test("network policies: egress only to the mirror, the origin and DNS; readers take requests on 8686", () => {
  const isDns = (peer: KubeObject) =>
    peer.podSelector?.matchLabels?.["k8s-app"] === "kube-dns" && peer.namespaceSelector !== undefined;
  for (const [where, objects] of RENDERED) {
    const policies = ofKind(objects, "NetworkPolicy");
    const origin = named(objects, "NetworkPolicy", "svc-mirror").spec.egress[0].to[0].ipBlock.cidr;
    for (const component of ["mirror", "reader"]) {
      const mine = policies.filter((p) => p.spec.podSelector.matchLabels["app.kubernetes.io/component"] === component);
      assert(mine.some((p) => p.spec.policyTypes.includes("Egress")), `${where} ${component}: egress is restricted`);
      for (const rule of mine.flatMap((p) => p.spec.egress ?? [])) {
        assert(rule.to?.length > 0 && rule.ports?.length > 0, `${where} ${component}: no open egress rule`);
        for (const peer of rule.to) {
          const toMirror = peer.podSelector?.matchLabels?.["app.kubernetes.io/component"] === "mirror" &&
            !peer.namespaceSelector;
          const toOrigin = peer.ipBlock?.cidr === origin;
          assert(
            isDns(peer) || toOrigin || (component === "reader" && toMirror),
            `${where} ${component}: ${JSON.stringify(peer)}`,
          );
          if (isDns(peer)) {
            assertEquals(rule.ports.map((p: KubeObject) => `${p.protocol}/${p.port}`).sort(), ["TCP/53", "UDP/53"]);
          }
          if (toMirror) assertEquals(rule.ports, [{ port: 8686, protocol: "TCP" }]);
        }
      }
    }
    assert(!/0\.0\.0\.0\/0|::\/0/.test(JSON.stringify(policies)), `${where}: no policy opens every address`);
    const reader = named(objects, "NetworkPolicy", "svc-reader");
    assertEquals(reader.spec.ingress, [{ ports: [{ port: 8686, protocol: "TCP" }] }]);
    const mirror = named(objects, "NetworkPolicy", "svc-mirror");
    assertEquals(mirror.spec.ingress[0].from[0].podSelector.matchLabels["app.kubernetes.io/component"], "reader");
    const keys = named(objects, "NetworkPolicy", "svc-reader-origin-keys");
    assertEquals(keys.spec.egress[0].to[0].ipBlock.cidr, origin, `${where}: readers reach the same origin block`);
  }
  assertEquals(named(overlay, "NetworkPolicy", "svc-mirror").spec.egress[0].to[0].ipBlock.cidr, "203.0.113.0/24");
});
