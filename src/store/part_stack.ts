/**
 * The parts of a local project's versions as one persistent stack, kept in
 * `<slug>/index/parts.log`: each line is a part (a node) and names the node
 * below it. A merge pops the tail parts it folds and pushes the one part it
 * writes, so each version adds exactly one line, and a version is its top
 * node: its parts are the walk from that node down. Nothing is rewritten
 * when a version is made, however many came before it.
 *
 * @module
 */
import { join } from "node:path";
import { type FixedLog, fixedLog } from "./_fixed_log.ts";
import { projectDir } from "./layout.ts";

/** Bytes per line of `parts.log`. */
const WIDTH = 224;

/** One part on the stack. */
export interface PartNode {
  /** Its line in `parts.log`. */
  node: number;
  /** The version that pushed it (null: laid down by the store's upgrade). */
  pushedBy: number | null;
  /** Lowercase SHA-256 hex of the part file. */
  sha256: string;
  /** Its size in bytes. */
  bytes: number;
  /** Its records. */
  records: number;
  /** The node below it, or null at the bottom. */
  below: number | null;
  /** Records in the parts below it: where its first record sits in a version. */
  start: number;
  /** Parts below it. */
  depth: number;
}

/** A project's `parts.log`. */
export interface PartStack {
  /** Nodes written. */
  count(): number;
  /** The node at `node`; throws when the log does not hold it. */
  node(node: number): Promise<PartNode>;
  /** The parts from the bottom of the stack up to `top`, in record order. */
  parts(top: PartNode): Promise<PartNode[]>;
  /** Appends `nodes` (numbered from {@linkcode PartStack.count}); fsyncs when `sync`. Call under the project's lock. */
  push(nodes: readonly PartNode[], sync: boolean): Promise<void>;
  /** The log file. */
  readonly log: FixedLog;
}

function isCount(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

/**
 * A node read from a log line or a manifest, or null when it is not one.
 *
 * @example
 * ```ts
 * import { partNodeOf } from "./part_stack.ts";
 * partNodeOf({ node: 0, pushedBy: 1, sha256: "ab".repeat(32), bytes: 9, records: 1, below: null, start: 0, depth: 0 });
 * ```
 */
export function partNodeOf(value: unknown): PartNode | null {
  const v = value as Record<string, unknown> | null;
  if (!v || typeof v !== "object") return null;
  const ok = isCount(v.node) && (v.pushedBy === null || isCount(v.pushedBy)) &&
    typeof v.sha256 === "string" && /^[0-9a-f]{64}$/.test(v.sha256) && isCount(v.bytes) && isCount(v.records) &&
    (v.below === null || (isCount(v.below) && v.below < v.node)) && isCount(v.start) && isCount(v.depth);
  if (!ok) return null;
  return {
    node: v.node as number,
    pushedBy: v.pushedBy as number | null,
    sha256: v.sha256 as string,
    bytes: v.bytes as number,
    records: v.records as number,
    below: v.below as number | null,
    start: v.start as number,
    depth: v.depth as number,
  };
}

/**
 * The `parts.log` of `slug` in the store at `root`.
 *
 * @example
 * ```ts
 * import { partStack } from "./part_stack.ts";
 * const stack = partStack(await Deno.makeTempDir(), "notes");
 * console.log(stack.count()); // 0
 * ```
 */
export function partStack(root: string, slug: string): PartStack {
  const log = fixedLog(join(projectDir(root, slug), "index", "parts.log"), WIDTH);
  async function node(n: number): Promise<PartNode> {
    const found = partNodeOf(await log.read(n));
    if (!found || found.node !== n) throw new Error(`${log.path} holds no part node ${n}: the store needs repair`);
    return found;
  }
  return {
    log,
    count: () => log.count(),
    node,
    async parts(top) {
      const out: PartNode[] = [top];
      for (let at = top; at.below !== null;) {
        const next = await node(at.below);
        if (next.depth !== at.depth - 1 || next.start + next.records !== at.start) {
          throw new Error(`${log.path}: part node ${next.node} does not fit under node ${at.node}`);
        }
        out.push(next);
        at = next;
      }
      if (out[out.length - 1].depth !== 0) throw new Error(`${log.path}: the stack under node ${top.node} is cut`);
      return out.reverse();
    },
    async push(nodes, sync) {
      await log.append(nodes.map((n) => ({ ...n })), sync);
    },
  };
}
