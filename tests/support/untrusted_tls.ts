/**
 * An HTTPS server whose certificate no CA here trusts, as a TLS-intercepting
 * proxy presents one: a CA made for the test with openssl signs the
 * server's certificate (for 127.0.0.1), and nobody but whoever is handed
 * that CA's file trusts it. It answers every request 404.
 *
 * @module
 */
import { join } from "node:path";
import { tempDir } from "./store_fixture.ts";

/** A running untrusted HTTPS server. */
export interface UntrustedTls {
  /** Its origin, `https://127.0.0.1:PORT`. */
  url: string;
  /** The CA certificate (PEM) that signed its certificate: what `DENO_CERT` or `NODE_EXTRA_CA_CERTS` would name. */
  caFile: string;
  /** Paths the server was asked for. */
  asked: string[];
  /** Stops the server and removes its files. */
  close(): Promise<void>;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
}

/** Makes a CA and a server certificate it signs for 127.0.0.1, and serves HTTPS with it on a free port. */
export async function untrustedTls(): Promise<UntrustedTls> {
  const dir = await tempDir("svc-tls-");
  const days = "2";
  await openssl([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    days,
    "-subj",
    "/CN=svc test CA",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
  ], dir.path);
  await openssl([
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    "/CN=127.0.0.1",
    "-keyout",
    "server.key",
    "-out",
    "server.csr",
  ], dir.path);
  await Deno.writeTextFile(join(dir.path, "ext.cnf"), "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n");
  await openssl([
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    days,
    "-extfile",
    "ext.cnf",
    "-out",
    "server.pem",
  ], dir.path);
  const asked: string[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: await Deno.readTextFile(join(dir.path, "server.pem")),
    key: await Deno.readTextFile(join(dir.path, "server.key")),
    onListen: () => {},
    // A handshake the client refuses is no error of the server's.
    onError: () => new Response("error", { status: 500 }),
  }, (req) => {
    asked.push(new URL(req.url).pathname);
    return Response.json({ error: "not found" }, { status: 404 });
  });
  return {
    url: `https://127.0.0.1:${server.addr.port}`,
    caFile: join(dir.path, "ca.pem"),
    asked,
    close: async () => {
      await server.shutdown();
      await dir.cleanup();
    },
  };
}
