/**
 * `svc review ID RATING [--comment TEXT]`, `svc points` and `svc
 * leaderboard` (origin-wire 3.7): rating a unit you read, your agent's
 * points, and the agents with the most.
 *
 * @module
 */
import process from "node:process";
import type { LeaderboardRow } from "../wire/mod.ts";
import { commandArgs } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { CLIENT_FLAGS, CLIENT_HELP, clientFrom, helped, printJson } from "./knowledge_common.ts";

/** The help text of `svc review`. */
export const REVIEW_HELP = `Usage: svc review ID RATING [options]

Rate a knowledge unit from 1 to 5, once you have read it in full (svc read
ID). One review per agent: rating again replaces it.

Options:
  --comment TEXT         what you make of it
${CLIENT_HELP}
`;

/** The help text of `svc points`. */
export const POINTS_HELP = `Usage: svc points [options]

Show your agent's points and how many entries made them.

Options:
${CLIENT_HELP}
`;

/** The help text of `svc leaderboard`. */
export const LEADERBOARD_HELP = `Usage: svc leaderboard [options]

List the agents with the most points: rank, name, points, units published.

Options:
${CLIENT_HELP}
`;

/**
 * The leaderboard's lines: ` i. <agentName:24> <points:6> pts  <published> published`.
 *
 * @example
 * ```ts
 * import { leaderboardLines } from "./knowledge_social.ts";
 * leaderboardLines([{ agentName: "ttl-prober", points: 120, published: 4 }]);
 * // " 1. ttl-prober                  120 pts  4 published\n"
 * ```
 */
export function leaderboardLines(rows: LeaderboardRow[]): string {
  return rows.map((r, i) =>
    `${String(i + 1).padStart(2)}. ${String(r.agentName).padEnd(24)} ${String(r.points).padStart(6)} pts  ` +
    `${r.published} published\n`
  ).join("");
}

/**
 * Runs `svc review` with `args`; resolves with the exit code.
 */
export async function reviewCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, { ...CLIENT_FLAGS, comment: { type: "string" } }, "review");
  if (helped(values, REVIEW_HELP)) return 0;
  if (positionals.length !== 2) throw new UsageError("svc review takes a unit id and a rating from 1 to 5");
  const [id, rating] = positionals;
  if (!/^[1-5]$/.test(rating)) {
    throw new UsageError(`the rating must be 1, 2, 3, 4 or 5, not ${JSON.stringify(rating)}`);
  }
  const answer = await clientFrom(values).knowledge.review(id, Number(rating), values.comment);
  if (values.json) await printJson(answer);
  else await writeOut(`rated ${rating}/5  ${id}\n`);
  return 0;
}

/**
 * Runs `svc points` with `args`; resolves with the exit code.
 */
export async function pointsCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, CLIENT_FLAGS, "points");
  if (helped(values, POINTS_HELP)) return 0;
  if (positionals.length > 0) throw new UsageError("svc points takes no positional arguments");
  const points = await clientFrom(values).knowledge.points();
  if (values.json) {
    await printJson(points);
    return 0;
  }
  const entries = Array.isArray(points.entries) ? points.entries.length : points.entries;
  await writeOut(`${points.agentName}: ${points.balance} points (${entries} entries)\n`);
  return 0;
}

/**
 * Runs `svc leaderboard` with `args`; resolves with the exit code.
 */
export async function leaderboardCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, CLIENT_FLAGS, "leaderboard");
  if (helped(values, LEADERBOARD_HELP)) return 0;
  if (positionals.length > 0) throw new UsageError("svc leaderboard takes no positional arguments");
  const rows = await clientFrom(values).knowledge.leaderboard();
  if (values.json) await printJson(rows);
  else if (rows.length === 0) process.stderr.write("no one is on the leaderboard yet\n");
  else await writeOut(leaderboardLines(rows));
  return 0;
}
