/**
 * Playing rendered Kubernetes manifests with podman 4.3's `kube play`, as
 * honestly as it allows. It plays Pods, Deployments (one replica each),
 * PersistentVolumeClaims (as named volumes) and ConfigMaps, and neither
 * Services, PodDisruptionBudgets nor NetworkPolicies. Its Secret support is
 * broken (a played Secret is stored in a form its own `secretKeyRef` cannot
 * read, and a `secret` volume crashes it: podman#17071), so a Secret becomes
 * a podman secret holding the Secret's `data` as JSON, which is the form its
 * `secretKeyRef` reads. It publishes every `containerPort` on the host's
 * port of the same number, which a cluster never does and which makes a
 * second pod with the same port fail to start, so the pods played here have
 * no `ports` list (the probes name their port by number for that reason).
 * A ConfigMap mounted as a volume becomes a named volume of the ConfigMap's
 * name, left behind by `podman pod rm`. Pods reach each other by pod name
 * through the network's DNS (`podman network create` with the dnsname
 * plugin).
 *
 * @module
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type KubeObject, toYamlStream } from "./kube_manifests.ts";
import { podman, podmanOk } from "./podman.ts";

/** The kinds `podman kube play` runs. */
export const PLAYED_KINDS = ["ConfigMap", "Deployment", "PersistentVolumeClaim", "Pod"];

/** The pod podman names for Deployment `name` (one replica: `NAME-pod-0`). */
export const deploymentPod = (name: string): string => `${name}-pod-0`;

/** Creates a podman network with DNS for pods; fails saying what to install when DNS is off. */
export async function createNetwork(name: string): Promise<void> {
  await podman(["network", "rm", "-f", name]);
  await podmanOk(["network", "create", name]);
  const dns = await podmanOk(["network", "inspect", name, "--format", "{{.DNSEnabled}}"]);
  if (dns.stdout.trim() !== "true") {
    throw new Error(
      "podman's network has no DNS: install Debian's golang-github-containernetworking-plugin-dnsname (CNI backend)",
    );
  }
}

/** Creates every Secret of `objects` as a podman secret of the same name; resolves with the names. */
export async function createSecrets(objects: KubeObject[], dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const secret of objects.filter((o) => o.kind === "Secret")) {
    const name: string = secret.metadata.name;
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(secret.data), { mode: 0o600 });
    await podman(["secret", "rm", name]);
    await podmanOk(["secret", "create", name, file]);
    names.push(name);
  }
  return names;
}

/** `deployment` as podman plays it: one replica, under `name`, with no host ports. */
export function forPodman(deployment: KubeObject, name: string): KubeObject {
  const copy = structuredClone(deployment);
  copy.metadata.name = name;
  copy.spec.replicas = 1;
  for (const c of copy.spec.template.spec.containers) delete c.ports;
  return copy;
}

/** The ConfigMaps `deployment` mounts as volumes, which podman keeps as named volumes. */
export function configMapVolumes(deployment: KubeObject): string[] {
  return deployment.spec.template.spec.volumes.filter((v: KubeObject) => v.configMap).map((v: KubeObject) =>
    v.configMap.name
  );
}

/** Plays `objects` (only kinds in {@linkcode PLAYED_KINDS}) on `network`, from a file `file` under `dir`. */
export async function play(objects: KubeObject[], network: string, dir: string, file: string): Promise<void> {
  const other = objects.filter((o) => !PLAYED_KINDS.includes(o.kind)).map((o) => o.kind);
  if (other.length > 0) throw new Error(`podman kube play does not run ${other.join(", ")}`);
  const path = join(dir, file);
  await writeFile(path, toYamlStream(objects));
  await podmanOk(["kube", "play", "--network", network, path], 180_000);
}

/** The address of `pod` on its network. */
export async function podAddress(pod: string): Promise<string> {
  const infra = (await podmanOk(["pod", "inspect", pod, "--format", "{{.InfraContainerID}}"])).stdout.trim();
  const ran = await podmanOk([
    "inspect",
    infra,
    "--format",
    "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
  ]);
  const address = ran.stdout.trim();
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(address)) throw new Error(`${pod} has no address: ${JSON.stringify(address)}`);
  return address;
}

/** The logs of every container of `pod`, for a failure's message. */
export async function podLogs(pod: string): Promise<string> {
  const ps = await podman(["ps", "-a", "--filter", `pod=${pod}`, "--format", "{{.Names}}"]);
  const out: string[] = [];
  for (const name of ps.stdout.split("\n").filter((n) => n && !n.endsWith("-infra"))) {
    const logs = await podman(["logs", "--tail", "40", name]);
    out.push(`--- ${name}\n${logs.stdout}${logs.stderr}`);
  }
  return out.join("\n");
}
