/**
 * The node's MCP tools. Each one calls the function that answers the same
 * HTTP route, so HTTP and MCP cannot drift: the tool's answer is the route's
 * JSON (as text and as `structuredContent`), and a route's error becomes a
 * tool error reading `<status>: <message>`.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { NodeContext } from "../node/context.ts";
import { HttpError } from "../node/response.ts";
import { getData } from "../node/routes/data.ts";
import { getManifest } from "../node/routes/manifest.ts";
import { getProject, listProjects } from "../node/routes/projects.ts";
import { postQuery } from "../node/routes/query.ts";
import { getContribution, postContribution } from "../node/routes/writes.ts";
import { VERSION } from "../version.ts";

/** A tool's answer in MCP terms. */
interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

async function answer(run: () => Promise<Response>): Promise<ToolResult> {
  try {
    const text = await (await run()).text();
    return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
  } catch (e) {
    if (e instanceof HttpError) {
      return { isError: true, content: [{ type: "text", text: `${e.status}: ${e.message}` }] };
    }
    throw e;
  }
}

function jsonPost(base: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

function query(base: string, params: Record<string, number | undefined>): URL {
  const url = new URL(`${base}/mcp`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url;
}

const slug = z.string().describe("Project slug, as `list_datasets` gives it (e.g. `world-cities`).");
const version = z.number().int().min(1).optional().describe("Version number; the newest whole version when left out.");

/**
 * An MCP server with the node's tools; `base` is the node's address as the
 * client reached it (for part URLs). On a read-only node the two write tools
 * are left out.
 *
 * @example
 * ```ts ignore
 * const server = mcpServer(ctx, "http://127.0.0.1:8686");
 * ```
 */
export function mcpServer(ctx: NodeContext, base: string): McpServer {
  const server = new McpServer({ name: "svc-node", version: VERSION });
  const read = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

  server.registerTool("list_datasets", {
    title: "List datasets",
    description: "Dataset projects on this node: slug, title, license, records and versions held. " +
      "Give `query` to keep those whose slug or title contains it.",
    inputSchema: { query: z.string().max(200).optional().describe("Substring of the slug or title (any case).") },
    annotations: read,
  }, (args) =>
    answer(async () => {
      const res = await listProjects(ctx);
      const { projects } = await res.json() as { projects: { slug: string; title: string }[] };
      const q = args.query?.toLowerCase();
      const kept = q ? projects.filter((p) => `${p.slug}\n${p.title}`.toLowerCase().includes(q)) : projects;
      return Response.json({ projects: kept });
    }));

  server.registerTool("dataset_info", {
    title: "Dataset info",
    description: "One project's README, schema (fields and types), license and the versions this node holds.",
    inputSchema: { slug },
    annotations: read,
  }, (args) => answer(() => getProject(ctx, args.slug)));

  server.registerTool(
    "read_dataset",
    {
      title: "Read records",
      description:
        "A page of records of one version, in order. Page with `offset`; `count` below `limit` means the end.",
      inputSchema: {
        slug,
        version,
        limit: z.number().int().min(1).max(200).optional().describe("Records in the page, 1-200 (default 50)."),
        offset: z.number().int().min(0).optional().describe("Records to skip (default 0)."),
      },
      annotations: read,
    },
    (args) =>
      answer(() =>
        getData(ctx, args.slug, query(base, { version: args.version, limit: args.limit ?? 50, offset: args.offset }))
      ),
  );

  server.registerTool("dataset_manifest", {
    title: "Dataset manifest",
    description: "The version manifest: its Parquet parts with sizes, digests and download URLs on this node, " +
      "totals, and the origin's signature when the version came from the origin.",
    inputSchema: { slug, version },
    annotations: read,
  }, (args) => answer(() => getManifest(ctx, args.slug, query(base, { version: args.version }), base)));

  server.registerTool(
    "query_dataset",
    {
      title: "Query with SQL",
      description: "One read-only SQL statement (DuckDB dialect: SELECT, WITH, FROM, VALUES, DESCRIBE, SUMMARIZE) " +
        "over one version, seen as the table `records`. At most 1,000 rows; `truncated` says when more existed. " +
        "Stops after 20 seconds.",
      inputSchema: {
        slug,
        sql: z.string().min(1).max(4000).describe(
          "The statement, e.g. `SELECT country, count(*) FROM records GROUP BY 1`.",
        ),
        version,
        limit: z.number().int().min(1).max(1000).optional().describe("Rows to return, 1-1000 (default 200)."),
      },
      annotations: read,
    },
    (args) =>
      answer(() =>
        postQuery(ctx, jsonPost(base, { sql: args.sql, version: args.version, limit: args.limit }), args.slug)
      ),
  );

  if (ctx.readOnly) return server;

  server.registerTool("contribute_records", {
    title: "Contribute records",
    description: "Append 1-500 records to a project created on this node. They pass the schema, personal-data and " +
      "duplicate gates and merge into a new version at once; the answer says merged (with the version) or rejected " +
      "(with the gate and reason). Give `idempotencyKey` to make a retry safe.",
    inputSchema: {
      slug,
      records: z.array(z.record(z.unknown())).min(1).max(500).describe("Records as objects matching the schema."),
      sourceDeclaration: z.string().max(500).optional().describe("Where the records come from."),
      idempotencyKey: z.string().min(1).max(200).optional().describe(
        "The same key with the same records within 24 hours replays the first answer.",
      ),
      wait: z.boolean().optional().describe("Accepted for the origin's clients; a node's answer is always final."),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, (args) =>
    answer(async () => {
      const headers: Record<string, string> = args.idempotencyKey ? { "idempotency-key": args.idempotencyKey } : {};
      const body = { records: args.records, sourceDeclaration: args.sourceDeclaration };
      const res = await postContribution(ctx, jsonPost(base, body, headers), args.slug);
      const replayed = res.headers.get("idempotent-replayed") === "true";
      return Response.json({ ...(await res.json()), replayed });
    }));

  server.registerTool("contribution_status", {
    title: "Contribution status",
    description: "A contribution's answer, by the id `contribute_records` gave.",
    inputSchema: { slug, id: z.string().max(100).describe("The contribution id (a UUID).") },
    annotations: read,
  }, (args) => answer(() => getContribution(ctx, args.slug, args.id)));

  return server;
}
