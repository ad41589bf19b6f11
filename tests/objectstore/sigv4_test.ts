/**
 * Signature Version 4 against what AWS published: the cases of the
 * Signature Version 4 test suite (aws-sig-v4-test-suite: AKIDEXAMPLE,
 * us-east-1, service "service", 2015-08-30) that do not normalize paths (S3
 * never does), and the worked examples of S3's own documentation
 * (examplebucket, 2013-05-24: GET with a range, PUT, GET ?lifecycle, a
 * listing, and the pre-signed URL).
 *
 * @module
 */
import {
  amzDate,
  canonicalQuery,
  EMPTY_SHA256,
  presignS3Url,
  sha256Hex,
  signatureV4,
  signS3Headers,
} from "../../src/objectstore/mod.ts";
import { assertEquals, assertThrows } from "../support/assert.ts";

const SUITE_CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const SUITE_SCOPE = { region: "us-east-1", service: "service", date: new Date("2015-08-30T12:36:00Z") };
const UNRESERVED = "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const STS_TOKEN =
  "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTfl" +
  "fKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6f" +
  "E8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/" +
  "oLxBA==";

interface SuiteCase {
  name: string;
  method?: string;
  path?: string;
  query?: [string, string][];
  headers?: [string, string][];
  body?: string;
  signature: string;
  /** The canonical request, where the suite's .creq file is checked too. */
  creq?: string;
}

const SUITE: SuiteCase[] = [
  {
    name: "get-vanilla",
    signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    creq: `GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY_SHA256}`,
  },
  {
    name: "get-vanilla-empty-query-key",
    query: [["Param1", "value1"]],
    signature: "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb",
  },
  {
    name: "get-vanilla-query-order-key-case",
    query: [["Param2", "value2"], ["Param1", "value1"]],
    signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
  },
  {
    name: "get-vanilla-query-order-key",
    query: [["Param1", "value2"], ["Param1", "Value1"]],
    signature: "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1",
  },
  {
    name: "get-vanilla-query-order-value",
    query: [["Param1", "value2"], ["Param1", "value1"]],
    signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694",
  },
  {
    name: "get-vanilla-query-unreserved",
    query: [[UNRESERVED, UNRESERVED]],
    signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197",
  },
  {
    name: "get-vanilla-utf8-query",
    query: [["\u1234", "bar"]],
    signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04",
  },
  {
    name: "get-unreserved",
    path: `/${UNRESERVED}`,
    signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f",
  },
  {
    name: "get-utf8",
    path: "/\u1234",
    signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85",
    creq:
      `GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n${EMPTY_SHA256}`,
  },
  {
    name: "get-space",
    path: "/example space/",
    signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741",
  },
  {
    name: "get-header-key-duplicate",
    headers: [["My-Header1", "value2"], ["My-Header1", "value2"], ["My-Header1", "value1"]],
    signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea",
  },
  {
    name: "get-header-value-multiline",
    headers: [["My-Header1", "value1\n  value2\n     value3"]],
    signature: "cfd34249e4b1c8d6b91ef74165d41a32e5fab3306300901bb65a51a73575eefd",
  },
  {
    name: "get-header-value-order",
    headers: [["My-Header1", "value4"], ["My-Header1", "value1"], ["My-Header1", "value3"], ["My-Header1", "value2"]],
    signature: "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01",
  },
  {
    name: "get-header-value-trim",
    headers: [["My-Header1", " value1"], ["My-Header2", ' "a   b   c"']],
    signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736",
    creq: 'GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:"a b c"\n' +
      `x-amz-date:20150830T123600Z\n\nhost;my-header1;my-header2;x-amz-date\n${EMPTY_SHA256}`,
  },
  {
    name: "post-vanilla",
    method: "POST",
    signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b",
  },
  {
    name: "post-vanilla-query",
    method: "POST",
    query: [["Param1", "value1"]],
    signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11",
  },
  {
    name: "post-header-key-sort",
    method: "POST",
    headers: [["My-Header1", "value1"]],
    signature: "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c",
  },
  {
    name: "post-header-value-case",
    method: "POST",
    headers: [["My-Header1", "VALUE1"]],
    signature: "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d",
  },
  {
    name: "post-x-www-form-urlencoded",
    method: "POST",
    headers: [["Content-Type", "application/x-www-form-urlencoded"]],
    body: "Param1=value1",
    signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a",
  },
  {
    name: "post-x-www-form-urlencoded-parameters",
    method: "POST",
    headers: [["Content-Type", "application/x-www-form-urlencoded; charset=utf8"]],
    body: "Param1=value1",
    signature: "1a72ec8f64bd914b0e42e42607c7fbce7fb2c7465f63e3092b3b0d39fa77a6fe",
  },
  {
    name: "post-sts-header-before",
    method: "POST",
    headers: [["X-Amz-Security-Token", STS_TOKEN]],
    signature: "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead",
  },
];

