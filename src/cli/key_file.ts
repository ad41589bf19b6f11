/**
 * The agent key file `svc claim` writes and `svc claim-status` reads:
 * `$XDG_CONFIG_HOME/svc/key`, else `~/.config/svc/key` (the trust file's
 * folder). The key is written with mode 0600, atomically (a temporary file
 * beside it, fsynced, renamed over it), and the temporary file is opened
 * before the claim is sent, so a folder that cannot take the key fails the
 * command before the one-time code is spent.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { unlinkSync } from "node:fs";
import { lstat, mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { syncDir } from "../store/mod.ts";
import { CliError, fileError } from "../errors/mod.ts";
import { cleanUpOnInterrupt } from "./interrupt.ts";

/**
 * The default key file for `env`.
 *
 * @example
 * ```ts
 * import { keyFilePath } from "./key_file.ts";
 * keyFilePath({ XDG_CONFIG_HOME: "/home/ada/.config" }); // "/home/ada/.config/svc/key"
 * ```
 */
export function keyFilePath(env: Record<string, string | undefined>): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "svc", "key");
}

/** A key file made ready before the claim is sent. */
export interface PendingKeyFile {
  /** Writes `key` (and a line end), fsyncs it and renames it into place. */
  write(key: string): Promise<void>;
  /** Removes the temporary file (the claim failed). */
  abandon(): Promise<void>;
}

/**
 * Makes `path` ready to take a key: refused when it exists, unless `force`
 * (and then only when it is a file); its folder made (0700) and a temporary
 * file opened beside it (0600).
 */
export async function prepareKeyFile(path: string, force: boolean): Promise<PendingKeyFile> {
  const there = await lstat(path).catch((e) => {
    if (e.code === "ENOENT") return null;
    throw fileError("use", path, e);
  });
  if (there && !force) {
    throw new CliError(
      `${path} already exists, and a claim code works once: nothing was sent (--force replaces the key file, ` +
        "--key-file names another)",
    );
  }
  if (there && !there.isFile()) throw new CliError(`${path} is not a file: nothing was sent`);
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 }).catch((e) => {
    throw fileError("make", dir, e);
  });
  const temp = join(dir, `.${basename(path)}.tmp-${randomUUID()}`);
  const handle = await open(temp, "wx", 0o600).catch((e) => {
    throw fileError("write", path, e);
  });
  // Ctrl-C while the claim is out (or the key is being written) leaves no temporary file behind.
  const withdraw = cleanUpOnInterrupt(() => unlinkSync(temp));
  let closed = false;
  const close = async () => {
    withdraw();
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    async write(key) {
      try {
        await handle.writeFile(`${key}\n`);
        await handle.sync();
        await handle.close();
        closed = true;
        await rename(temp, path);
        withdraw();
        await syncDir(dir);
      } catch (e) {
        await close().catch(() => {});
        await unlink(temp).catch(() => {});
        throw e;
      }
    },
    async abandon() {
      await close().catch(() => {});
      await unlink(temp).catch(() => {});
    },
  };
}

/**
 * The key in `path` (its first line, trimmed), or null when there is no such file.
 *
 * @example
 * ```ts
 * import { readKeyFile } from "./key_file.ts";
 * const key = await readKeyFile("/home/ada/.config/svc/key");
 * ```
 */
export async function readKeyFile(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return null;
    throw fileError("read", path, e);
  }
  const key = text.split("\n")[0].trim();
  if (!key) throw new CliError(`${path} holds no key`);
  return key;
}
