/**
 * A real S3-compatible server for tests: Versity's S3 gateway (versitygw,
 * built from the Go module proxy by scripts/objectstore/prepare.sh) over a
 * temporary folder, on a port the kernel picks, with credentials made for
 * this run. The port is read from the process's own listening socket
 * (/proc), so no port is guessed and none can be taken in between.
 *
 * @module
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, readlink, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3Client, type S3Config } from "../../src/objectstore/mod.ts";
import { versitygwPath } from "../../scripts/test_prepare.ts";
import { until } from "./waiting.ts";

/** A running server. */
export interface S3Server {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** The region it signs in. */
  region: string;
  /** The root account's key pair. */
  accessKeyId: string;
  /** The root account's secret. */
  secretAccessKey: string;
  /** The folder its buckets are folders of. */
  root: string;
  /** The process. */
  child: Deno.ChildProcess;
  /** The `AWS_*` variables a node would be given to reach it. */
  env: Record<string, string>;
  /** A configuration for `bucket` (and `prefix`), path-style. */
  config(bucket: string, prefix?: string): S3Config;
  /** Makes `bucket` and answers a client for it (and `prefix`). */
  bucket(bucket: string, prefix?: string): Promise<S3Client>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** The versitygw binary: `SVC_VERSITYGW`, else where prepare.sh puts it; throws saying how to get it. */
export function versitygwBinary(): string {
  const chosen = versitygwPath();
  if (!existsSync(chosen)) {
    throw new Error(`no S3 server at ${chosen}: run scripts/objectstore/prepare.sh (or set SVC_VERSITYGW)`);
  }
  return chosen;
}

/** The TCP ports process `pid` listens on (its sockets' inodes matched in /proc/<pid>/net/tcp{,6}). */
async function listeningPorts(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(m[1]);
  }
  const ports: number[] = [];
  for (const table of ["tcp", "tcp6"]) {
    const text = await readFile(`/proc/${pid}/net/${table}`, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT, st 0A is LISTEN, the inode is the tenth column.
      if (cols.length > 9 && cols[3] === "0A" && inodes.has(cols[9])) ports.push(parseInt(cols[1].split(":")[1], 16));
    }
  }
  return ports;
}

/** Starts versitygw on 127.0.0.1 and a port of the kernel's choosing; resolves once it answers a signed call. */
export async function startS3Server(options: { region?: string } = {}): Promise<S3Server> {
  const binary = versitygwBinary();
  const root = await mkdtemp(join(tmpdir(), "svc-s3-"));
  const region = options.region ?? "us-east-1";
  const accessKeyId = `AK${randomBytes(9).toString("hex").toUpperCase()}`;
  const secretAccessKey = randomBytes(30).toString("base64");
  const child = new Deno.Command(binary, {
    args: ["--port", "127.0.0.1:0", "--access", accessKeyId, "--secret", secretAccessKey, "--region", region, "--quiet"]
      .concat(["posix", root]),
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: root },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const exited = child.status.then(() => true);
  let stderr = "";
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })().catch(() => {});
  let port = 0;
  const deadline = Date.now() + 30_000;
  while (port === 0) {
    if (await Promise.race([exited, new Promise<false>((r) => setTimeout(() => r(false), 20))])) {
      throw new Error(`versitygw exited: ${stderr}`);
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`versitygw did not listen within 30 s: ${stderr}`);
    }
    port = (await listeningPorts(child.pid).catch(() => []))[0] ?? 0;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const config = (bucket: string, prefix = ""): S3Config => ({
    bucket,
    prefix,
    endpoint,
    region,
    credentials: { accessKeyId, secretAccessKey },
    pathStyle: true,
  });
  // Answers a signed call (a HEAD on a bucket that is not there is a 404) before anyone uses it.
  await until("versitygw answers", async () => (await new S3Client(config("probe")).head("x")) === null, 30_000);
  return {
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    root,
    child,
    env: {
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_REGION: region,
      AWS_ENDPOINT_URL: endpoint,
    },
    config,
    async bucket(bucket, prefix = "") {
      const client = new S3Client(config(bucket, prefix));
      await client.createBucket();
      return client;
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch {
          // gone meanwhile
        }
      }, 10_000);
      await child.status;
      clearTimeout(timer);
      await rm(root, { recursive: true, force: true });
    },
  };
}
