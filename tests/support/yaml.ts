/**
 * yaml, for tests only: reads the Kubernetes manifests `kubectl kustomize`
 * renders and writes the ones `podman kube play` reads. It is imported here
 * by its full npm specifier, pinned, so that it is in no import map nor the
 * runtime's lock file (`deno.lock`); the tests' lock file (`deno.dev.lock`)
 * pins it.
 *
 * @module
 */
export { parseAllDocuments, stringify } from "npm:yaml@2.9.1";
