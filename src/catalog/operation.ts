/**
 * What one operation of the node is, declared once as data: its name, its
 * method and path, its input, its answer's type and encoding, what it costs
 * and who may call it, and the MCP tool and the command that mirror it.
 * The node's router, its metrics' route labels, the MCP tool list, the
 * command line and the client are drawn from these declarations.
 *
 * @module
 */
import type { Bounded } from "../wire/mod.ts";
import type { Fields, InputFields, ParsedFields } from "./schema.ts";

/** How an answer is written. */
export type Encoding =
  /** One JSON document. */
  | "json"
  /** A body streamed as it is made (an export). */
  | "stream"
  /** A file's bytes (a part), with ranges. */
  | "bytes"
  /** Plain text (the Prometheus format). */
  | "text";

/** The MCP tool that mirrors an operation. */
export interface ToolEntry {
  /** The tool's name. */
  readonly name: string;
  /** Its human title. */
  readonly title: string;
  /** What it does, for the model. */
  readonly description: string;
  /** The sentence the server's instructions give it, if any (read-only nodes leave out the write side's). */
  readonly guide?: string;
  /** Narrower bounds than HTTP's for some integer fields (a model reads every record it is given). */
  readonly narrow?: Readonly<Record<string, Bounded>>;
  /** Fields of the operation the tool does not take. */
  readonly omit?: readonly string[];
  /** Fields only the tool takes (its JSON form of what HTTP says in a query string, or a filter of its own). */
  readonly extra?: Fields;
  /** Listed only where writes are taken, though it may only read (a contribution's status). */
  readonly writeSide?: boolean;
  /** A call may drop the oldest version (where the node keeps a fixed number): destructive then. */
  readonly prunes?: boolean;
}

/** The help's groups of commands. */
export type CommandGroup = "node" | "datasets";

/** The `svc` command that mirrors an operation. */
export interface CommandEntry {
  /** The command's name (`svc <name>`). */
  readonly name: string;
  /** One line for the help's list. */
  readonly about: string;
  /** The help's group. */
  readonly group: CommandGroup;
  /**
   * Without `--json`: the answer's list `rows` printed as a table of
   * `columns`; when the answer's `next` is not null, the flag that asks for
   * the next page with it.
   */
  readonly table?: { readonly rows: string; readonly columns: readonly string[]; readonly next?: string };
}

/** One operation. `A` is its answer's type. */
export interface Operation<F extends Fields = Fields, A = unknown> {
  /** Its name, unique in the catalog (snake case). */
  readonly name: string;
  /** `GET` (HEAD goes with it) or `POST`. */
  readonly method: "GET" | "POST";
  /** Its path, parameters in braces: `/projects/{slug}/data`. Also its metrics' route label. */
  readonly path: string;
  /** What it does, in one line. */
  readonly about: string;
  /** Its input: the path's parameters, then the query's (GET) or the JSON body's (POST) fields. */
  readonly input: F;
  /** Its answer's type, for TypeScript: `undefined as unknown as T` (the value is always undefined). */
  readonly answer: A;
  /** How the answer is written. */
  readonly encoding: Encoding;
  /** Whether making the answer costs memory: refused (503) while the node is at its memory budget. */
  readonly costly: boolean;
  /** Whether it answers without the node token (it guards itself, or shows less). */
  readonly public: boolean;
  /** Whether it changes the node (refused on a read-only node). */
  readonly write: boolean;
  /** The MCP tool that mirrors it. */
  readonly tool?: ToolEntry;
  /** The command that mirrors it. */
  readonly command?: CommandEntry;
}

/** The input a caller gives operation `O`. */
export type OperationInput<O> = O extends Operation<infer F, unknown> ? InputFields<F> : never;

/** The input operation `O` is handed once parsed (defaults applied, left out null). */
export type ParsedInput<O> = O extends Operation<infer F, unknown> ? ParsedFields<F> : never;

/** The answer of operation `O`. */
export type OperationAnswer<O> = O extends Operation<Fields, infer A> ? A : never;

/**
 * The names of a path's parameters, in order.
 *
 * @example
 * ```ts
 * import { pathParams } from "./operation.ts";
 * pathParams("/projects/{slug}/contributions/{id}"); // ["slug", "id"]
 * ```
 */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]);
}
