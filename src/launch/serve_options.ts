/**
 * The options `svc serve` takes, in `node:util`'s `parseArgs` form: one
 * table for the full parser (`settings/serve.ts`) and for the reader that
 * decides, before the command line loads, what a node may reach
 * (`reach.ts`).
 *
 * @module
 */

/**
 * The options `svc serve` takes.
 *
 * @example
 * ```ts
 * import { SERVE_OPTIONS } from "./serve_options.ts";
 * SERVE_OPTIONS.store.type; // "string"
 * ```
 */
export const SERVE_OPTIONS = {
  store: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  token: { type: "string" },
  "read-only": { type: "boolean" },
  quiet: { type: "boolean" },
  "allow-host": { type: "string", multiple: true },
  "max-connections": { type: "string" },
  "sql-memory": { type: "string" },
  memory: { type: "string" },
  "keep-versions": { type: "string" },
  "export-cache": { type: "string" },
  "page-cache": { type: "string" },
  "share-name": { type: "string" },
  follow: { type: "string", multiple: true },
  interval: { type: "string" },
  verify: { type: "boolean" },
  upstream: { type: "string" },
  "upstream-token": { type: "string" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  "ready-max-lag": { type: "string" },
  "no-metrics": { type: "boolean" },
  "no-sandbox": { type: "boolean" },
  "s3-endpoint": { type: "string" },
  "s3-region": { type: "string" },
  "part-cache": { type: "string" },
  "cache-dir": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;
