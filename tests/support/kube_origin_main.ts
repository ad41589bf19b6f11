/**
 * The test origin as a pod's process, for the `podman kube play` test:
 * `deno run -A kube_origin_main.ts STORE SEED URL` serves STORE with the
 * origin's behaviour (`origin_app.ts`) on every address, at the port of URL,
 * signing for URL (the name the other pods reach it by), and prints
 * `origin on URL` on stderr once it listens. It runs inside the svc image
 * with `tests/` mounted beside the image's own `src/`, so it needs no network
 * and nothing the image does not hold.
 *
 * @module
 */
import process from "node:process";
import { originApp } from "./origin_app.ts";

const [store, seed, url] = process.argv.slice(2);
const app = await originApp({ store, seed, origin: url });
const server = Deno.serve(
  { hostname: "0.0.0.0", port: Number(new URL(url).port), onListen: () => process.stderr.write(`origin on ${url}\n`) },
  (req) => app.handle(req),
);
process.on("SIGTERM", async () => {
  await server.shutdown();
  await app.close();
  process.exit(0);
});
