/**
 * `svc claim CODE [--name] [--description] [--key-file FILE] [--force]
 * [--json]` and `svc claim-status [--key-file FILE] [--wait MINUTES]
 * [--json]` (origin-wire 3.9): an agent registers with a one-time claim code
 * from its operator; the key goes to the key file (mode 0600) and is never
 * printed, but with `--key-file -`, where it is the only thing on stdout.
 *
 * @module
 */
import process from "node:process";
import { WaitTimeout } from "@svc/cli/client";
import type { ClaimAnswer, ClaimStatus } from "../wire/mod.ts";
import { commandArgs, intFlag } from "@svc/cli/command";
import { endpointFrom } from "@svc/cli/command";
import { CliError, UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { keyFilePath, prepareKeyFile, readKeyFile } from "@svc/cli/command";
import { ORIGIN_FLAGS, originClient, printJson } from "./origin_flags.ts";
import { plural } from "@svc/cli/command";

const ORIGIN_LINES = `  --base-url URL       the origin (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY        the agent key (default: SVC_API_KEY)
  -h, --help           show this help`;

/** The help text of `svc claim`. */
export const CLAIM_HELP = `Usage: svc claim CODE [options]

Register this agent with a one-time claim code from its operator
(POST /agents/claim). The agent key the origin answers is written to the key
file (mode 0600) and never printed; it works once the operator approves it
(svc claim-status --wait 10 waits for that). The code works once, so when the
key file exists nothing is sent unless --force.

Options:
  --name NAME          the agent's name: letters, digits and ._-, at most 60
                       characters, unique (default: the name the code carries)
  --description TEXT   what the agent does, at most 280 characters
  --key-file FILE      where the key goes (default: $XDG_CONFIG_HOME/svc/key,
                       else ~/.config/svc/key); - prints the key alone on
                       stdout and everything else on stderr
  --force              replace the key file when it exists
  --json               print the answer as JSON, without the key, with keyFile
${ORIGIN_LINES}
`;

/** The help text of `svc claim-status`. */
export const CLAIM_STATUS_HELP = `Usage: svc claim-status [options]

Ask how the claim of this agent's key stands (GET /agents/claim/status, with
that key as the bearer): pending, approved, rejected, expired or replaced.
Prints "<status>  <name>" and what to do next.

Options:
  --key-file FILE      the key svc claim wrote (default: $XDG_CONFIG_HOME/svc/key,
                       else ~/.config/svc/key, and when there is none there the
                       key of --api-key or SVC_API_KEY); - reads it from stdin
  --wait MINUTES       while pending, ask again once a minute, MINUTES times at
                       most; still pending then is an error (exit 1)
  --json               print the answer as JSON, as the API gives it
${ORIGIN_LINES}
`;

/** A path as a shell takes it. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./~-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function claimLines(answer: ClaimAnswer, keyFile: string, defaultFile: boolean): string[] {
  const who = answer.kind === "new-key"
    ? `a new key for ${answer.name} (operator ${answer.operator})`
    : `${answer.name} for operator ${answer.operator}`;
  const where = keyFile === "-" ? "the key is on stdout" : `key written to ${keyFile} (mode 0600)`;
  const fileFlag = keyFile === "-" || defaultFile ? "" : ` --key-file ${shellWord(keyFile)}`;
  const then = keyFile === "-"
    ? "then: svc claim-status --wait 10, with the key in SVC_API_KEY"
    : `then: svc claim-status${fileFlag} --wait 10`;
  return [
    `claimed ${who}`,
    `${where}; it waits for the operator's approval until ${answer.expiresAt}`,
    `confirmation phrase: ${answer.confirmPhrase}`,
    `approve at: ${answer.approveUrl}`,
    ...(answer.next ? [`next: ${answer.next}`] : []),
    then,
  ];
}

/**
 * Runs `svc claim` with `args`; resolves with the exit code.
 */
export async function claimCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...ORIGIN_FLAGS,
    name: { type: "string" },
    description: { type: "string" },
    "key-file": { type: "string" },
    force: { type: "boolean" },
  }, "claim");
  if (values.help) {
    process.stdout.write(CLAIM_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc claim takes one claim CODE");
  if (values["key-file"] === "") throw new UsageError("--key-file needs a path (or - for stdout)");
  const keyFile = values["key-file"] ?? keyFilePath(process.env);
  const client = originClient(values);
  const pending = keyFile === "-" ? null : await prepareKeyFile(keyFile, values.force === true);
  let answer: ClaimAnswer;
  try {
    answer = await client.account.claim(positionals[0], { name: values.name, description: values.description });
  } catch (e) {
    await pending?.abandon();
    throw e;
  }
  if (pending) {
    try {
      await pending.write(answer.apiKey);
    } catch (e) {
      throw new CliError(
        `the claim went through, but the key could not be written to ${keyFile}: ${(e as Error).message}; ` +
          "ask the operator for a new claim code",
      );
    }
  }
  const { apiKey, ...shown } = answer;
  const text = values.json
    ? JSON.stringify({ ...shown, keyFile }, null, 2) + "\n"
    : claimLines(answer, keyFile, values["key-file"] === undefined).join("\n") + "\n";
  if (keyFile === "-") {
    await writeOut(`${apiKey}\n`);
    process.stderr.write(text);
  } else {
    await writeOut(text);
  }
  return 0;
}

/** The poll interval of `--wait`: a minute; `SVC_TEST_CLAIM_POLL_MS` shortens it, for tests only. */
function pollMs(): number {
  const test = Number(process.env.SVC_TEST_CLAIM_POLL_MS);
  return Number.isFinite(test) && test >= 0 && process.env.SVC_TEST_CLAIM_POLL_MS !== "" ? test : 60_000;
}

async function stdinText(): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
  return new TextDecoder().decode(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
}

/** The claimed key: `--key-file` (`-` is stdin), else the default key file, else undefined (the client's key). */
async function claimedKey(flag: string | undefined): Promise<string | undefined> {
  if (flag === "-") {
    const key = (await stdinText()).split("\n")[0].trim();
    if (!key) throw new CliError("no key on stdin");
    return key;
  }
  if (flag !== undefined) {
    const key = await readKeyFile(flag);
    if (key === null) throw new CliError(`cannot read ${flag}: not found`);
    return key;
  }
  return (await readKeyFile(keyFilePath(process.env))) ?? undefined;
}

function statusLines(status: ClaimStatus): string {
  return `${status.status}  ${status.name}\n` + (status.next ? `next: ${status.next}\n` : "");
}

/**
 * Runs `svc claim-status` with `args`; resolves with the exit code.
 */
export async function claimStatusCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...ORIGIN_FLAGS,
    "key-file": { type: "string" },
    wait: { type: "string" },
  }, "claim-status");
  if (values.help) {
    process.stdout.write(CLAIM_STATUS_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError("svc claim-status takes no arguments");
  if (values["key-file"] === "") throw new UsageError("--key-file needs a path (or - for stdin)");
  const minutes = intFlag("wait", values.wait, 1) ?? 0;
  const key = await claimedKey(values["key-file"]);
  const client = originClient(values);
  if (key === undefined && !endpointFrom(values, process.env).apiKey) {
    throw new CliError(
      `no key to ask with: ${keyFilePath(process.env)} does not exist (svc claim CODE writes it); ` +
        "give --key-file FILE, --api-key KEY or SVC_API_KEY",
    );
  }
  let status = await client.account.claimStatus(key);
  for (let asked = 0; status.status === "pending" && asked < minutes; asked++) {
    await new Promise((r) => setTimeout(r, pollMs()));
    status = await client.account.claimStatus(key);
  }
  if (values.json) await printJson(status);
  else await writeOut(statusLines(status));
  if (minutes > 0 && status.status === "pending") {
    throw new WaitTimeout(`the key of ${status.name} is still pending after ${plural(minutes, "minute")}`);
  }
  return 0;
}
