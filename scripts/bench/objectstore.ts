/**
 * Benchmark `objectstore`: a node over a store in an S3-compatible bucket
 * (Versity's gateway on this machine, `scripts/objectstore/prepare.sh`)
 * holding no copy, against a node over the same version on local disk,
 * measured in the same run: the first page cold (a node just started, its
 * part cache empty: the listing, the manifest and one part fetched) and
 * warm, a group-by over every record (cold: every part fetched), and an
 * export (gzip JSON lines of the whole version); then the part cache's
 * bytes against its bound while pages sweep every part through a cache
 * smaller than the version.
 *
 * Data: `pages-default-groups` of the `data_pages` bench store (1,000,000
 * records in four parts), uploaded to a fresh bucket each run.
 *
 * Targets: warm within 1.1x of the disk, cold within 3x; the cache never
 * over its bound.
 *
 * @module
 */
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveNode, type ServingNode } from "../../server.ts";
import type { S3Client } from "../../src/objectstore/mod.ts";
import { objectTarget, openObjectStoreNode, openStore, projectFile } from "../../src/store/mod.ts";
import { startS3Server } from "../../tests/support/s3_server.ts";
import { ensureStore, RECORDS } from "./data_pages.ts";
import { type Benchmark, fmtMs, fmtRatio, interleaved, median, printTable, verdict } from "./_util.ts";

const SLUG = "pages-default-groups";
const PAGE = `/projects/${SLUG}/data?limit=200`;
const GROUP_BY = "SELECT bucket, count(*) AS n, avg(score) AS s FROM records GROUP BY bucket ORDER BY bucket";
const EXPORT = `/projects/${SLUG}/export?version=1`;
/** Nodes started cold, per side. */
const COLD_RUNS = 5;
/** The warm loop. */
const WARM = { maxRuns: 60, maxMs: 8000, minRuns: 10 };
const WARM_EXPORTS = 3;
/** The part cache of the warm and cold nodes. */
const CACHE_BYTES = 1024 ** 3;
const WARM_TARGET = 1.1;
const COLD_TARGET = 3;

async function ok(response: Promise<Response>, what: string): Promise<number> {
  const r = await response;
  const bytes = (await r.arrayBuffer()).byteLength;
  if (!r.ok) throw new Error(`${what}: ${r.status}`);
  return bytes;
}

