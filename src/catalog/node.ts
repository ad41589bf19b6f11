/**
 * What operators, balancers and programs ask of the node itself: health,
 * readiness, metrics, MCP, and the parts its manifests link to.
 *
 * @module
 */
import type { Health, Readiness } from "../wire/mod.ts";
import type { Operation } from "./operation.ts";

/** The node's own operations. */
export const NODE_OPERATIONS = {
  health: {
    name: "health",
    method: "GET",
    path: "/healthz",
    about: "Whether the node answers, and (with the token) its store, memory, sandbox and following.",
    input: {},
    answer: undefined as unknown as Health | { ok: true },
    encoding: "json",
    costly: false,
    public: true,
    write: false,
  },
  ready: {
    name: "ready",
    method: "GET",
    path: "/readyz",
    about: "Whether the node should be sent traffic (200), or why not (503).",
    input: {},
    answer: undefined as unknown as Readiness,
    encoding: "json",
    costly: false,
    public: true,
    write: false,
  },
  metrics: {
    name: "metrics",
    method: "GET",
    path: "/metrics",
    about: "The node's metrics in the Prometheus text format.",
    input: {},
    answer: undefined as unknown as string,
    encoding: "text",
    costly: false,
    public: false,
    write: false,
  },
  mcp: {
    name: "mcp",
    method: "POST",
    path: "/mcp",
    about: "MCP over Streamable HTTP: the tools of this catalog, for agents.",
    input: {},
    answer: undefined as unknown as unknown,
    encoding: "json",
    costly: true,
    public: false,
    write: false,
  },
  part: {
    name: "part",
    method: "GET",
    path: "/parts/{slug}/{file}",
    about: "One Parquet part, by its SHA-256: immutable, with ranges; with the token or a signed URL.",
    input: {
      slug: { type: "string", about: "Project slug." },
      file: { type: "string", about: "`<sha256>.parquet`." },
      exp: { type: "integer", min: 0, optional: true, about: "A signed URL's expiry (seconds since the epoch)." },
      sig: { type: "string", optional: true, about: "A signed URL's signature." },
    },
    answer: undefined as unknown as ReadableStream<Uint8Array>,
    encoding: "bytes",
    costly: false,
    public: true,
    write: false,
  },
} as const satisfies Record<string, Operation>;
