/**
 * The HTTP parser is as strict as Node's (llhttp) on the same bytes: every
 * case of `_framing_cases.ts` is sent to this server, on both runtimes'
 * listeners, and to Node's own HTTP server under Node, and their verdicts
 * compared. A case both take must give the same requests (method, target
 * as sent, body); a case llhttp refuses must be refused here; a case this
 * server refuses and llhttp takes must say why in the table.
 *
 * @module
 */
import { connect } from "node:net";
import { assertEquals } from "../support/assert.ts";
import { type Listen, serveHttp, type ServeInfo } from "../../src/http/mod.ts";
import { listenDeno } from "../../src/runtime/deno.ts";
import { listenNode } from "../../src/runtime/node.ts";
import { FRAMING_CASES } from "./_framing_cases.ts";

/** What a server made of a case's bytes. */
interface Verdict {
  /** Whether it refused the bytes (an error status, or closing without an answer). */
  refused: boolean;
  /** The requests that reached the handler whole, in order. */
  requests: { method: string; target: string; body: string }[];
}

const PROBE = new URL("../support/llhttp_probe.mjs", import.meta.url);

async function echo(req: Request, info?: ServeInfo): Promise<Response> {
  const body = req.body ? new TextDecoder("latin1").decode(await req.arrayBuffer()) : "";
  return Response.json({ method: req.method, target: info?.target, body });
}

/** Node's verdicts, from its own server under Node. */
async function llhttpVerdicts(): Promise<Verdict[]> {
  const child = new Deno.Command("node", { args: [PROBE.pathname], stdin: "piped", stdout: "piped" }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(FRAMING_CASES.map((c) => c.bytes))));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error("the llhttp probe failed");
  const raw: { statuses: number[]; error: string | null; requests: Verdict["requests"] }[] = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  return raw.map((r) => ({
    refused: r.error !== null || r.statuses.length === 0 || r.statuses.some((s) => s >= 400),
    requests: r.requests,
  }));
}

/** Sends `bytes`, ends the sending side after a moment, and resolves with everything that came back. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.on("data", (d: Uint8Array) => (got += String.fromCharCode(...d)));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on("error", () => {});
    socket.on("connect", () => {
      socket.write(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));
      setTimeout(() => socket.end(), 150);
    });
  });
}

/** This server's verdicts, on the listener `listen`. */
async function svcVerdicts(listen: Listen): Promise<Verdict[]> {
  const server = await serveHttp(listen, echo, { hostname: "127.0.0.1", port: 0, log: () => {} });
  const verdict = async (bytes: string): Promise<Verdict> => {
    const text = await exchange(server.addr.port, bytes);
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    const requests = [...text.matchAll(/\{"method":.*?"body":"(?:[^"\\]|\\.)*"\}/g)].map((m) => JSON.parse(m[0]));
    return { refused: statuses.length === 0 || statuses.some((s) => s >= 400), requests };
  };
  try {
    // In batches well under the server's connection cap, which would otherwise answer some cases 503.
    const verdicts: Verdict[] = [];
    for (let i = 0; i < FRAMING_CASES.length; i += 16) {
      verdicts.push(...await Promise.all(FRAMING_CASES.slice(i, i + 16).map((c) => verdict(c.bytes))));
    }
    return verdicts;
  } finally {
    await server.shutdown();
  }
}

const LISTENERS: [string, Listen][] = [["Deno.listen", listenDeno(Deno)], ["node:net", listenNode]];

for (const [name, listen] of LISTENERS) {
  Deno.test(`${name}: ${FRAMING_CASES.length} framing cases get llhttp's verdict, or a stricter one that says why`, async () => {
    const [theirs, ours] = await Promise.all([llhttpVerdicts(), svcVerdicts(listen)]);
    const differences: string[] = [];
    FRAMING_CASES.forEach((c, i) => {
      const [node, svc] = [theirs[i], ours[i]];
      const seen = `llhttp ${JSON.stringify(node)}, svc ${JSON.stringify(svc)}`;
      if (c.stricter !== undefined) {
        if (node.refused || !svc.refused) differences.push(`${c.name}: said to be stricter, but ${seen}`);
      } else if (c.differs !== undefined) {
        if (node.refused === svc.refused && JSON.stringify(node) === JSON.stringify(svc)) {
          differences.push(`${c.name}: said to differ, but both agree: ${seen}`);
        }
      } else if (node.refused !== svc.refused || JSON.stringify(node.requests) !== JSON.stringify(svc.requests)) {
        differences.push(`${c.name}: ${seen}`);
      }
    });
    assertEquals(differences, []);
  });
}