const page = (node: ServingNode) => ok(fetch(`${node.url}${PAGE}`), "page");
const groupBy = (node: ServingNode) =>
  ok(
    fetch(`${node.url}/projects/${SLUG}/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: GROUP_BY }),
    }),
    "group-by",
  );
const exported = (node: ServingNode) => ok(fetch(`${node.url}${EXPORT}`), "export");

/** Copies version 1 of `SLUG` from the store at `root` into the bucket, as `svc load` would lay it out. */
async function upload(root: string, client: S3Client): Promise<number> {
  const version = await openStore(root).version(SLUG, 1);
  if (!version) throw new Error(`${SLUG} v1 is not whole in ${root}`);
  const scratch = await mkdtemp(join(tmpdir(), "svc-bench-upload-"));
  try {
    const target = objectTarget(client, { scratch });
    for (const part of version.parts) {
      const file = join(scratch, `${part.sha256}.parquet`);
      await copyFile(part.path, file);
      await target.placePart(SLUG, part.sha256, file);
    }
    await target.writeProject(SLUG, await readFile(projectFile(root, SLUG), "utf8"));
    await target.commit(version.manifest);
    return version.parts.reduce((n, p) => n + p.bytes, 0);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Serving nodes of both sides, each on a fresh cache folder for the bucket. */
interface Sides {
  disk(): Promise<ServingNode>;
  bucket(cacheBytes?: number): Promise<{ node: ServingNode; folder: string }>;
}

function sides(root: string, client: S3Client, folders: string[]): Sides {
  const options = { host: "127.0.0.1", port: 0, token: null, log: null, readOnly: true } as const;
  return {
    disk: () => serveNode({ ...options, store: root }),
    async bucket(cacheBytes = CACHE_BYTES) {
      const folder = await mkdtemp(join(tmpdir(), "svc-bench-cache-"));
      folders.push(folder);
      const objectStore = await openObjectStoreNode({
        config: client.config,
        root: folder,
        partCacheBytes: cacheBytes,
      });
      return { node: await serveNode({ ...options, store: folder, objectStore }), folder };
    },
  };
}

/** The time of `fn` over a node just started by `start` (its start not counted), `COLD_RUNS` times. */
async function cold(start: () => Promise<ServingNode>, fn: (node: ServingNode) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const node = await start();
    try {
      const t0 = performance.now();
      await fn(node);
      times.push(performance.now() - t0);
    } finally {
      await node.shutdown();
    }
  }
  return times;
}

/** Samples `svc_part_cache_bytes` of `node` while pages sweep every part; the largest seen, and evictions. */
async function sweep(node: ServingNode): Promise<{ most: number; max: number; evictions: number; pages: number }> {
  const metric = async (name: string) => {
    const text = await (await fetch(`${node.url}/metrics`)).text();
    return Number(text.split("\n").find((l) => l.startsWith(`${name} `))!.split(" ")[1]);
  };
  let most = 0;
  let pages = 0;
  for (let round = 0; round < 3; round++) {
    for (let offset = 0; offset < RECORDS; offset += RECORDS / 8) {
      await ok(fetch(`${node.url}/projects/${SLUG}/data?limit=200&offset=${offset}`), "page");
      pages++;
      most = Math.max(most, await metric("svc_part_cache_bytes"));
    }
  }
  return {
    most,
    max: await metric("svc_part_cache_max_bytes"),
    evictions: await metric("svc_part_cache_evictions_total"),
    pages,
  };
}

async function run(): Promise<void> {
  const { root, parts } = await ensureStore();
  const s3 = await startS3Server();
  const folders: string[] = [];
  try {
    const client = await s3.bucket("bench", "svc/");
    const bytes = await upload(root, client);
    console.log(
      `${SLUG}: ${RECORDS.toLocaleString("en")} records, ${parts.get(SLUG)!.length} parts, ` +
        `${(bytes / 1024 ** 2).toFixed(1)} MiB, in versitygw at ${s3.endpoint}; part cache ${
          CACHE_BYTES / 1024 ** 2
        } MiB`,
    );
    const side = sides(root, client, folders);
    const bucketNode = async () => (await side.bucket()).node;
    const rows: string[][] = [];
    const targets: string[] = [];
    const compare = (what: string, disk: number[], bucket: number[], target: number) => {
      const [d, b] = [median(disk), median(bucket)];
      rows.push([what, fmtMs(d), fmtMs(b), fmtRatio(b, d), `${target}x`]);
      targets.push(verdict(b / d <= target, `${what}: bucket/disk ${fmtRatio(b, d)} <= ${target}x`));
    };
    compare("first page, cold", await cold(side.disk, page), await cold(bucketNode, page), COLD_TARGET);
    compare("group-by, cold", await cold(side.disk, groupBy), await cold(bucketNode, groupBy), COLD_TARGET);

    const disk = await side.disk();
    const { node: bucket } = await side.bucket();
    try {
      const calls = [() => page(disk), () => page(bucket), () => groupBy(disk), () => groupBy(bucket)];
      await interleaved(calls, { maxRuns: 3, maxMs: 2000 });
      const [pd, pb, gd, gb] = await interleaved(calls, WARM);
      compare("first page, warm", pd, pb, WARM_TARGET);
      compare("group-by, warm", gd, gb, WARM_TARGET);
      const [ed, eb] = await interleaved([() => exported(disk), () => exported(bucket)], {
        maxRuns: WARM_EXPORTS,
        maxMs: 0,
        minRuns: WARM_EXPORTS,
      });
      compare("export (gzip JSON lines), warm", ed, eb, WARM_TARGET);
    } finally {
      await disk.shutdown();
      await bucket.shutdown();
    }
    printTable(["", "disk ms", "bucket ms", "bucket/disk", "target"], rows);

    const largest = Math.max(...(await openStore(root).version(SLUG, 1))!.parts.map((p) => p.bytes));
    const bound = Math.ceil(largest * 1.5);
    const { node: small } = await side.bucket(bound);
    try {
      const seen = await sweep(small);
      console.log(
        `\npart cache bounded at ${(bound / 1024 ** 2).toFixed(1)} MiB (1.5 parts): ${seen.pages} pages over every ` +
          `part, the most held ${(seen.most / 1024 ** 2).toFixed(1)} MiB, ${seen.evictions} evictions`,
      );
      targets.push(verdict(seen.most <= seen.max, `cache bytes ${seen.most} <= its bound ${seen.max}`));
    } finally {
      await small.shutdown();
    }
    console.log(`\n${targets.join("\n")}`);
  } finally {
    await s3.stop();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  }
}

/** The benchmark. */
export const benchmark: Benchmark = {
  name: "objectstore",
  description: "a node over a bucket (versitygw) holding no copy vs the same version on disk: pages, a group-by, " +
    "an export, cold and warm; the part cache against its bound",
  run,
};
