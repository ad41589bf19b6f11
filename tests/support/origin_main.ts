/**
 * The test origin as a process of its own, for end-to-end tests with several
 * processes: `deno run -A origin_main.ts STORE SEED` serves the store with the
 * origin's behaviour, prints `origin on http://127.0.0.1:PORT` on stderr, and
 * takes test controls at `POST /_test/rotate` (`{"seed"}`) and
 * `POST /_test/revoke` (`{"kid"}`). `SVC_TEST_SCREEN_MS` sets how long a
 * contribution made by an upload waits before it is screened.
 *
 * @module
 */
import process from "node:process";
import { startOrigin } from "./origin.ts";

const [store, seed] = process.argv.slice(2);
const screenMs = process.env.SVC_TEST_SCREEN_MS ? Number(process.env.SVC_TEST_SCREEN_MS) : undefined;
const origin = await startOrigin({ store, seed, screenMs });
const controls = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
  const path = new URL(req.url).pathname;
  const body = await req.json();
  if (path === "/_test/rotate") return Response.json(await origin.app!.rotate(body.seed));
  if (path === "/_test/revoke") {
    origin.app!.revoke(body.kid);
    return Response.json({ ok: true });
  }
  return new Response("no such control", { status: 404 });
});
process.stderr.write(
  `origin on ${origin.url} (controls on http://127.0.0.1:${controls.addr.port}) kid ${origin.app!.current()!.kid}\n`,
);
process.on("SIGTERM", async () => {
  await controls.shutdown();
  await origin.close();
  process.exit(0);
});
