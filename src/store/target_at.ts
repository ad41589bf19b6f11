/**
 * The copy target a store's name stands for: `s3://bucket/prefix` is a
 * bucket of an object store, reached with the usual `AWS_*` variables (one
 * target per name in a process, so that what it has read and its probe of
 * conditional writes are shared), anything else a directory.
 *
 * @module
 */
import process from "node:process";
import { S3Client, s3ConfigFrom } from "../objectstore/mod.ts";
import { type CopyTarget, directoryTarget } from "./copy_target.ts";
import { objectTarget } from "./object_target.ts";

const targets = new Map<string, CopyTarget>();

/**
 * Whether `store` names a bucket of an object store (`s3://...`).
 *
 * @example
 * ```ts
 * import { isObjectLocation } from "./target_at.ts";
 * isObjectLocation("s3://datasets/svc"); // true
 * isObjectLocation("svc-data"); // false
 * ```
 */
export function isObjectLocation(store: string): boolean {
  return /^s3:\/\//i.test(store);
}

/**
 * Whether `SVC_S3_SINGLE_WRITER` says this process is the only writer of
 * its bucket's prefix (`1`, `true`, `yes`, `on`).
 *
 * @example
 * ```ts
 * import { singleWriterSaid } from "./target_at.ts";
 * singleWriterSaid({ SVC_S3_SINGLE_WRITER: "1" }); // true
 * ```
 */
export function singleWriterSaid(env: Record<string, string | undefined>): boolean {
  return /^(1|true|yes|on)$/i.test(env.SVC_S3_SINGLE_WRITER?.trim() ?? "");
}

/**
 * The copy target of `store`: itself when it is one already, a bucket for
 * `s3://...` (endpoint, region and credentials from `env`), else a
 * directory.
 *
 * @example
 * ```ts
 * import { copyTarget } from "./target_at.ts";
 * copyTarget("svc-data").location; // "svc-data"
 * ```
 */
export function copyTarget(
  store: string | CopyTarget,
  env: Record<string, string | undefined> = process.env,
): CopyTarget {
  if (typeof store !== "string") return store;
  if (!isObjectLocation(store)) return directoryTarget(store);
  let target = targets.get(store);
  if (!target) {
    target = objectTarget(new S3Client(s3ConfigFrom(store, env)), { singleWriter: singleWriterSaid(env) });
    targets.set(store, target);
  }
  return target;
}
