/**
 * Nodes over a store in an S3-compatible bucket, for real: versitygw, the
 * test origin in its own process, a mirror (`svc serve --follow`) writing
 * the bucket, and read-only nodes holding no copy, each a `svc serve` of
 * its own.
 *
 * @module
 */
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { runCli, type ServeProcess, startServe } from "../support/cli_process.ts";
import { cachedParts, FLEET_STORE, getJson, metric, startBucketFleet, stopNode } from "../support/bucket_fleet.ts";
import { citySql, StoreWriter } from "../support/store_fixture.ts";
import { until } from "../support/waiting.ts";

const SQL = [
  "SELECT count(*) AS n, sum(population) AS p, min(name) AS first FROM records",
  "SELECT note, count(*) AS n FROM records GROUP BY note ORDER BY n DESC, note NULLS FIRST LIMIT 5",
  "SELECT * FROM records WHERE id % 97 = 0 ORDER BY id",
];

async function bytesOf(node: ServeProcess, path: string): Promise<Uint8Array> {
  const response = await fetch(`${node.url}${path}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) throw new Error(`${path}: ${response.status} ${new TextDecoder().decode(bytes)}`);
  return bytes;
}

/** A query's answer without its time, which is the only field that may differ between two runs. */
async function answerOf(node: ServeProcess, sql: string): Promise<string> {
  const response = await fetch(`${node.url}/projects/cities/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${sql}: ${response.status} ${text}`);
  return text.replace(/"ms":\d+,/, "");
}

/** What a node answers for the reads compared across nodes, as text. */
async function answers(node: ServeProcess): Promise<string[]> {
  const out: string[] = [];
  for (const [limit, offset] of [[10, 0], [100, 200], [200, 450], [1000, 0]]) {
    out.push(new TextDecoder().decode(await bytesOf(node, `/projects/cities/data?limit=${limit}&offset=${offset}`)));
  }
  out.push(new TextDecoder().decode(await bytesOf(node, "/projects/cities/data?format=csv&sort=name")));
  out.push(new TextDecoder().decode(gunzipSync(await bytesOf(node, "/projects/cities/export?version=2"))));
  for (const sql of SQL) out.push(await answerOf(node, sql));
  return out;
}

Deno.test("a mirror follows the origin into the bucket; two nodes holding no copy answer byte for byte as a node over the disk does", async () => {
  const fleet = await startBucketFleet();
  try {
    const mirror = await fleet.mirror(2);
    const client = await fleet.s3.bucket("fleet", "svc/");
    const keys: string[] = [];
    for await (const object of client.list("cities/")) keys.push(object.key);
    const v2: Json = await getJson(mirror, "/projects/cities/manifest?version=2");
    for (const part of v2.parts) assert(keys.includes(`cities/parts/${part.sha256}.parquet`), `part ${part.sha256}`);
    for (const key of ["cities/project.json", "cities/v2/manifest.json", "cities/index/versions/000000000000002"]) {
      assert(keys.includes(key), `${key} in ${keys.join(", ")}`);
    }

    const a = await fleet.reader("a");
    const b = await fleet.reader("b", ["--part-cache", "64MiB"]);
    const disk = await startServe(["--store", fleet.originStore, "--read-only"]);
    try {
      // The first page reads the first part alone: nothing else is fetched.
      const first: Json = await getJson(a, "/projects/cities/data?limit=10");
      assertEquals([first.version, first.count, first.total], [2, 10, 600]);
      assertEquals(await cachedParts(join(fleet.dir, "a")), [`cities/parts/${v2.parts[0].sha256}.parquet`]);
      assertEquals(await metric(a, "svc_part_cache_downloads_total"), 1);

      const [fromA, fromB, fromDisk] = [await answers(a), await answers(b), await answers(disk)];
      for (let i = 0; i < fromA.length; i++) {
        assertEquals(fromA[i], fromB[i], `answer ${i} of the two readers`);
        assertEquals(fromA[i], fromDisk[i], `answer ${i} of a reader and of the node over the disk`);
      }
      assertEquals((await cachedParts(join(fleet.dir, "b"))).length, 3, "SQL read every part of v2");
      const cached = await metric(b, "svc_part_cache_bytes");
      assertEquals(cached, v2.parts.reduce((n: number, p: Json) => n + p.bytes, 0));
      assert(cached <= await metric(b, "svc_part_cache_max_bytes"));
      assertEquals(await metric(b, "svc_part_cache_max_bytes"), 64 * 1024 * 1024);
      assert(await metric(b, "svc_part_cache_hits_total") > 0, "later reads hit the cache");

      // A new version at the origin reaches the bucket through the mirror, and the readers without a restart.
      const writer = new StoreWriter(fleet.originStore);
      try {
        await writer.extend("cities", 2, 3, [{ sql: citySql(600, 50) }]);
      } finally {
        writer.close();
      }
      for (const node of [a, b]) {
        await until(
          "a reader serves v3",
          async () => (await getJson(node, "/projects/cities/data?limit=1")).version === 3,
        );
      }
      assertEquals((await getJson(b, "/projects/cities/data?limit=1&offset=640")).records[0].id, 640);
      const health: Json = await getJson(a, "/healthz");
      assertEquals([health.store, health.readOnly], [FLEET_STORE, true]);
    } finally {
      await stopNode(disk);
    }
  } finally {
    await fleet.stop();
  }
});

Deno.test("a reader killed and restarted serves its first page from what it had read, fetching nothing", async () => {
  const fleet = await startBucketFleet();
  try {
    await fleet.mirror(2);
    const reader = await fleet.reader("r");
    const first = await bytesOf(reader, "/projects/cities/data?limit=20");
    const held = await cachedParts(join(fleet.dir, "r"));
    assertEquals(held.length, 1, "one part of three read");
    await stopNode(reader, "SIGKILL");

    const again = await fleet.reader("r");
    // Narrowed as any node is: to its cache folder, the bucket's endpoint and its address.
    assertMatch(
      again.stderr(),
      /sandbox: deno, .*\(deno permissions narrowed to the part cache, the bucket's endpoint/,
    );
    assertEquals(await bytesOf(again, "/projects/cities/data?limit=20"), first);
    assertEquals(await metric(again, "svc_part_cache_downloads_total"), 0);
    assert(await metric(again, "svc_part_cache_hits_total") >= 1, "the page was read from the part it had");
    assertEquals(await cachedParts(join(fleet.dir, "r")), held);

    // One started on an empty folder fetches that one part and no other.
    const fresh = await fleet.reader("fresh");
    assertEquals(await bytesOf(fresh, "/projects/cities/data?limit=20"), first);
    assertEquals(await cachedParts(join(fleet.dir, "fresh")), held);
    assertEquals(
      await metric(fresh, "svc_part_cache_downloaded_bytes_total"),
      await metric(again, "svc_part_cache_bytes"),
    );
  } finally {
    await fleet.stop();
  }
});

Deno.test("Delta Sharing over a bucket: file URLs are the bucket's, pre-signed, and pandas reads them", async () => {
  const fleet = await startBucketFleet();
  const token = "reader-token-0123456789";
  try {
    await fleet.mirror(2);
    const reader = await fleet.reader("ds", ["--token", token]);
    const response = await fetch(`${reader.url}/delta-sharing/shares/svc/schemas/default/tables/cities/query`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    assertEquals(response.status, 200);
    const lines = (await response.text()).trim().split("\n").map((l) => JSON.parse(l));
    const files = lines.filter((l) => l.file).map((l) => l.file);
    assertEquals(files.length, 3);
    for (const file of files) {
      assertMatch(file.url, new RegExp(`^${fleet.s3.endpoint}/fleet/svc/cities/parts/${file.id}\\.parquet\\?`));
      assertMatch(file.url, /X-Amz-Expires=3600&/);
      assert(file.stats.includes('"numRecords"'), "statistics from the footers");
    }
    // Statistics came from the parts' footers: not one part was fetched into the reader's cache.
    assertEquals(await cachedParts(join(fleet.dir, "ds")), []);

    const profile = join(fleet.dir, "profile.json");
    await Deno.writeTextFile(
      profile,
      JSON.stringify({
        shareCredentialsVersion: 1,
        endpoint: `${reader.url}/delta-sharing`,
        bearerToken: token,
      }),
    );
    const python = await pandasPython();
    const script = "import delta_sharing, json, sys\n" +
      "df = delta_sharing.load_as_pandas(sys.argv[1] + '#svc.default.cities')\n" +
      "print(json.dumps({'n': len(df), 'ids': int(df['id'].sum()), 'names': sorted(df['name'])[:3]}))\n";
    const run = await new Deno.Command(python, { args: ["-c", script, profile], stdout: "piped", stderr: "piped" })
      .output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert(run.success, stderr);
    const read = JSON.parse(new TextDecoder().decode(run.stdout));
    assertEquals(read, { n: 600, ids: (599 * 600) / 2, names: ["city-0", "city-1", "city-10"] });
    assert(!/ \/parts\//.test(reader.stderr()), "no part was fetched through the node");
    assertEquals(await cachedParts(join(fleet.dir, "ds")), []);
  } finally {
    await fleet.stop();
  }
});

/** The Python that has the `delta-sharing` connector and pandas (scripts/readers/prepare.sh on issue-48 installs it). */
async function pandasPython(): Promise<string> {
  const cache = join(Deno.env.get("HOME") ?? "/root", ".cache", "svc-readers");
  const named = JSON.parse(await Deno.readTextFile(join(cache, "readers.json")).catch(() => "{}")).python;
  const found = named ?? [...Deno.readDirSync(cache)].find((e) => e.name.startsWith("python-"))?.name;
  if (!found) throw new Error(`no Python with delta-sharing under ${cache}: run scripts/readers/prepare.sh pandas`);
  return named ?? join(cache, found, "bin", "python");
}

Deno.test("a node over a bucket takes no write; serving one for writes, or with --keep-versions, is refused at start", async () => {
  const fleet = await startBucketFleet();
  try {
    await fleet.mirror(2);
    const reader = await fleet.reader("w");
    const contribute = await fetch(`${reader.url}/projects/cities/contribute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ records: [{ id: 1 }] }),
    });
    assertEquals(contribute.status, 405);
    assertMatch((await contribute.json()).error, /read-only/);

    const writes = await runCli(["serve", "--store", FLEET_STORE, "--port", "0"], fleet.env);
    assertEquals(writes.code, 1);
    assertMatch(writes.stderr, /error: refusing to serve s3:\/\/fleet\/svc for writes: local projects need/);
    const keep = await runCli(["serve", "--store", FLEET_STORE, "--read-only", "--keep-versions", "2"], fleet.env);
    assertEquals(keep.code, 1);
    assertMatch(keep.stderr, /--keep-versions is not done in an object store yet/);
    const noKeys = await runCli(["serve", "--store", FLEET_STORE, "--read-only"], { SVC_TRUST_FILE: "/dev/null" });
    assertEquals(noKeys.code, 1);
    assertMatch(noKeys.stderr, /no credentials for s3:\/\/fleet: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    const flag = await runCli(["serve", "--part-cache", "1GiB"], {});
    assertEquals(flag.code, 2);
    assertMatch(flag.stderr, /--part-cache needs --store s3:\/\/bucket\/prefix/);
  } finally {
    await fleet.stop();
  }
});

Deno.test("a node over a bucket it cannot read says so at start", async () => {
  const fleet = await startBucketFleet();
  try {
    const wrong = { ...fleet.env, AWS_SECRET_ACCESS_KEY: "not-the-secret" };
    const denied = await runCli(["serve", "--store", FLEET_STORE, "--read-only", "--port", "0"], wrong);
    assertEquals(denied.code, 1);
    assertMatch(
      denied.stderr,
      /error: cannot read s3:\/\/fleet\/svc: object store: GET s3:\/\/fleet\/: SignatureDoesNotMatch/,
    );
    const missing = await runCli(["serve", "--store", "s3://nobucket/svc", "--read-only", "--port", "0"], fleet.env);
    assertEquals(missing.code, 1);
    assertMatch(missing.stderr, /error: cannot read s3:\/\/nobucket\/svc: .*NoSuchBucket/);
  } finally {
    await fleet.stop();
  }
});
