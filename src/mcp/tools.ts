/**
 * The node's MCP tools. Each one calls the service that answers the same
 * HTTP route (`src/service/`), so HTTP and MCP cannot drift: a tool's answer
 * is the route's JSON. Input schemas are strict (an unknown argument is refused, and the
 * listed JSON schema says `additionalProperties: false`); every tool has a
 * title and annotations that say what it does to the node.
 *
 * @module
 */
import { z } from "zod";
import { MAX_ROWS, MAX_SQL_CHARS, QUERY_TIMEOUT_MS } from "../sql/mod.ts";
import {
  contributeRecords,
  contributionStatus,
  createProject,
  manifestText,
  MAX_RECORDS,
  type NodeState,
  projectDetail,
  projectList,
  queryVersion,
  readPage,
  readView,
  versionManifest,
  versionStatistics,
} from "../service/mod.ts";
import type { ExactJson } from "../wire/mod.ts";
import { VIEW_ARGS, viewOfArgs } from "./view_args.ts";

const NO_VIEW = { filters: [], search: null, sort: null };

/** What a tool does to the node, as MCP tool annotations say it. */
export interface ToolHints {
  /** The tool's title again, for clients of protocol 2025-03-26 (which read it here). */
  title?: string;
  /** It changes nothing. */
  readOnlyHint: boolean;
  /** It may delete or overwrite (only meaningful when not read-only). */
  destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** It reaches beyond this node. */
  openWorldHint: boolean;
}

/** One MCP tool: how it is listed and what answers it. */
export interface NodeTool {
  /** Tool name. */
  name: string;
  /** Human title. */
  title: string;
  /** What it does, for the model. */
  description: string;
  /** Annotations. */
  annotations: ToolHints;
  /** Strict input schema. */
  input: z.AnyZodObject;
  /** Part of the write side, which a `--read-only` node leaves out (`contribution_status` too, though it only reads). */
  writeSide: boolean;
  /** Answers arguments that passed `input` with the HTTP route's JSON text, or throws its `NodeError`. */
  run(args: Record<string, unknown>): Promise<string>;
}

/** Most records on one `read_dataset` page. */
export const MCP_PAGE_MAX = 200;
/** `read_dataset`'s page when `limit` is left out. */
export const MCP_PAGE_DEFAULT = 50;

const READ: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function tool<S extends z.ZodRawShape>(
  meta: Omit<NodeTool, "input" | "run" | "writeSide"> & { writeSide?: boolean },
  shape: S,
  run: (args: z.infer<z.ZodObject<S>>) => Promise<string>,
): NodeTool {
  return {
    ...meta,
    annotations: { title: meta.title, ...meta.annotations },
    writeSide: meta.writeSide ?? false,
    input: z.object(shape).strict(),
    run: (args) => run(args as z.infer<z.ZodObject<S>>),
  };
}

const decoder = new TextDecoder();
const text = (value: unknown) => JSON.stringify(value);

const slug = z.string().describe(
  "Project slug, as `list_datasets` gives it (e.g. `cities`, the example project of the README).",
);
const version = z.number().int().min(1).optional().describe("Version number; the newest whole version when left out.");

const field = z.object({
  name: z.string().describe("Field name: a letter, then letters, digits or `_` (at most 61 characters)."),
  type: z.enum(["string", "number", "integer", "boolean"]),
  required: z.boolean().optional().describe("`false` lets records leave the field out (default true)."),
}).strict();

