/**
 * Whether this process runs under narrowed Deno permissions (as the
 * container's node does): asked of Deno itself. Never under Node, which has
 * no such permissions.
 *
 * @module
 */

/** The part of the `Deno` global used here (typed here so tsc builds without Deno's types). */
interface DenoPermissions {
  permissions: { querySync(descriptor: { name: "read" }): { state: string } };
}

/**
 * Whether Deno withholds this process some leave to read (started without a
 * bare `--allow-read` or `-A`); false under Node.
 *
 * @example
 * ```ts
 * import { permissionsNarrowed } from "./narrowed.ts";
 * permissionsNarrowed(); // false under `deno test -A`
 * ```
 */
export function permissionsNarrowed(): boolean {
  return narrowed ??= askNarrowed();
}

// Asked once: the node never revokes a permission, and `/healthz` asks on every call.
let narrowed: boolean | undefined;

function askNarrowed(): boolean {
  const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
  if (!deno) return false;
  try {
    return deno.permissions.querySync({ name: "read" }).state !== "granted";
  } catch {
    return false;
  }
}
