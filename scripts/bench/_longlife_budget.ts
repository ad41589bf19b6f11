/**
 * The long-lived store under a small budget: `svc serve --memory 512MiB`
 * inside a 512 MiB memory cgroup, over a project of many versions, 30 s of
 * pages, SQL and contributions from four clients at once; every answer's
 * status counted, and whether the kernel killed anything.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { memoryCgroup } from "./_cgroup.ts";
import { printTable, verdict } from "./_util.ts";

const MIB = 1024 ** 2;
const SECONDS = 30;
const CLIENTS = 4;
const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));

async function urlOf(child: Deno.ChildProcess): Promise<{ url: string; log: () => string }> {
  let text = "";
  const dec = new TextDecoder();
  const reader = child.stderr.getReader();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
    const m = / on (http:\/\/\S+) \(/.exec(text);
    if (m) {
      // Keep reading what the node says, so its pipe never fills.
      (async () => {
        for (;;) {
          const next = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (next.done) return;
          text += dec.decode(next.value, { stream: true });
        }
      })();
      return { url: m[1], log: () => text };
    }
  }
  throw new Error(`svc serve did not start:\n${text}`);
}

/** Runs the load and answers the verdict line. */
export async function budgetedLoad(store: string, slug: string): Promise<string> {
  const group = await memoryCgroup(512 * MIB);
  const child = group.spawn(Deno.execPath(), [
    "run",
    "-A",
    CLI,
    "serve",
    "--store",
    store,
    "--port",
    "0",
    "--memory",
    "512MiB",
    "--quiet",
  ], {
    env: { SVC_NODE_TOKEN: "" },
  });
  const statuses = new Map<string, number>();
  const count = (kind: string, status: number) =>
    statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
  let alive = true;
  child.status.then(() => (alive = false));
  try {
    const { url, log } = await urlOf(child);
    const total = Number((await (await fetch(`${url}/projects/${slug}`)).json()).latestVersion);
    const stop = Date.now() + SECONDS * 1000;
    let next = 2e9;
    const client = async (k: number) => {
      for (let i = 0; Date.now() < stop && alive; i++) {
        const pick = (i * 7 + k) % 10;
        let res: Response;
        if (pick < 6) {
          res = await fetch(`${url}/projects/${slug}/data?limit=200&offset=${(i * 9973 + k * 31) % 200_000}`);
          count("page", res.status);
        } else if (pick < 8) {
          res = await fetch(`${url}/projects/${slug}/query`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              sql: "SELECT length(text) % 7 AS k, count(*) AS n FROM records GROUP BY 1 ORDER BY 1",
            }),
          });
          count("sql", res.status);
        } else {
          const records = Array.from({ length: 1 + (i % 10) }, () => ({ id: next++, text: `budgeted ${next}` }));
          res = await fetch(`${url}/projects/${slug}/contribute`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ records }),
          });
          count("contribute", res.status);
        }
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k).catch(() => count("error", 0))));
    const health = await (await fetch(`${url}/healthz`)).json();
    printTable(["answers", "count"], [...statuses].sort().map(([k, n]) => [k, n.toLocaleString("en")]));
    const kills = await group.oomKills();
    console.log(
      `\nversions at start: ${total.toLocaleString("en")}; OOM kills in the cgroup: ${kills}; alive: ${alive}; ` +
        `held at rest: ${(health.memory.atRest / MIB).toFixed(0)} MiB, over the budget at rest: ` +
        `${health.memory.overBudgetAtRest}`,
    );
    const refused = [...statuses].filter(([k]) => / 503$/.test(k)).reduce((n, [, v]) => n + v, 0);
    const failed = [...statuses].filter(([k]) => !/ (200|201)$/.test(k)).reduce((n, [, v]) => n + v, 0);
    if (failed > 0) console.log(log().split("\n").slice(-20).join("\n"));
    return verdict(
      refused === 0 && failed === 0 && kills === 0 && alive,
      `--memory 512MiB in a 512 MiB cgroup: ${refused} answered 503, ${failed} not 200/201, ${kills} OOM kills`,
    );
  } finally {
    if (alive) child.kill("SIGTERM");
    await child.status;
    await group.remove();
  }
}
