/**
 * Where a bucket is and how to reach it: `s3://` locations, and the
 * configuration the usual `AWS_*` variables and flags give, with a clear
 * error for each thing missing or wrong.
 *
 * @module
 */
import type { NodeError } from "../../src/errors/mod.ts";
import { parseS3Url, s3ConfigFrom, s3Url } from "../../src/objectstore/mod.ts";
import { assertEquals, assertThrows } from "../support/assert.ts";

Deno.test("s3:// locations parse to a bucket and a prefix ending in a slash", () => {
  assertEquals(parseS3Url("s3://datasets"), { bucket: "datasets", prefix: "" });
  assertEquals(parseS3Url("s3://datasets/"), { bucket: "datasets", prefix: "" });
  assertEquals(parseS3Url("s3://datasets/svc/main"), { bucket: "datasets", prefix: "svc/main/" });
  assertEquals(parseS3Url("s3://my.bucket-1/svc/"), { bucket: "my.bucket-1", prefix: "svc/" });
  assertEquals(s3Url({ bucket: "b", prefix: "p/" }, "k"), "s3://b/p/k");
  for (
    const [bad, says] of [
      ["/var/svc", /expected s3:\/\/bucket\/prefix/],
      ["s3a://bucket/x", /expected s3:\/\/bucket\/prefix/],
      ["s3://", /not a bucket name/],
      ["s3://b/x", /not a bucket name/],
      ["s3://bad_bucket!/x", /not a bucket name/],
      ["s3://bucket//x", /empty, "\." or "\.\." part/],
      ["s3://bucket/a/../b", /empty, "\." or "\.\." part/],
      ["s3://bucket/x?versionId=1", /expected s3:\/\/bucket\/prefix/],
    ] as const
  ) {
    const e = assertThrows(() => parseS3Url(bad), says);
    assertEquals((e as NodeError).kind, "bad-request", bad);
  }
});

const KEYS = { AWS_ACCESS_KEY_ID: "AKIA1", AWS_SECRET_ACCESS_KEY: "secret" };

Deno.test("with no endpoint it is AWS's for the region, virtual-hosted; an endpoint of one's own is path-style", () => {
  const aws = s3ConfigFrom("s3://datasets/svc", { ...KEYS, AWS_DEFAULT_REGION: "eu-west-1" });
  assertEquals(aws, {
    bucket: "datasets",
    prefix: "svc/",
    endpoint: "https://s3.eu-west-1.amazonaws.com",
    region: "eu-west-1",
    credentials: { accessKeyId: "AKIA1", secretAccessKey: "secret" },
    pathStyle: false,
  });
  assertEquals(s3ConfigFrom("s3://datasets", KEYS).region, "us-east-1");
  assertEquals(
    s3ConfigFrom("s3://datasets", { ...KEYS, AWS_REGION: "ap-south-1", AWS_DEFAULT_REGION: "x" }).region,
    "ap-south-1",
  );
  assertEquals(s3ConfigFrom("s3://dotted.name", KEYS).pathStyle, true); // a dotted name breaks the wildcard certificate
  const own = s3ConfigFrom("s3://datasets", { ...KEYS, AWS_ENDPOINT_URL: "http://minio.internal:9000/" });
  assertEquals([own.endpoint, own.pathStyle], ["http://minio.internal:9000", true]);
  const s3Only = s3ConfigFrom("s3://datasets", {
    ...KEYS,
    AWS_ENDPOINT_URL: "http://other:1",
    AWS_ENDPOINT_URL_S3: "https://s3.example.net",
    AWS_SESSION_TOKEN: "token",
  });
  assertEquals([s3Only.endpoint, s3Only.credentials.sessionToken], ["https://s3.example.net", "token"]);
  const flags = s3ConfigFrom("s3://datasets", { ...KEYS, AWS_ENDPOINT_URL: "http://a:1" }, {
    endpoint: "http://b:2",
    region: "local",
    pathStyle: false,
  });
  assertEquals([flags.endpoint, flags.region, flags.pathStyle], ["http://b:2", "local", false]);
});

Deno.test("missing credentials and a bad endpoint are clear errors naming the variable", () => {
  assertThrows(
    () => s3ConfigFrom("s3://datasets", {}),
    /no credentials for s3:\/\/datasets: set AWS_ACCESS_KEY_ID and/,
  );
  assertThrows(
    () => s3ConfigFrom("s3://datasets", { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: " " }),
    /no credentials/,
  );
  assertThrows(
    () => s3ConfigFrom("s3://dd", { ...KEYS, AWS_ENDPOINT_URL_S3: "minio:9000" }),
    /AWS_ENDPOINT_URL_S3 must be an http/,
  );
  assertThrows(
    () => s3ConfigFrom("s3://dd", { ...KEYS, AWS_ENDPOINT_URL: "not a url" }),
    /AWS_ENDPOINT_URL is not a URL/,
  );
  assertThrows(() => s3ConfigFrom("s3://dd", KEYS, { endpoint: "http://h/?x=1" }), /the endpoint must be an http/);
});
