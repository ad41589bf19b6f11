/**
 * The container's memory limit, read for the entrypoint, which Deno lets
 * read neither `/proc/self` nor `/sys` without every permission: a short
 * `deno eval` (which has them; the entrypoint may already run Deno as it
 * likes) reads the cgroup and prints it.
 *
 * @module
 */

/**
 * The cgroup's memory limit in bytes, or null when there is none or it could
 * not be learnt.
 *
 * @example
 * ```ts ignore
 * import { containerMemoryLimit } from "./memory_limit.ts";
 * await containerMemoryLimit("/usr/local/bin/deno"); // 536870912 under podman run --memory 512m
 * ```
 */
export async function containerMemoryLimit(deno: string): Promise<number | null> {
  const reader = new URL("../launch/mod.ts", import.meta.url).href;
  const code = `import { cgroupMemoryLimitWith } from ${JSON.stringify(reader)};\n` +
    `const read = (path) => { try { return Deno.readTextFileSync(path); } catch { return null; } };\n` +
    `console.log(cgroupMemoryLimitWith(read) ?? "none");\n`;
  try {
    const out = await new Deno.Command(deno, {
      args: ["eval", "--quiet", "--no-config", code],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      clearEnv: true,
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    return out.success && /^\d+$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}
