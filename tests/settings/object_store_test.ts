/**
 * `svc serve --store s3://bucket/prefix`: its flags and variables, what the
 * node must reach, and what it refuses at start.
 *
 * @module
 */
import { nodePermissionFlags } from "../../src/launch/mod.ts";
import { checkServeSettings, nodeReach, parseServeArgs } from "../../src/settings/mod.ts";
import { CliError, UsageError } from "../../src/errors/mod.ts";
import { assert, assertEquals, assertMatch, assertThrows } from "../support/assert.ts";

const KEYS = { AWS_ACCESS_KEY_ID: "AKEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret" };
const PATHS = { deno: "/usr/bin/deno", duckdbBinding: "/app/duckdb.node", config: null, temp: "/tmp" };

Deno.test("a bucket store: endpoint and region from the flags, else AWS_*; the part cache's folder and bound", () => {
  const env = { ...KEYS, AWS_ENDPOINT_URL: "http://10.0.0.5:7070", AWS_REGION: "eu-west-3" };
  const plain = parseServeArgs(["--store", "s3://data/svc", "--read-only"], env).objectStore!;
  assert(!("problem" in plain.s3));
  assertEquals([plain.s3.endpoint, plain.s3.region, plain.s3.pathStyle], ["http://10.0.0.5:7070", "eu-west-3", true]);
  assertEquals([plain.location, plain.cacheDir, plain.partCacheBytes], ["s3://data/svc", "svc-cache", 2 * 1024 ** 3]);
  const flagged = parseServeArgs([
    "--store",
    "s3://data/svc",
    "--read-only",
    "--s3-endpoint",
    "https://objects.example:9443",
    "--s3-region",
    "us-west-2",
    "--cache-dir",
    "/var/cache/svc",
    "--part-cache",
    "512MiB",
  ], { ...env, SVC_NODE_PART_CACHE: "1GiB" }).objectStore!;
  assert(!("problem" in flagged.s3));
  assertEquals([flagged.s3.endpoint, flagged.s3.region], ["https://objects.example:9443", "us-west-2"]);
  assertEquals([flagged.cacheDir, flagged.partCacheBytes], ["/var/cache/svc", 512 * 1024 ** 2]);
  const fromEnv = parseServeArgs(["--store", "s3://data"], {
    ...KEYS,
    SVC_NODE_CACHE_DIR: "/c",
    SVC_S3_SINGLE_WRITER: "1",
  });
  assertEquals([fromEnv.objectStore!.cacheDir, fromEnv.objectStore!.singleWriter], ["/c", true]);
  assertEquals(parseServeArgs(["--store", "/data/s"], {}).objectStore, null);
});

Deno.test("what a bucket node must reach: its cache folder (written, read-only or not), the bucket's host, AWS_*", () => {
  const aws = parseServeArgs(["--store", "s3://data.sets/svc", "--read-only", "--s3-region", "eu-west-1"], KEYS);
  const reach = nodeReach(aws, "/data/trust.json");
  assertEquals([reach.store, reach.readOnly], ["svc-cache", false]);
  // A dotted bucket is addressed path-style: its name would break the TLS certificate of a virtual host.
  assertEquals(reach.calls, ["https://s3.eu-west-1.amazonaws.com"]);
  const hosted = nodeReach(parseServeArgs(["--store", "s3://datasets/svc", "--read-only"], KEYS), "/t");
  assertEquals(hosted.calls, ["https://datasets.s3.us-east-1.amazonaws.com"]);
  const flags = nodePermissionFlags(PATHS, reach);
  assertMatch(flags.join(" "), /--allow-net=127\.0\.0\.1:8686,s3\.eu-west-1\.amazonaws\.com /);
  assertMatch(flags.join(" "), /--allow-write=svc-cache,/);
  const env = flags.find((f) => f.startsWith("--allow-env="))!;
  for (const name of ["SVC_*", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL"]) {
    assert(env.split(/[=,]/).includes(name), `${name} in ${env}`);
  }
  const mirror = parseServeArgs(
    ["--store", "s3://datasets/svc", "--follow", "cities", "--base-url", "https://origin.example", "--api-key", "k"],
    { ...KEYS, AWS_ENDPOINT_URL: "http://minio:9000" },
  );
  assertEquals(nodeReach(mirror, "/t").calls, [
    "https://origin.example",
    "https://origin.example",
    "http://minio:9000",
  ]);
  assert(!nodePermissionFlags(PATHS, nodeReach(parseServeArgs([], {}), "/t")).join(" ").includes("AWS_"));
});

Deno.test("a bucket node is refused at start without keys, for writes, or keeping only the newest versions", () => {
  const check = (args: string[], env: Record<string, string> = KEYS) => () =>
    checkServeSettings(parseServeArgs(args, env));
  check(["--store", "s3://data/svc", "--read-only"])();
  check(["--store", "s3://data/svc", "--follow", "cities", "--base-url", "https://o.example", "--api-key", "k"])();
  const refusals: [() => void, RegExp][] = [
    [check(["--store", "s3://data/svc", "--read-only"], {}), /no credentials for s3:\/\/data: set AWS_ACCESS_KEY_ID/],
    [check(["--store", "s3://data/svc"]), /refusing to serve s3:\/\/data\/svc for writes: local projects need/],
    [check(["--store", "s3://data/svc", "--read-only", "--keep-versions", "3"]), /--keep-versions is not done/],
  ];
  for (const [fn, message] of refusals) assert(assertThrows(fn, message) instanceof CliError);
  const usage: [string[], RegExp][] = [
    [["--part-cache", "1GiB"], /--part-cache needs --store s3:\/\/bucket\/prefix/],
    [["--store", "/data/s", "--s3-endpoint", "http://x"], /--s3-endpoint needs --store s3:\/\//],
    [["--store", "s3://data", "--part-cache", "1MiB"], /--part-cache must be a size of at least 16MiB/],
    [["--store", "s3://da..ta/x"], /--store: not a bucket name/],
    [["--store", "s3://data/a//b"], /--store: the prefix of s3:\/\/data\/a\/\/b has an empty/],
    [["--store", "s3://data", "--s3-endpoint", "ftp://x"], /--store: the endpoint must be an http\(s\) URL/],
  ];
  for (const [args, message] of usage) {
    assert(assertThrows(() => parseServeArgs(args, KEYS), message) instanceof UsageError, args.join(" "));
  }
});
