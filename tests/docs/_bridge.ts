/**
 * Runs inside the documents' network namespace: listens on
 * `127.0.0.1:PORT` there (the proxy address the commands are given) and
 * carries each connection to the Unix socket `SOCKET`, where the test's
 * proxy outside the namespace takes it on (see `_isolation.ts`). It exits
 * when the socket is gone, and writes `READY` (a file) once it listens.
 *
 * ```sh
 * deno run --no-config --allow-net --allow-read --allow-write _bridge.ts SOCKET PORT READY
 * ```
 *
 * @module
 */

/** Copies each way between `a` and `b` until both ends are done, then closes both. */
export async function splice(a: Deno.Conn, b: Deno.Conn): Promise<void> {
  const half = (from: Deno.Conn, to: Deno.Conn) =>
    from.readable.pipeTo(to.writable, { preventClose: true }).catch(() => {}).then(() =>
      to.closeWrite().catch(() => {})
    );
  await Promise.all([half(a, b), half(b, a)]);
  for (const c of [a, b]) {
    try {
      c.close();
    } catch { /* already closed */ }
  }
}

if (import.meta.main) {
  const [socket, port, ready] = Deno.args;
  const listener = Deno.listen({ hostname: "127.0.0.1", port: Number(port) });
  await Deno.writeTextFile(ready, "ready\n");
  setInterval(() => {
    try {
      Deno.statSync(socket);
    } catch {
      Deno.exit(0);
    }
  }, 200);
  for await (const conn of listener) {
    Deno.connect({ transport: "unix", path: socket }).then((out) => splice(conn, out), () => conn.close());
  }
}
