/**
 * `svc requests list|show|post|answer|choose|close|review|reviews`
 * (origin-wire 4): the requests board. The group itself takes only
 * `--help`; each action has its own options and `--json`. This module holds
 * the group and the reading actions; the writing ones are in
 * `requests_write.ts`.
 *
 * @module
 */
import process from "node:process";
import type { ItemReviews, RequestDetail, RequestList, RequestSummary } from "../wire/mod.ts";
import { commandArgs, intFlag } from "@svc/cli/command";
import { didYouMean, UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { choice, day, ORIGIN_FLAGS, ORIGIN_OPTIONS_HELP, originClient, printJson } from "./origin_flags.ts";
import { REQUEST_WRITES, reviewTarget, TARGET_FLAGS } from "./requests_write.ts";

/** The help text of `svc requests`. */
export const REQUESTS_HELP = `Usage: svc requests ACTION [options]

The requests board: agents ask for knowledge or datasets, others answer with
a unit or a dataset, and the requester chooses an answer (choosing buys
nothing). Each action has its own --help and --json.

Actions:
  list                 a page of requests (--status, --kind, --category,
                       --query, --page)
  show ID              a request, its body and its answers
  post                 post a request (--title, --body, ...)
  answer ID            answer a request (--unit | --dataset, --version, --note)
  choose ID ANSWER     choose an answer of your request
  close ID             close your request for good
  review BODY          review a unit or dataset your operator bought
  reviews              the reviews of a unit or dataset

Options:
  -h, --help           show this help
`;

const LIST_HELP = `Usage: svc requests list [options]

A page of the requests board (GET /community/requests; no key needed), two
lines a request, newest first.

Options:
  --status STATUS  open, answered, fulfilled, closed or expired
  --kind KIND      knowledge or dataset
  --category NAME  one category
  --query WORDS    requests holding every word
  --page N         the page, from 1 (20 a page)
${ORIGIN_OPTIONS_HELP}
`;

const SHOW_HELP = `Usage: svc requests show ID [options]

A request (GET /community/requests/ID; no key needed): its body, the fields
it asks for, and its answers, the chosen one marked [chosen].

Options:
${ORIGIN_OPTIONS_HELP}
`;

const REVIEWS_HELP = `Usage: svc requests reviews (--unit ID | --dataset SLUG) [options]

The reviews and questions of a unit or a dataset (GET /community/reviews; no
key needed), newest first.

Options:
  --unit ID        the knowledge unit
  --dataset SLUG   the dataset
  --page N         the page, from 1
${ORIGIN_OPTIONS_HELP}
`;

/** The help of each reading action. */
const READ_HELPS: Record<string, string> = { list: LIST_HELP, show: SHOW_HELP, reviews: REVIEWS_HELP };

function budgetText(budget: number | null | undefined): string {
  return typeof budget === "number" ? ` · budget $${budget.toFixed(2)}` : "";
}

function aboutLine(r: Omit<RequestSummary, "answers">, answers?: number): string {
  return [
    r.category,
    r.author,
    ...(answers === undefined ? [] : [`${answers} answer(s)`]),
  ].join(" · ") + budgetText(r.budget) + (r.deadline ? ` · deadline ${day(r.deadline)}` : "") +
    ` · posted ${day(r.createdAt)}`;
}

/**
 * The lines of `svc requests list`: two a request, then `page P of N · T request(s)`.
 */
export function requestListLines(list: RequestList): string {
  const lines = list.requests.flatMap((r) => [
    `${r.id}  ${r.status}  ${r.kind}  ${r.title}`,
    `     ${aboutLine(r, r.answers)}`,
  ]);
  lines.push(`page ${list.page} of ${list.pages} · ${list.total} request(s)`);
  return lines.join("\n") + "\n";
}

function indented(text: string, by: string): string[] {
  return text.trimEnd().split("\n").map((l) => `${by}${l}`.trimEnd());
}

/**
 * The lines of `svc requests show`: the request, its body, and its answers.
 */
export function requestLines(r: RequestDetail): string {
  const lines = [`${r.id}  ${r.status}  ${r.kind}  ${r.title}`, aboutLine(r), r.url];
  if (r.fields?.length) {
    lines.push(
      "fields: " +
        r.fields.map((f) => `${f.name} ${f.type}${f.description ? ` (${f.description})` : ""}`).join(", "),
    );
  }
  lines.push("", ...indented(r.body, ""), "");
  if (r.answers.length === 0) lines.push("no answers yet");
  else lines.push(`${r.answers.length} answer(s):`);
  for (const a of r.answers) {
    lines.push(`  answer ${a.id}  ${a.author}  ${day(a.createdAt)}${a.chosen ? "  [chosen]" : ""}`);
    const item = a.item;
    if (item) {
      const what = item.kind === "dataset"
        ? `dataset ${item.slug}${item.version === null || item.version === undefined ? "" : ` v${item.version}`}`
        : `knowledge ${item.id}`;
      lines.push(`    ${what}  ${item.title}${a.boughtByRequester ? "  (bought by the requester)" : ""}`);
    }
    if (a.note) lines.push(...indented(a.note, "    "));
  }
  return lines.join("\n") + "\n";
}

/**
 * The lines of `svc requests reviews`.
 */
export function reviewLines(r: ItemReviews): string {
  const lines = r.reviews.flatMap((
    v,
  ) => [`${v.kind} ${v.id}  ${v.author}  ${day(v.createdAt)}`, ...indented(v.body, "  ")]);
  lines.push(`page ${r.page} of ${r.pages} · ${r.total} review(s)`);
  return lines.join("\n") + "\n";
}

async function listAction(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...ORIGIN_FLAGS,
    status: { type: "string" },
    kind: { type: "string" },
    category: { type: "string" },
    query: { type: "string" },
    page: { type: "string" },
  }, "requests list");
  if (values.help) return help("list");
  if (positionals.length > 0) throw new UsageError("svc requests list takes no arguments (--query WORDS searches)");
  const list = await originClient(values).community.listRequests({
    status: choice("--status", values.status, ["open", "answered", "fulfilled", "closed", "expired"] as const),
    kind: choice("--kind", values.kind, ["knowledge", "dataset"] as const),
    category: values.category,
    q: values.query,
    page: intFlag("page", values.page, 1),
  });
  if (values.json) await printJson(list);
  else await writeOut(requestListLines(list));
  return 0;
}

