/**
 * The node's MCP tools, drawn from the catalog: every operation with a
 * `tool` entry is one, in the catalog's order (the read side first), its
 * strict input schema built from the operation's (narrowed where the tool
 * pages less, less what HTTP alone takes, plus the tool's own fields), its
 * annotations from whether it writes. Each one calls the service that
 * answers the same HTTP route, so HTTP and MCP cannot drift: a tool's
 * answer is the route's JSON.
 *
 * @module
 */
import type { z } from "zod/v3";
import {
  type Fields,
  narrow,
  type Operation,
  type OperationName,
  type ToolEntry,
  toolOperations,
} from "../catalog/mod.ts";
import { type NodeState, serviceOf } from "../service/mod.ts";
import { objectOf } from "./schema.ts";
import { TOOL_RUNS, type ToolRun } from "./tool_runs.ts";

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

/**
 * The fields a tool takes: the operation's (narrowed, less those it omits),
 * then its own.
 *
 * @example
 * ```ts
 * import { CATALOG } from "../catalog/mod.ts";
 * import { toolFields } from "./tools.ts";
 * toolFields(CATALOG.read_page, CATALOG.read_page.tool).limit; // bounded 1-200, default 50
 * ```
 */
export function toolFields(op: Operation, tool: ToolEntry): Fields {
  const fields: Record<string, Fields[string]> = { ...narrow(op.input, tool.narrow ?? {}) };
  for (const name of tool.omit ?? []) delete fields[name];
  return { ...fields, ...tool.extra };
}

const decoder = new TextDecoder();

/** The integer fields of `fields` that have a default, with it. */
function defaultsOf(fields: Fields): [string, number][] {
  return Object.entries(fields).flatMap(([name, f]) =>
    f.type === "integer" && f.default !== undefined ? [[name, f.default] as [string, number]] : []
  );
}

/** Arguments as the service takes them: a field left out is null. */
function withNulls(fields: Fields, args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) out[name] = args[name] ?? null;
  return out;
}

/** The run of a tool its service answers alone: the answer's JSON text. */
function served(ctx: NodeState, op: Operation, fields: Fields): ToolRun {
  const service = serviceOf(op.name as OperationName) as
    | ((state: NodeState, input: Record<string, unknown>) => Promise<unknown>)
    | null;
  if (service === null) throw new Error(`tool of ${op.name}: its operation has neither a service nor a tool run`);
  return async (args) => {
    const answer = await service(ctx, withNulls(fields, args));
    if (typeof answer === "string") return answer;
    return answer instanceof Uint8Array ? decoder.decode(answer) : JSON.stringify(answer);
  };
}

function hints(ctx: NodeState, op: Operation, tool: ToolEntry): ToolHints {
  const title = tool.title;
  // A creation is additive but not idempotent as the reference node says: a repeat is refused (409).
  if (op.write) {
    const destructiveHint = tool.prunes === true && ctx.keepVersions !== null;
    return { title, readOnlyHint: false, destructiveHint, idempotentHint: false, openWorldHint: false };
  }
  return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
}

/**
 * Every tool of the node, in listing order; `base` is the node's address as
 * the client reached it (for part URLs). A `--read-only` node lists only
 * those not on the write side.
 */
export function nodeTools(ctx: NodeState, base: string): NodeTool[] {
  return toolOperations().map((op) => {
    const { tool } = op;
    const fields = toolFields(op, tool);
    const own = TOOL_RUNS[op.name as OperationName];
    const run = own ? own(ctx, base) : served(ctx, op, fields);
    const defaults = defaultsOf(fields);
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      annotations: hints(ctx, op, tool),
      writeSide: op.write || tool.writeSide === true,
      input: objectOf(fields),
      run: defaults.length === 0 ? run : (args) => {
        const given = { ...args };
        for (const [name, value] of defaults) given[name] ??= value;
        return run(given);
      },
    };
  });
}
