/**
 * The listener under Deno: `Deno.listen` with an accept loop of our own.
 * Running out of descriptors makes `accept()` fail while the connection
 * stays queued, so the loop keeps one descriptor in reserve: it lets go of
 * it to take the queued connection, closes that at once (the peer sees the
 * connection closed instead of waiting forever), and takes the reserve back.
 *
 * @module
 */
import type { Conn, Listen } from "../http/mod.ts";

interface DenoConn {
  readonly remoteAddr: { hostname?: string };
  read(p: Uint8Array): Promise<number | null>;
  write(p: Uint8Array): Promise<number>;
  closeWrite(): Promise<void>;
  close(): void;
  setNoDelay?(noDelay?: boolean): void;
}

interface DenoListener {
  readonly addr: { hostname: string; port: number };
  accept(): Promise<DenoConn>;
  close(): void;
}

/** What Deno's `statSync` and `lstatSync` say of a path, as far as the runtime seam reads it. */
export interface DenoFileInfo {
  size: number;
  isFile: boolean;
  isSymlink: boolean;
  ino: number | null;
  mtime: Date | null;
}

/** The part of the `Deno` global the runtime seam uses (typed here so tsc builds without Deno's types). */
export interface DenoGlobal {
  listen(options: { hostname: string; port: number; transport?: "tcp" }): DenoListener;
  openSync(path: string, options?: { read?: boolean }): { close(): void };
  statSync(path: string): DenoFileInfo;
  lstatSync(path: string): DenoFileInfo;
  addSignalListener(signal: "SIGINT" | "SIGTERM", fn: () => void): void;
  exit(code: number): never;
  execPath(): string;
}

/** The `Deno` global, when running under Deno. */
export function denoGlobal(): DenoGlobal | undefined {
  return (globalThis as { Deno?: DenoGlobal }).Deno;
}

const READ_BYTES = 64 * 1024;

function denoConn(conn: DenoConn): Conn {
  try {
    conn.setNoDelay?.(true);
  } catch { /* not a TCP connection */ }
  let closed = false;
  const buf = new Uint8Array(READ_BYTES);
  return {
    remoteAddr: conn.remoteAddr.hostname ?? "-",
    async read() {
      if (closed) return null;
      try {
        const n = await conn.read(buf);
        return n === null ? null : buf.slice(0, n);
      } catch {
        return null;
      }
    },
    async write(bytes) {
      let at = 0;
      while (at < bytes.length) {
        if (closed) throw new Error("the connection is closed");
        at += await conn.write(at === 0 ? bytes : bytes.subarray(at));
      }
    },
    closeWrite() {
      if (!closed) conn.closeWrite().catch(() => {});
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        conn.close();
      } catch { /* already closed */ }
    },
  };
}

function outOfDescriptors(e: unknown): boolean {
  const message = String((e as Error)?.message ?? e);
  return /os error (23|24)\b|EMFILE|ENFILE|too many open files/i.test(message);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Listens with `Deno.listen` (`deno` is the `Deno` global).
 *
 * @example
 * ```ts
 * import { listenDeno } from "./deno.ts";
 * const listener = await listenDeno(Deno)({ hostname: "127.0.0.1", port: 0 }, (conn) => conn.close(), console.error);
 * ```
 */
export function listenDeno(deno: DenoGlobal): Listen {
  return (options, onConn, onError) => {
    const listener = deno.listen({ hostname: options.hostname, port: options.port, transport: "tcp" });
    // Without leave to open /dev/null (narrowed permissions) there is no reserve, and nothing to turn away for it.
    let reserveUsable = true;
    const takeReserve = () => {
      try {
        return deno.openSync("/dev/null", { read: true });
      } catch (e) {
        if (!outOfDescriptors(e)) reserveUsable = false;
        return null;
      }
    };
    let reserve = takeReserve();
    let closed = false;
    void (async () => {
      let backoff = 10;
      while (!closed) {
        let conn: DenoConn;
        try {
          conn = await listener.accept();
        } catch (e) {
          if (closed) break;
          onError(e instanceof Error ? e : new Error(String(e)));
          if (!outOfDescriptors(e) || reserve === null) {
            await sleep(backoff);
            backoff = Math.min(1000, backoff * 2);
            continue;
          }
          // Let go of the reserve so the queued connection can be taken at all.
          reserve.close();
          reserve = null;
          try {
            conn = await listener.accept();
          } catch {
            reserve = takeReserve();
            continue;
          }
        }
        backoff = 10;
        if (reserveUsable) reserve ??= takeReserve();
        if (reserve === null && reserveUsable) {
          // Still out of descriptors: this one is turned away so the queue does not wedge.
          conn.close();
          continue;
        }
        onConn(denoConn(conn));
      }
    })();
    return Promise.resolve({
      addr: { hostname: listener.addr.hostname, port: listener.addr.port },
      close() {
        if (closed) return;
        closed = true;
        reserve?.close();
        try {
          listener.close();
        } catch { /* already closed */ }
      },
    });
  };
}