Deno.test("signatures match AWS's Signature Version 4 test suite", () => {
  for (const c of SUITE) {
    const signed = signatureV4(
      {
        method: c.method ?? "GET",
        path: c.path ?? "/",
        query: c.query,
        headers: [["Host", "example.amazonaws.com"], ["X-Amz-Date", "20150830T123600Z"], ...(c.headers ?? [])],
        payloadHash: sha256Hex(c.body ?? ""),
      },
      SUITE_CREDENTIALS,
      SUITE_SCOPE,
    );
    assertEquals(signed.signature, c.signature, c.name);
    if (c.creq) assertEquals(signed.canonicalRequest, c.creq, `${c.name}: canonical request`);
    assertEquals(
      signed.authorization.startsWith(
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=",
      ),
      true,
    );
  }
});

const S3_CREDENTIALS = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};
const S3_DAY = new Date("2013-05-24T00:00:00Z");
const HOST = "examplebucket.s3.amazonaws.com";

function s3Signature(headers: Record<string, string>): string {
  return /Signature=([0-9a-f]{64})$/.exec(headers.authorization)![1];
}

Deno.test("S3's worked examples sign the same: GET with a range, PUT, ?lifecycle, a listing", () => {
  const get = signS3Headers(
    { method: "GET", host: HOST, path: "/test.txt", headers: { range: "bytes=0-9" } },
    S3_CREDENTIALS,
    "us-east-1",
    S3_DAY,
  );
  assertEquals(s3Signature(get), "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  assertEquals(get["x-amz-content-sha256"], EMPTY_SHA256);
  assertEquals(get["x-amz-date"], "20130524T000000Z");

  const body = "Welcome to Amazon S3.";
  const put = signS3Headers(
    {
      method: "PUT",
      host: HOST,
      path: "/test$file.text",
      headers: { date: "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY" },
      payloadHash: sha256Hex(body),
    },
    S3_CREDENTIALS,
    "us-east-1",
    S3_DAY,
  );
  assertEquals(s3Signature(put), "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  assertEquals(
    /SignedHeaders=([^,]+),/.exec(put.authorization)![1],
    "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
  );

  const lifecycle = signS3Headers(
    { method: "GET", host: HOST, path: "/", query: [["lifecycle", ""]] },
    S3_CREDENTIALS,
    "us-east-1",
    S3_DAY,
  );
  assertEquals(s3Signature(lifecycle), "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");

  const list = signS3Headers(
    { method: "GET", host: HOST, path: "/", query: [["prefix", "J"], ["max-keys", "2"]] },
    S3_CREDENTIALS,
    "us-east-1",
    S3_DAY,
  );
  assertEquals(s3Signature(list), "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
});

Deno.test("S3's worked pre-signed URL example comes out whole, and a session token is signed into the query", () => {
  const url = presignS3Url(
    { method: "GET", protocol: "https:", host: HOST, path: "/test.txt", expiresIn: 86400 },
    S3_CREDENTIALS,
    "us-east-1",
    S3_DAY,
  );
  assertEquals(
    url,
    "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
      "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request" +
      "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host" +
      "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
  );
  const withToken = new URL(presignS3Url(
    { method: "GET", protocol: "https:", host: HOST, path: "/test.txt", expiresIn: 86400 },
    { ...S3_CREDENTIALS, sessionToken: "token/+=" },
    "us-east-1",
    S3_DAY,
  ));
  assertEquals(withToken.searchParams.get("X-Amz-Security-Token"), "token/+=");
  assertEquals(withToken.searchParams.get("X-Amz-Signature") === url.slice(-64), false);
});

Deno.test("a pre-signed URL's life is 1 second to a week; dates and queries are written as signed", () => {
  const request = { method: "GET", protocol: "https:", host: HOST, path: "/k", expiresIn: 0 };
  assertThrows(() => presignS3Url(request, S3_CREDENTIALS, "us-east-1", S3_DAY), /1 to 604800 seconds/);
  assertThrows(
    () => presignS3Url({ ...request, expiresIn: 604801 }, S3_CREDENTIALS, "us-east-1", S3_DAY),
    /1 to 604800 seconds/,
  );
  assertEquals(amzDate(new Date("2024-02-29T23:59:59.999Z")), "20240229T235959Z");
  assertEquals(canonicalQuery([["a b", "c/d"], ["!", "*"]]), "%21=%2A&a%20b=c%2Fd");
});