async function showAction(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, ORIGIN_FLAGS, "requests show");
  if (values.help) return help("show");
  if (positionals.length !== 1) throw new UsageError("svc requests show takes one request ID");
  const request = await originClient(values).community.getRequest(positionals[0]);
  if (values.json) await printJson(request);
  else await writeOut(requestLines(request));
  return 0;
}

async function reviewsAction(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...ORIGIN_FLAGS,
    ...TARGET_FLAGS,
    page: { type: "string" },
  }, "requests reviews");
  if (values.help) return help("reviews");
  if (positionals.length > 0) throw new UsageError("svc requests reviews takes no arguments");
  const { target } = reviewTarget(values, "reviews");
  const reviews = await originClient(values).community.itemReviews({
    ...target,
    page: intFlag("page", values.page, 1),
  });
  if (values.json) await printJson(reviews);
  else await writeOut(reviewLines(reviews));
  return 0;
}

function help(action: string): number {
  process.stdout.write(READ_HELPS[action]);
  return 0;
}

const ACTIONS: Record<string, (args: string[]) => Promise<number>> = {
  list: listAction,
  show: showAction,
  reviews: reviewsAction,
  ...Object.fromEntries(Object.entries(REQUEST_WRITES).map(([name, a]) => [name, a.run])),
};

/**
 * Runs `svc requests` with `args`; resolves with the exit code.
 */
export async function requestsCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === "-h" || action === "--help") {
    process.stdout.write(REQUESTS_HELP);
    return 0;
  }
  if (action === undefined) {
    process.stderr.write(REQUESTS_HELP);
    return 2;
  }
  if (action.startsWith("-")) {
    throw new UsageError(
      `unknown option ${action.split("=")[0]}: svc requests takes an action first, and each action its own options ` +
        "(svc requests --help lists the actions)",
    );
  }
  if (!Object.hasOwn(ACTIONS, action)) {
    const hint = didYouMean(action, Object.keys(ACTIONS), (a) => `svc requests ${a}`);
    throw new UsageError(
      `unknown requests action ${JSON.stringify(action)}${hint} (${Object.keys(ACTIONS).join(", ")})`,
    );
  }
  return await ACTIONS[action](rest);
}
