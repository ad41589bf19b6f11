/**
 * The part of benchmark `longlife` that holds a contribution's cost at the
 * last checkpoint against a young project's in the same store and the same
 * minute: the same batches, sent to the two projects in turn (which goes
 * first alternating), so a machine busier at one checkpoint than another
 * cannot pass for history.
 *
 * @module
 */
import { createNode } from "../../src/node/mod.ts";
import { noteBatches } from "./_longlife_batches.ts";
import { fmtMs, percentile, verdict } from "./_util.ts";

/** Contributions sent to each project. */
const PAIRED = 1_000;

/**
 * Sends {@linkcode PAIRED} batches of 1-10 records each to project `old`
 * of the store at `root` and to a young project made there for the purpose,
 * in turn, in-process; prints both projects' p50 and p99 and answers the
 * verdict (the old project's p99 within 1.5x of the young one's).
 *
 * @example
 * ```ts ignore
 * import { pairedContributions } from "./_longlife_paired.ts";
 * console.log(await pairedContributions("bench-data/.longlife-all", "life", 100_000));
 * ```
 */
export async function pairedContributions(root: string, old: string, versions: number): Promise<string> {
  const node = await createNode({ store: root, host: "127.0.0.1", token: null, log: null, metrics: false });
  const call = async (path: string, body: unknown) => {
    const res = await node.handler(
      new Request(`http://127.0.0.1:8686${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      { remoteAddr: "127.0.0.1" },
    );
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}`);
  };
  const young = `young-${crypto.randomUUID().replace(/[^a-f]/g, "").slice(0, 8)}`;
  const times = new Map<string, number[]>([[old, []], [young, []]]);
  try {
    await call("/projects", {
      slug: young,
      title: "A young project",
      readme: "What a contribution costs a project with no history, beside one with it.",
      schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }] },
    });
    const batch = noteBatches(7, 2 ** 40, "paired");
    for (let i = 0; i < PAIRED; i++) {
      const records = batch();
      for (const slug of i % 2 === 0 ? [young, old] : [old, young]) {
        const started = performance.now();
        await call(`/projects/${slug}/contribute`, { records });
        times.get(slug)!.push(performance.now() - started);
      }
    }
  } finally {
    await node.close();
  }
  const [o, y] = [times.get(old)!, times.get(young)!];
  console.log(
    `\n${PAIRED} contributions to each in turn: at ${versions.toLocaleString("en")} versions p50 ${
      fmtMs(percentile(o, 50))
    }, p99 ${fmtMs(percentile(o, 99))}; a young project p50 ${fmtMs(percentile(y, 50))}, p99 ${
      fmtMs(percentile(y, 99))
    }`,
  );
  const ratio = percentile(o, 99) / percentile(y, 99);
  return verdict(
    ratio <= 1.5,
    `contribution p99 at the last checkpoint ${ratio.toFixed(2)}x of a young project's <= 1.5x`,
  );
}
