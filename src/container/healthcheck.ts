/**
 * The image's health check: `GET /healthz` on `$SVC_NODE_PORT` (default
 * 8686) of the container's own loopback; exit 0 when the node answers 200
 * with `ok: true` within 4 seconds, else 1.
 *
 * ```sh
 * deno run --allow-net=127.0.0.1 --allow-env=SVC_NODE_PORT src/container/healthcheck.ts
 * ```
 *
 * @module
 */
import process from "node:process";
import { CONTAINER_PORT } from "./layout.ts";

/**
 * Asks the node at `port` whether it is healthy; resolves with the exit code
 * and a line for the health log.
 *
 * @example
 * ```ts
 * import { checkHealth } from "./healthcheck.ts";
 * const { code, line } = await checkHealth(8686);
 * ```
 */
export async function checkHealth(port: number, timeoutMs = 4000): Promise<{ code: number; line: string }> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.json().catch(() => null) as { ok?: boolean } | null;
    if (res.status === 200 && body?.ok === true) return { code: 0, line: "healthy" };
    return { code: 1, line: `unhealthy: /healthz answered ${res.status}` };
  } catch (e) {
    return { code: 1, line: `unhealthy: ${(e as Error).message}` };
  }
}

if (import.meta.main) {
  const port = Number(process.env.SVC_NODE_PORT || CONTAINER_PORT);
  const { code, line } = await checkHealth(port);
  process.stdout.write(line + "\n");
  process.exit(code);
}
