/**
 * Feeds raw request bytes to Node's own HTTP server (its parser is llhttp)
 * and reports what it made of each: the statuses it answered, the parser's
 * error code if any, and the requests whose bodies arrived whole (method,
 * target as sent, body). Run under Node: `node llhttp_probe.mjs < cases.json`
 * where the cases are a JSON array of latin1 strings; prints a JSON array.
 *
 * @module
 */
import http from "node:http";
import net from "node:net";

const input = await new Promise((resolve) => {
  let text = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (d) => (text += d));
  process.stdin.on("end", () => resolve(text));
});
const cases = JSON.parse(input);

let lastError = null;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("latin1");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ method: req.method, target: req.url, body }));
  });
  req.on("error", () => {});
});
server.on("clientError", (err, socket) => {
  lastError = err.code ?? "ERROR";
  if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  else socket.destroy();
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = server.address().port;

/** Sends `bytes`, ends the sending side after a moment, and resolves with all that came back. */
function exchange(bytes) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let got = "";
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.on("data", (d) => (got += d.toString("latin1")));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on("error", () => {});
    socket.on("connect", () => {
      socket.write(Buffer.from(bytes, "latin1"));
      setTimeout(() => socket.end(), 150);
    });
  });
}

const out = [];
for (const bytes of cases) {
  lastError = null;
  const text = await exchange(bytes);
  const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
  const requests = [...text.matchAll(/\{"method":.*?"body":"(?:[^"\\]|\\.)*"\}/g)].map((m) => JSON.parse(m[0]));
  out.push({ statuses, error: lastError, requests });
}
server.close();
process.stdout.write(JSON.stringify(out));
