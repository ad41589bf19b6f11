/**
 * Kubernetes manifests for tests: rendered by `kubectl kustomize`, parsed with
 * `yaml`, and checked against the Kubernetes API's schemas with
 * `kubernetes-models` (JSON schemas generated from the Kubernetes OpenAPI
 * document, compiled by ajv; see `kubernetes_models.ts`).
 *
 * Like kubeconform without `-strict`, the schemas reject wrong types, missing
 * required fields and unknown enum values, not unknown field names (the
 * OpenAPI document allows them): tests assert the fields that matter by name.
 *
 * @module
 */
import { parseAllDocuments, stringify } from "./yaml.ts";
import {
  ConfigMap,
  Deployment,
  Namespace,
  NetworkPolicy,
  PersistentVolumeClaim,
  PodDisruptionBudget,
  Secret,
  Service,
} from "./kubernetes_models.ts";
import type { Json } from "./assert.ts";

/** A Kubernetes object as parsed from YAML. */
export type KubeObject = Json;

/** The validating model of each kind the manifests use, by `apiVersion/kind`. */
const MODELS: Record<string, new (data: KubeObject) => { validate(): void }> = {
  "v1/ConfigMap": ConfigMap,
  "v1/Namespace": Namespace,
  "v1/PersistentVolumeClaim": PersistentVolumeClaim,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
};

/**
 * Checks `object` against the Kubernetes API schema of its kind; throws with
 * the validator's message when it does not conform, or when the kind is not
 * one the manifests are expected to hold.
 */
export function validateObject(object: KubeObject): void {
  const key = `${object?.apiVersion}/${object?.kind}`;
  const Model = MODELS[key];
  if (!Model) throw new Error(`no schema for ${key}: not a kind these manifests use`);
  new Model(object).validate();
}

/** Parses a stream of YAML documents (`---` separated) into objects; throws on any YAML error. */
export function parseYamlStream(text: string): KubeObject[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`YAML: ${doc.errors[0].message}`);
    return doc.toJS();
  }).filter((o) => o !== null);
}

/** Objects as a YAML stream, as `kubectl` and `podman kube play` read it. */
export function toYamlStream(objects: KubeObject[]): string {
  return objects.map((o) => stringify(o)).join("---\n");
}

/** Fails with what to install when `kubectl` is not on the PATH. */
export async function requireKubectl(): Promise<void> {
  const ran = await new Deno.Command("kubectl", { args: ["version", "--client"], stdout: "null", stderr: "null" })
    .output()
    .catch(() => null);
  if (ran?.code !== 0) {
    throw new Error(
      "kubectl is missing: install Debian's kubectl (apt-get install kubectl), which renders kustomizations",
    );
  }
}

/** Renders the kustomization in `dir` with `kubectl kustomize`; the objects it yields. */
export async function kustomize(dir: string): Promise<KubeObject[]> {
  await requireKubectl();
  const ran = await new Deno.Command("kubectl", { args: ["kustomize", dir], stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder();
  if (ran.code !== 0) throw new Error(`kubectl kustomize ${dir} exited ${ran.code}: ${text.decode(ran.stderr)}`);
  return parseYamlStream(text.decode(ran.stdout));
}