/** `read_dataset`: a page of records, or of a view of them (filters, search, sort, facets). */
function readTool(ctx: NodeState): NodeTool {
  return tool({
    name: "read_dataset",
    title: "Read records",
    description: "A page of records of one version, in order, with `total` and `next` (the next `offset`, or " +
      "null at the end). Narrow and order it without SQL: `filters` per column, `search` over the string " +
      "columns, `sort` by a column, and `facets` for the most frequent values of up to five columns, e.g. " +
      '`{"slug": "cities", "filters": [{"column": "country", "op": "eq", "value": "FR"}], ' +
      '"sort": {"column": "population", "descending": true}, "facets": ["admin1"], "limit": 10}`.',
    annotations: READ,
  }, {
    slug,
    version,
    limit: z.number().int().min(1).max(MCP_PAGE_MAX).optional()
      .describe(`Records in the page, 1-${MCP_PAGE_MAX} (default ${MCP_PAGE_DEFAULT}).`),
    offset: z.number().int().min(0).optional().describe("Records to skip (default 0)."),
    ...VIEW_ARGS,
  }, async (args) => {
    const page = { version: args.version ?? null, limit: args.limit ?? MCP_PAGE_DEFAULT, offset: args.offset ?? 0 };
    const view = viewOfArgs(args);
    const facets = args.facets ?? [];
    if (view === null && facets.length === 0) return decoder.decode(await readPage(ctx, args.slug, page));
    return await readView(ctx, args.slug, { ...page, view: view ?? NO_VIEW, facets });
  });
}

/** The read tools, which every node lists. */
function readTools(ctx: NodeState, base: string): NodeTool[] {
  return [
    tool(
      {
        name: "list_datasets",
        title: "List datasets",
        description: "Dataset projects on this node: slug, title, license, records and versions held. " +
          "Give `query` to keep those whose slug or title contains it.",
        annotations: READ,
      },
      { query: z.string().max(200).optional().describe("Substring of the slug or title (any case).") },
      async (args) => {
        const { projects } = await projectList(ctx);
        const q = args.query?.toLowerCase();
        const kept = q ? projects.filter((p) => `${p.slug}\n${p.title}`.toLowerCase().includes(q)) : projects;
        return text({ projects: kept });
      },
    ),
    tool(
      {
        name: "dataset_info",
        title: "Dataset info",
        description: "One project's README, schema (fields and types), license and the versions this node holds. " +
          "Read it before reading or querying the records.",
        annotations: READ,
      },
      { slug },
      async (args) => text(await projectDetail(ctx, args.slug)),
    ),
    readTool(ctx),
    tool(
      {
        name: "dataset_manifest",
        title: "Dataset manifest",
        description: "The version manifest: its Parquet parts with sizes, digests and download URLs on this node, " +
          "totals, and the origin's signature when the version came from the origin.",
        annotations: READ,
      },
      { slug, version },
      async (args) => {
        const wanted = { version: args.version ?? null, origin: base };
        let manifest = "";
        for await (const piece of manifestText(await versionManifest(ctx, args.slug, wanted))) manifest += piece;
        return manifest;
      },
    ),
    tool(
      {
        name: "query_dataset",
        title: "Query with SQL",
        description: "One read-only SQL statement (DuckDB dialect: SELECT, WITH, FROM, VALUES, DESCRIBE, SUMMARIZE) " +
          `over one version, seen as the table \`records\`. At most ${MAX_ROWS} rows; \`truncated\` says when more ` +
          `existed. Stops after ${QUERY_TIMEOUT_MS / 1000} seconds.`,
        annotations: READ,
      },
      {
        slug,
        sql: z.string().min(1).max(MAX_SQL_CHARS)
          .describe("The statement, e.g. `SELECT country, count(*) FROM records GROUP BY 1`."),
        version,
        limit: z.number().int().min(1).max(MAX_ROWS).optional().describe(
          `Rows to return, 1-${MAX_ROWS} (default 200).`,
        ),
      },
      (args) =>
        queryVersion(ctx, args.slug, { sql: args.sql, version: args.version ?? null, limit: args.limit ?? null }),
    ),
  ];
}

/** `dataset_statistics`: a version's column statistics, as `GET /projects/{slug}/statistics` answers them. */
function statisticsTool(ctx: NodeState): NodeTool {
  return tool(
    {
      name: "dataset_statistics",
      title: "Column statistics",
      description: 'Statistics of every column of one version, e.g. `{"slug": "cities"}`: records, and per ' +
        "column nulls, distinct values (approximate), for numbers min/max/mean, quantiles (approximate) and a " +
        "histogram, for strings the top values and lengths, for booleans true/false counts, for dates and times " +
        "min/max; plus `suggestedFacets`, columns worth filtering or faceting on. Computed once per version, then " +
        "cheap: read it before writing SQL to learn the columns' ranges and values.",
      annotations: READ,
    },
    { slug, version },
    (args) => versionStatistics(ctx, args.slug, args.version ?? null),
  );
}

