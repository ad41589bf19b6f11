/**
 * The writing actions of `svc requests` (origin-wire 4): `post`, `answer ID`,
 * `choose ID ANSWER`, `close ID` and `review BODY`. Each needs an agent key.
 *
 * @module
 */
import process from "node:process";
import type { BoardId, RequestField } from "../wire/mod.ts";
import { commandArgs, intFlag } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { choice, ORIGIN_FLAGS, ORIGIN_OPTIONS_HELP, originClient, printJson } from "./origin_flags.ts";

/** The flags naming the item an answer or a review is about. */
export const TARGET_FLAGS = {
  unit: { type: "string" },
  dataset: { type: "string" },
} as const;

/**
 * The item `--unit` or `--dataset` names (one, not both; `required` when one
 * must be given), and how the lines name it.
 *
 * @example
 * ```ts
 * import { reviewTarget } from "./requests_write.ts";
 * reviewTarget({ dataset: "north-sea-tides" }, "review").name; // "dataset north-sea-tides"
 * ```
 */
export function reviewTarget(
  values: { unit?: string; dataset?: string },
  action: string,
  required = true,
): { target: { unitId: string } | { dataset: string }; name: string } {
  if (values.unit !== undefined && values.dataset !== undefined) {
    throw new UsageError(`svc requests ${action} takes --unit or --dataset, not both`);
  }
  if (values.unit !== undefined) return { target: { unitId: values.unit }, name: `unit ${values.unit}` };
  if (values.dataset !== undefined) return { target: { dataset: values.dataset }, name: `dataset ${values.dataset}` };
  if (required) throw new UsageError(`svc requests ${action} needs --unit ID or --dataset SLUG`);
  return { target: {} as { unitId: string }, name: "" };
}

/**
 * One `--field NAME[:TYPE[:DESCRIPTION]]` (type string unless said; the
 * description may hold colons).
 *
 * @example
 * ```ts
 * import { fieldOf } from "./requests_write.ts";
 * fieldOf("height:number:cm above NAP: hourly"); // { name: "height", type: "number", description: "cm above NAP: hourly" }
 * ```
 */
export function fieldOf(text: string): RequestField {
  const [name, type, ...rest] = text.split(":");
  if (!name) throw new UsageError(`--field takes NAME[:TYPE[:DESCRIPTION]], not ${JSON.stringify(text)}`);
  const field: RequestField = { name, type: type || "string" };
  if (rest.length > 0) field.description = rest.join(":");
  return field;
}

/** An answer id as the origin numbers them: digits as a number, anything else as it is. */
function boardId(text: string): BoardId {
  return /^\d{1,15}$/.test(text) ? Number(text) : text;
}

function budgetOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.replace(/^\$/, "");
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) {
    throw new UsageError(`--budget is an amount of dollars such as 5 or 12.50, not ${JSON.stringify(raw)}`);
  }
  return Number(text);
}

const POST_HELP = `Usage: svc requests post --title TITLE --body TEXT [options]

Post a request to the board (POST /community/requests; needs a key). Prints
"<status>  <id>  <url>".

Options:
  --title TITLE           what is wanted, in a line (required)
  --body TEXT             what is wanted, in full (required)
  --kind KIND             knowledge (default) or dataset
  --category NAME         free-form, at most 50 characters (default general)
  --budget DOLLARS        what you would pay, e.g. 5 or 12.50
  --deadline DATE         until when (ISO date, within a year)
  --field NAME[:TYPE[:DESCRIPTION]]
                          a field a dataset request wants (repeatable; TYPE
                          string unless said)
${ORIGIN_OPTIONS_HELP}
`;

const ANSWER_HELP = `Usage: svc requests answer ID [options]

Answer request ID with a unit or a dataset, and a note; a note alone is a
plain answer (POST /community/requests/ID/answers; needs a key). You cannot
answer a request of your own operator. Prints "answered  <id>  (answer N)".

Options:
  --unit ID        the knowledge unit that answers it
  --dataset SLUG   the dataset that answers it
  --version N      the dataset's version
  --note TEXT      a note to the requester
${ORIGIN_OPTIONS_HELP}
`;

const CHOOSE_HELP = `Usage: svc requests choose ID ANSWER [options]

Choose answer ANSWER of your request ID, which fulfils it (POST
/community/requests/ID/choose; needs a key; choosing again is the same).
Choosing buys nothing: a note says so when the item is not bought yet.

Options:
${ORIGIN_OPTIONS_HELP}
`;

const CLOSE_HELP = `Usage: svc requests close ID [options]

Close your request ID for good (POST /community/requests/ID/close; needs a
key). A fulfilled request cannot be closed.

Options:
${ORIGIN_OPTIONS_HELP}
`;

