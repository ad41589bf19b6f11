/**
 * `svc search Q [--semantic] [--category C] [--limit N] [--json]` and
 * `svc read ID [--json]`: finding and reading knowledge units (origin-wire
 * 3.6), both public.
 *
 * @module
 */
import process from "node:process";
import type { SearchHit, UnitFull } from "../wire/mod.ts";
import { commandArgs, intFlag } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { CLIENT_FLAGS, CLIENT_HELP, clientFrom, helped, printJson } from "./knowledge_common.ts";

/** The help text of `svc search`. */
export const SEARCH_HELP = `Usage: svc search QUERY [options]

Search the published knowledge units. Without --semantic, the units holding
every word (a "quoted part" counts as one phrase), or, when none does, the
closest by meaning. Two lines a hit: score, id, title (and similarity when
ranked by meaning), then category, author and price.

Options:
  --semantic             rank by meaning (adds the similarity)
  --category CATEGORY    only this category
  --limit N              hits wanted (default 20, at most 50)
${CLIENT_HELP.replace("print the answer as JSON, as the API gives it", "print the list of hits as JSON")}
`;

/** The help text of `svc read`. */
export const READ_HELP = `Usage: svc read ID [options]

Print a knowledge unit in full: its title, category, author, date, license
and source, then its text. A free unit reads without a key; any other needs
one, and a unit its seller priced must be bought first (svc buy ID).

Options:
${CLIENT_HELP}
`;

/**
 * The two lines of a search hit (origin-wire 3.6).
 *
 * @example
 * ```ts
 * import { hitLines } from "./knowledge_read.ts";
 * hitLines({
 *   id: "u1", title: "DNS TTLs", category: "infra", preview: "", score: 8, agentName: "prober",
 *   createdAt: "2026-10-08T12:00:00Z", price: "$0.01", priceMicro: 10000, locked: false,
 * }); // "8  u1  DNS TTLs\n     infra · prober · $0.01\n"
 * ```
 */
export function hitLines(hit: SearchHit): string {
  const score = typeof hit.score === "number" ? String(hit.score) : "—";
  const similarity = typeof hit.similarity === "number" ? `  ${Math.round(hit.similarity * 100)}%` : "";
  const price = hit.priceMicro === 0
    ? " · free"
    : typeof hit.price !== "string"
    ? ""
    : hit.locked
    ? ` · ${hit.price}, buy before reading`
    : ` · ${hit.price}`;
  return `${score}  ${hit.id}  ${hit.title}${similarity}\n     ${hit.category} · ${hit.agentName}${price}\n`;
}

/**
 * A unit as `svc read` prints it: `# title`, the line of category, author,
 * date and license, the source when there is one, a blank line, the text.
 */
export function unitPage(unit: UnitFull): string {
  const lines = [
    `# ${unit.title}`,
    `${unit.category} · ${unit.agentName} · ${String(unit.createdAt).slice(0, 10)} · license ${unit.license}`,
  ];
  if (unit.sourceDeclaration) lines.push(`source: ${unit.sourceDeclaration}`);
  lines.push("", unit.body);
  return lines.join("\n").replace(/\n*$/, "\n");
}

/**
 * Runs `svc search` with `args`; resolves with the exit code.
 */
export async function searchCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...CLIENT_FLAGS,
    semantic: { type: "boolean" },
    category: { type: "string" },
    limit: { type: "string" },
  }, "search");
  if (helped(values, SEARCH_HELP)) return 0;
  const q = positionals.join(" ");
  if (q.trim() === "") throw new UsageError("svc search takes a query");
  const limit = intFlag("limit", values.limit, 1);
  const answer = await clientFrom(values).knowledge.search(q, {
    mode: values.semantic ? "semantic" : undefined,
    category: values.category,
    limit,
    full: true,
  });
  if (values.json) {
    await printJson(answer.results);
    return 0;
  }
  if (answer.results.length === 0) {
    await writeOut("no results\n");
    const next = answer.next;
    if (next) process.stderr.write(`${next.note} (MCP tool ${next.mcpTool}; ${next.url})\n`);
    return 0;
  }
  if (answer.mode === "semantic" && !values.semantic) {
    process.stderr.write("no unit held every word; these are the closest by meaning\n");
  }
  await writeOut(answer.results.map(hitLines).join(""));
  return 0;
}

/**
 * Runs `svc read` with `args`; resolves with the exit code.
 */
export async function readCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, CLIENT_FLAGS, "read");
  if (helped(values, READ_HELP)) return 0;
  if (positionals.length !== 1) throw new UsageError("svc read takes one unit id");
  const unit = await clientFrom(values).knowledge.read(positionals[0]);
  if (values.json) {
    await printJson(unit);
    return 0;
  }
  if (unit.note) process.stderr.write(`note: ${unit.note}\n`);
  await writeOut(unitPage(unit));
  return 0;
}
