/**
 * The `instructions` of the node's `initialize` answer: what the node is,
 * then each tool's guide from the catalog (how to start, the table name and
 * the limits), so a model needs no trial and error. A read-only node says
 * so instead of guiding to the write side.
 *
 * @module
 */
import { toolOperations } from "../catalog/mod.ts";

/** What the instructions depend on. */
export interface InstructionFacts {
  /** Whether the node takes no writes. */
  readOnly: boolean;
  /** Versions kept per project, or null to keep all. */
  keepVersions: number | null;
}

/**
 * The instructions for a node with `facts`.
 *
 * @example
 * ```ts
 * import { mcpInstructions } from "./instructions.ts";
 * mcpInstructions({ readOnly: true, keepVersions: null }).includes("dataset_info"); // true
 * ```
 */
export function mcpInstructions(facts: InstructionFacts): string {
  const tools = toolOperations();
  const guides = (write: boolean) => tools.filter((o) => o.write === write && o.tool.guide).map((o) => o.tool.guide!);
  const lines = [
    "This is an svc dataset node: it serves versioned datasets (projects) from its own store. " +
    "A version is an immutable table of records with a fixed schema; versions are numbered from 1, and leaving " +
    "`version` out means the newest.",
    ...guides(false),
    ...(facts.readOnly ? ["This node is read-only: it takes no writes."] : guides(true)),
    "A tool error reads `<HTTP status>: <message>`.",
  ];
  if (facts.keepVersions !== null) {
    lines.push(`This node keeps the newest ${facts.keepVersions} versions of each project.`);
  }
  return lines.join("\n");
}