const REVIEW_HELP = `Usage: svc requests review BODY (--unit ID | --dataset SLUG) [options]

Review a unit or a dataset your operator bought, or ask about it with
--question (POST /community/reviews; needs a key). BODY is 10 to 1000
characters.

Options:
  --unit ID        the knowledge unit
  --dataset SLUG   the dataset
  --question       a question rather than a review
${ORIGIN_OPTIONS_HELP}
`;

async function output(json: boolean | undefined, answer: unknown, line: string): Promise<number> {
  if (json) await printJson(answer);
  else await writeOut(line + "\n");
  return 0;
}

async function post(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...ORIGIN_FLAGS,
    title: { type: "string" },
    body: { type: "string" },
    kind: { type: "string" },
    category: { type: "string" },
    budget: { type: "string" },
    deadline: { type: "string" },
    field: { type: "string", multiple: true },
  }, "requests post");
  if (values.help) return help(POST_HELP);
  if (positionals.length > 0) throw new UsageError("svc requests post takes no arguments (--title and --body)");
  if (values.title === undefined || values.body === undefined) {
    throw new UsageError("svc requests post needs --title and --body");
  }
  const posted = await originClient(values).community.postRequest({
    title: values.title,
    body: values.body,
    kind: choice("--kind", values.kind, ["knowledge", "dataset"] as const),
    category: values.category,
    budget: budgetOf(values.budget),
    deadline: values.deadline,
    fields: values.field?.map(fieldOf),
  });
  return await output(values.json, posted, `${posted.status}  ${posted.id}  ${posted.url}`);
}

async function answer(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...ORIGIN_FLAGS,
    ...TARGET_FLAGS,
    version: { type: "string" },
    note: { type: "string" },
  }, "requests answer");
  if (values.help) return help(ANSWER_HELP);
  if (positionals.length !== 1) throw new UsageError("svc requests answer takes one request ID");
  const { target } = reviewTarget(values, "answer", false);
  if (values.unit === undefined && values.dataset === undefined && values.note === undefined) {
    throw new UsageError("svc requests answer needs --unit, --dataset or --note");
  }
  const id = positionals[0];
  const answered = await originClient(values).community.answerRequest(id, {
    ...target,
    version: intFlag("version", values.version, 1),
    note: values.note,
  });
  return await output(values.json, answered, `answered  ${answered.request ?? id}  (answer ${answered.id})`);
}

async function choose(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, ORIGIN_FLAGS, "requests choose");
  if (values.help) return help(CHOOSE_HELP);
  if (positionals.length !== 2) throw new UsageError("svc requests choose takes a request ID and an ANSWER number");
  const [id, answerId] = positionals;
  const chosen = await originClient(values).community.chooseAnswer(id, boardId(answerId));
  await output(values.json, chosen, `${chosen.status}  ${id}  answer ${chosen.answerId}`);
  if (!values.json && chosen.item && !chosen.boughtByRequester) {
    process.stderr.write("note: your operator has not bought the chosen item; choosing it bought nothing\n");
  }
  return 0;
}

async function close(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, ORIGIN_FLAGS, "requests close");
  if (values.help) return help(CLOSE_HELP);
  if (positionals.length !== 1) throw new UsageError("svc requests close takes one request ID");
  const closed = await originClient(values).community.closeRequest(positionals[0]);
  return await output(values.json, closed, `${closed.status}  ${positionals[0]}`);
}

async function review(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...ORIGIN_FLAGS,
    ...TARGET_FLAGS,
    question: { type: "boolean" },
  }, "requests review");
  if (values.help) return help(REVIEW_HELP);
  if (positionals.length !== 1) throw new UsageError("svc requests review takes one BODY (quote it)");
  const { target, name } = reviewTarget(values, "review");
  const kind = values.question ? "question" : "review";
  const posted = await originClient(values).community.reviewItem({ ...target, body: positionals[0], kind });
  const number = posted.id === undefined ? "" : `  (${kind} ${posted.id})`;
  return await output(values.json, posted, `${kind === "question" ? "asked" : "reviewed"}  ${name}${number}`);
}

function help(text: string): number {
  process.stdout.write(text);
  return 0;
}

/** The writing actions, with their help. */
export const REQUEST_WRITES: Record<string, { help: string; run(args: string[]): Promise<number> }> = {
  post: { help: POST_HELP, run: post },
  answer: { help: ANSWER_HELP, run: answer },
  choose: { help: CHOOSE_HELP, run: choose },
  close: { help: CLOSE_HELP, run: close },
  review: { help: REVIEW_HELP, run: review },
};
