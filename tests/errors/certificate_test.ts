/**
 * An untrusted certificate told apart from other failures, in the shapes
 * Deno's and Node's own `fetch` fail with against a server whose CA nobody
 * trusts, and the advice naming the variable of each runtime.
 *
 * @module
 */
import { certificateFailure, untrustedCertificate } from "../../src/errors/mod.ts";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { untrustedTls } from "../support/untrusted_tls.ts";

Deno.test("Deno's and Node's fetch of an untrusted server fail as an untrusted certificate; other failures do not", async () => {
  const tls = await untrustedTls();
  try {
    const deno = await fetch(`${tls.url}/x`).then(() => null, (e) => e);
    assertEquals(untrustedCertificate(deno), "invalid peer certificate: UnknownIssuer");
    const said = certificateFailure(deno, "deno")!;
    assertMatch(said, new RegExp(`^cannot connect to ${tls.url}: its TLS certificate is not trusted \\(invalid peer`));
    assertMatch(said, /set DENO_CERT to the proxy's CA certificate/);

    // Node's fetch (undici): a TypeError whose cause carries OpenSSL's code.
    const script = `fetch(${JSON.stringify(`${tls.url}/x`)}).then(() => console.log("null"), (e) =>
      console.log(JSON.stringify({ message: e.message, cause: { message: e.cause?.message, code: e.cause?.code } })))`;
    const out = await new Deno.Command("node", { args: ["-e", script], stdout: "piped", stderr: "piped" }).output();
    const shape = JSON.parse(new TextDecoder().decode(out.stdout));
    const node = Object.assign(new TypeError(shape.message), {
      cause: Object.assign(new Error(shape.cause.message), { code: shape.cause.code }),
    });
    assertEquals(untrustedCertificate(node), "UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    assertMatch(certificateFailure(node, "node")!, /set NODE_EXTRA_CA_CERTS to the proxy's CA certificate/);

    // Trusting the CA mends it: the answer is the server's.
    const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(tls.caFile)] });
    const res = await fetch(`${tls.url}/x`, { client });
    assertEquals(res.status, 404);
    await res.body?.cancel();
    client.close();
  } finally {
    await tls.close();
  }
  const refused = await fetch("http://127.0.0.1:1/").then(() => null, (e) => e);
  assertEquals(untrustedCertificate(refused), null);
  assertEquals(untrustedCertificate(new Error("invalid peer certificate: NotValidForName")), null, "no CA mends it");
});

Deno.test("Deno's failed npm download names the package and the registry", () => {
  const e = new Error(
    "Failed caching npm package 'escape-html@1.0.3'\n    0: error sending request for url " +
      "(https://proxy.corp:8443/escape-html/-/escape-html-1.0.3.tgz): client error (Connect): " +
      "invalid peer certificate: UnknownIssuer",
  );
  const said = certificateFailure(e, "deno")!;
  assert(
    said.startsWith("cannot download the npm package escape-html@1.0.3 from https://proxy.corp:8443: its TLS "),
    said,
  );
  assertEquals(certificateFailure(new Error("Failed caching npm package 'x@1': 404"), "deno"), null);
});
