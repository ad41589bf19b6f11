/**
 * The catalog: every operation of the node, by name, in the order the MCP
 * tools are listed and the docs read (the projects, a version's records,
 * the writes, the node itself).
 *
 * @module
 */
import { NODE_OPERATIONS } from "./node.ts";
import type { Operation, OperationAnswer, OperationInput, ParsedInput } from "./operation.ts";
import { PROJECT_OPERATIONS } from "./projects.ts";
import { RECORD_OPERATIONS } from "./records.ts";
import { WRITE_OPERATIONS } from "./writes.ts";

/** The catalog's type: each area's operations, by name. */
export type Catalog =
  & typeof PROJECT_OPERATIONS
  & typeof RECORD_OPERATIONS
  & typeof WRITE_OPERATIONS
  & typeof NODE_OPERATIONS;

/** Every operation, by name. */
export const CATALOG: Catalog = {
  ...PROJECT_OPERATIONS,
  ...RECORD_OPERATIONS,
  ...WRITE_OPERATIONS,
  ...NODE_OPERATIONS,
};

/** The name of an operation of the catalog. */
export type OperationName = keyof typeof CATALOG;

/** What a caller gives operation `N`. */
export type InputOf<N extends OperationName> = OperationInput<(typeof CATALOG)[N]>;

/** What operation `N` is handed once its input is parsed. */
export type ParsedOf<N extends OperationName> = ParsedInput<(typeof CATALOG)[N]>;

/** What operation `N` answers. */
export type AnswerOf<N extends OperationName> = OperationAnswer<(typeof CATALOG)[N]>;

/**
 * Every operation, in the catalog's order.
 *
 * @example
 * ```ts
 * import { operations } from "./catalog.ts";
 * operations().find((o) => o.path === "/projects/{slug}/data")?.name; // "read_page"
 * ```
 */
export function operations(): readonly Operation[] {
  return Object.values(CATALOG) as readonly Operation[];
}

/**
 * The operations that are MCP tools, in the tools' listing order: the
 * read side first, then the write side.
 *
 * @example
 * ```ts
 * import { toolOperations } from "./catalog.ts";
 * toolOperations()[0].tool?.name; // "list_datasets"
 * ```
 */
export function toolOperations(): readonly (Operation & { tool: NonNullable<Operation["tool"]> })[] {
  const tools = operations().filter((o): o is Operation & { tool: NonNullable<Operation["tool"]> } => !!o.tool);
  const side = (o: Operation) => (o.write || o.tool?.writeSide ? 1 : 0);
  return tools.map((o, i) => ({ o, i })).sort((a, b) => side(a.o) - side(b.o) || a.i - b.i).map((x) => x.o);
}
