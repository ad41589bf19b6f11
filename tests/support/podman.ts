/**
 * podman for the image tests: running it, and building the image under test
 * (`localhost/svc:image-test`) from the Dockerfile once per test process,
 * whichever test asks first. Needs podman configured as
 * `scripts/container/prepare.sh` does.
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { ROOT } from "./cli_process.ts";

/** The image the image tests build and run. */
export const TEST_IMAGE = "localhost/svc:image-test";

/** A finished podman command. */
export interface Ran {
  /** Exit code. */
  code: number;
  /** Everything on stdout. */
  stdout: string;
  /** Everything on stderr, less podman's complaints that it has no systemd for health-check timers. */
  stderr: string;
  /** How long it took. */
  ms: number;
}

/** Runs `podman args...` to completion (killed after `timeoutMs`). */
export async function podman(args: string[], timeoutMs = 120_000): Promise<Ran> {
  const started = performance.now();
  const out = await new Deno.Command("podman", {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).output();
  const text = new TextDecoder();
  return {
    code: out.code,
    stdout: text.decode(out.stdout),
    stderr: text.decode(out.stderr).split("\n").filter((l) => !/systemd/.test(l)).join("\n"),
    ms: performance.now() - started,
  };
}

/** Runs `podman args...`; throws with its output unless it exits 0. */
export async function podmanOk(args: string[], timeoutMs?: number): Promise<Ran> {
  const ran = await podman(args, timeoutMs);
  if (ran.code !== 0) throw new Error(`podman ${args.join(" ")} exited ${ran.code}\n${ran.stderr}\n${ran.stdout}`);
  return ran;
}

/** `SVC_IMAGE_BASE`, which `scripts/container/prepare.sh` sets; throws saying so when it is not set. */
export function imageBase(): string {
  const base = Deno.env.get("SVC_IMAGE_BASE");
  if (!base) throw new Error('SVC_IMAGE_BASE is not set: run eval "$(scripts/container/prepare.sh)" first');
  return base;
}

/** Set in this process's environment, which every test module's worker shares, once the image is built. */
const BUILT = "SVC_TEST_IMAGE_BUILT";

let building: Promise<{ ms: number }> | null = null;

/**
 * Builds {@linkcode TEST_IMAGE} from the Dockerfile on `base` (with the
 * machine's CA bundle as the build's `ca_bundle` secret when it has one), once
 * per test process: a later call, from any test module of the same
 * `deno test` run, finds the image it built (by id) and resolves at once
 * (`ms` 0). A build whose layers are all cached still takes most of a minute
 * here, sending the context.
 */
export function buildTestImage(base: string = imageBase()): Promise<{ ms: number }> {
  building ??= (async () => {
    const id = async () => (await podman(["image", "inspect", TEST_IMAGE, "--format", "{{.Id}}"])).stdout.trim();
    const built = Deno.env.get(BUILT);
    if (built && built === await id()) return { ms: 0 };
    const ca = "/etc/ssl/certs/ca-certificates.crt";
    const secret = await stat(ca).then(() => ["--secret", `id=ca_bundle,src=${ca}`], () => []);
    const ran = await podmanOk(
      ["build", "--format", "docker", ...secret, "--build-arg", `BASE=${base}`, "-t", TEST_IMAGE, ROOT],
      900_000,
    );
    Deno.env.set(BUILT, await id());
    return { ms: ran.ms };
  })();
  return building;
}
