/**
 * The reference of the `healthz` benchmark: a bare `Deno.serve` answering
 * every request with the body and header fields given (as JSON, in the
 * environment variable `BARE_ANSWER`), printing `listening on <port>`.
 *
 * @module
 */
const { body, headers } = JSON.parse(Deno.env.get("BARE_ANSWER") ?? "{}") as {
  body: string;
  headers: Record<string, string>;
};
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening on ${port}`),
}, () => new Response(body, { headers }));
