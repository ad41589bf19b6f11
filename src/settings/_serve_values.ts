/**
 * The values of `svc serve`'s flags, each read and refused with a usage
 * error that names its flag: integers in a range, sizes, allowed hosts.
 *
 * @module
 */
import { isIP } from "node:net";
import { splitAuthority } from "../http/mod.ts";
import { DEFAULT_EXPORT_CACHE_BYTES } from "../store/mod.ts";
import { defaultSqlMemory, parseBytes } from "../sql/mod.ts";
import { UsageError } from "../errors/mod.ts";

/** `raw` as an integer from `min` to `max`, or a usage error naming `--name`. */
export function intIn(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** `--sql-memory`: at least 1 GiB; without it, the default for this machine. */
export function sqlMemory(raw: string | null): number {
  if (raw === null) return defaultSqlMemory();
  const bytes = parseBytes(raw);
  if (bytes === null || bytes < 1024 ** 3) {
    throw new UsageError(`--sql-memory must be a size of at least 1GiB, such as 2GiB, not ${JSON.stringify(raw)}`);
  }
  return bytes;
}

/** `--export-cache`: a size, 0 for none. */
export function exportCacheBytes(raw: string | null): number {
  if (raw === null) return DEFAULT_EXPORT_CACHE_BYTES;
  const bytes = parseBytes(raw);
  if (bytes === null) {
    throw new UsageError(`--export-cache must be a size such as 1GiB or 0, not ${JSON.stringify(raw)}`);
  }
  return bytes;
}

/** `--page-cache`: a size up to 64 GiB, 0 for none; null without it (the plan's share). */
export function pageCacheBytes(raw: string | null): number | null {
  if (raw === null) return null;
  const bytes = parseBytes(raw);
  if (bytes === null || bytes > 64 * 1024 ** 3) {
    throw new UsageError(`--page-cache must be a size such as 256MiB or 0, not ${JSON.stringify(raw)}`);
  }
  return bytes;
}

/** A host name or IP literal, with an optional `:port` (IPv6 in brackets when it has one). */
export function hostOk(authority: string): boolean {
  const { name, port } = splitAuthority(authority);
  if (port !== null && (port < 1 || port > 65535)) return false;
  if (port !== null && authority.includes("[") !== (isIP(name) === 6)) return false;
  return isIP(name) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9.-]{0,252}[A-Za-z0-9])?$/.test(name);
}

/** `--allow-host` values and `SVC_ALLOWED_HOSTS` (spaces or commas), each a host name or host:port. */
export function allowHostsOf(flags: string[] | undefined, env: Record<string, string | undefined>): string[] {
  const allowHosts = [...(flags ?? []), ...(env.SVC_ALLOWED_HOSTS ?? "").split(/[\s,]+/)].filter((h) => h !== "");
  for (const h of allowHosts) {
    if (!hostOk(h)) throw new UsageError(`--allow-host: ${JSON.stringify(h)} is not a host name or host:port`);
  }
  return allowHosts;
}
