/**
 * kubernetes-models, for tests only: a class per Kubernetes kind whose
 * `validate()` checks an object against the JSON schema generated from the
 * Kubernetes OpenAPI document (compiled by ajv). It is imported here by its
 * full npm specifier, pinned, so that it is in no import map nor the
 * runtime's lock file (`deno.lock`); the tests' lock file (`deno.dev.lock`)
 * pins it.
 *
 * @module
 */
export { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from "npm:kubernetes-models@5.1.0/v1";
export { Deployment } from "npm:kubernetes-models@5.1.0/apps/v1";
export { PodDisruptionBudget } from "npm:kubernetes-models@5.1.0/policy/v1";
export { NetworkPolicy } from "npm:kubernetes-models@5.1.0/networking.k8s.io/v1";