/** The write tools, which a `--read-only` node leaves out. */
function writeTools(ctx: NodeState): NodeTool[] {
  return [
    tool({
      name: "create_dataset",
      title: "Create dataset",
      description: "Create an empty dataset project on this node, as `POST /projects` does: its slug, title " +
        "(4-140 characters), README (20-20,000 characters) and schema (1-40 typed fields). Records are then added " +
        "with `contribute_records`. A slug already on the node is refused (409) and changes nothing.",
      // Additive; not idempotent as the reference node says: a repeated call is refused (the slug is taken: 409).
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      writeSide: true,
    }, {
      slug: z.string().describe("New slug: 3-60 of a-z, 0-9 and `-`, starting and ending with a letter or digit."),
      title: z.string().describe("Title, 4-140 characters."),
      readme: z.string().describe("README (Markdown), 20-20,000 characters: what the records are and where from."),
      schemaDef: z.object({
        fields: z.array(field).min(1).max(40).describe("The record fields, 1-40."),
        allowExtra: z.boolean().optional().describe("Whether records may carry fields not listed (default false)."),
      }).strict().describe("The records' schema."),
      license: z.string().optional().describe("License, up to 60 characters (default `platform-standard`)."),
      tags: z.array(z.string()).max(8).optional().describe("Up to 8 tags of 2-30 of a-z, 0-9 and `-`."),
      visibility: z.enum(["public", "private"]).optional().describe("Listed publicly or not (default `private`)."),
    }, async (args) => text(await createProject(ctx, JSON.parse(JSON.stringify(args))))),
    tool({
      name: "contribute_records",
      title: "Contribute records",
      description: `Append 1-${MAX_RECORDS} records (at most 512 KiB) to a project created on this node. They pass ` +
        "the schema, personal-data and duplicate gates and merge into a new version at once; the answer says merged " +
        "(with the version) or rejected (with the gate and reason). Give `idempotencyKey` to make a retry safe.",
      // A merge prunes the oldest version when the node keeps a fixed number of versions.
      annotations: {
        readOnlyHint: false,
        destructiveHint: ctx.keepVersions !== null,
        idempotentHint: false,
        openWorldHint: false,
      },
      writeSide: true,
    }, {
      slug,
      records: z.array(z.record(z.unknown())).min(1).max(MAX_RECORDS).describe(
        "Records as objects matching the schema.",
      ),
      sourceDeclaration: z.string().max(500).optional().describe("Where the records come from."),
      idempotencyKey: z.string().min(1).max(200).optional()
        .describe("The same key with the same records within 24 hours replays the first answer."),
      wait: z.boolean().optional().describe("Accepted for the origin's clients; a node's answer is always final."),
    }, async (args) => {
      // As the HTTP route reads them: exact integers, what a JSON body would carry.
      const body = { records: args.records, sourceDeclaration: args.sourceDeclaration } as ExactJson;
      const sender = { idempotencyKey: args.idempotencyKey ?? null, agentId: "anonymous" };
      const outcome = await contributeRecords(ctx, args.slug, () => Promise.resolve(body), sender);
      return text({ ...outcome.view, replayed: outcome.replayed });
    }),
    tool(
      {
        name: "contribution_status",
        title: "Contribution status",
        description: "A contribution's answer, by the id `contribute_records` gave.",
        annotations: READ,
        writeSide: true,
      },
      { slug, id: z.string().max(100).describe("The contribution id (a UUID).") },
      async (args) => text(await contributionStatus(ctx, args.slug, args.id)),
    ),
  ];
}

/**
 * Every tool of the node, in listing order; `base` is the node's address as
 * the client reached it (for part URLs). A `--read-only` node lists only
 * those not on the write side.
 */
export function nodeTools(ctx: NodeState, base: string): NodeTool[] {
  return [...readTools(ctx, base), statisticsTool(ctx), ...writeTools(ctx)];
}
