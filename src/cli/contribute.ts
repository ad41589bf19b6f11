/**
 * `svc contribute SLUG --file records.jsonl|- [--source TEXT] [--wait]
 * [--base-url URL] [--json]`: a JSON-lines file sent as valid batches (at
 * most 500 records and 512 KiB each), one after another, each with an
 * Idempotency-Key made from its content so that sending the same file again
 * replays instead of repeating; with `--wait`, each batch the origin has not
 * screened yet is polled until its verdict. One line a batch on stdout, as
 * the reference prints them (`merged  <id>  accepted 2/2 → v1`,
 * `rejected  <id>  schema: …`, `nothing new  <id>  …`), the totals on
 * stderr.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { access, stat } from "node:fs/promises";
import process from "node:process";
import { createInterface } from "node:readline";
import { callJson, Client, type Endpoint } from "../client/mod.ts";
import { isSlug, notASlug, parseExactJson, stableStringify } from "../wire/mod.ts";
import { endpointFrom } from "./endpoint.ts";
import { commandArgs } from "./args.ts";
import { CliError, fileError, UsageError } from "../errors/mod.ts";
import { noteOnInterrupt } from "./interrupt.ts";
import { clearProgressLine, plural, progress } from "./progress.ts";
import { sourceFrom } from "./promote.ts";

/** The help text of `svc contribute`. */
export const CONTRIBUTE_HELP = `Usage: svc contribute SLUG --file FILE|- [options]

Send the records of a JSON-lines file (one object a line; - for stdin) to a
project on a node or the origin, in batches of at most 500 records and
512 KiB. Each batch carries an Idempotency-Key made from its content, so
sending the same file again within 24 hours replays the first answers.
A node merges each batch before it answers; the origin screens it after
answering, so its batches stay pending unless --wait waits for them.

Prints one line a batch on stdout:
  merged  ID  accepted 2/2 → v1
  rejected  ID  schema: line 3: "n" must be integer
  nothing new  ID  every record is already there
  pending  ID  2 records: the origin screens them (--wait waits)
and the totals on stderr. Exits 1 when any batch was rejected by a gate
other than dedup (a batch with nothing new is no failure: exit 0).
Ctrl-C stops it, prints what was sent and answered by then, and exits 130.

Options:
  --file FILE      the records (required)
  --source TEXT    where the records come from (4-2000 characters), sent
                   as every batch's sourceDeclaration (a node takes at most
                   500)
  --wait           wait for every batch's verdict (merged or rejected), up
                   to 15 minutes a batch (a node's answers are final at once)
  --no-progress    no progress on stderr
  --base-url URL   the node or the origin (default: SVC_BASE_URL or
                   http://127.0.0.1:8686)
  --api-key KEY    node token or agent key (default: SVC_API_KEY, SVC_NODE_TOKEN)
  --json           print every batch's answer and the totals as JSON
  -h, --help       show this help
`;

const MAX_RECORDS = 500;
const MAX_BYTES = 512 * 1024;

/** What one batch's answer said. */
interface BatchAnswer {
  id: string;
  status: string;
  recordCount: number;
  acceptedCount: number | null;
  mergedVersion: number | null;
  verdict: { droppedDuplicates?: number; gate?: string; reason?: string } | null;
}

/** Totals over all batches. */
interface Totals {
  records: number;
  batches: number;
  merged: number;
  duplicates: number;
  rejected: number;
  pending: number;
  replayed: number;
  versions: number[];
  reasons: string[];
}

/** How a batch goes: where, with which source declaration, and whether to wait for the verdict. */
interface Sending {
  endpoint: Endpoint;
  slug: string;
  source: string | undefined;
  /** Set with --wait: polls a contribution until it is merged or rejected. */
  waiter: Client | null;
}

async function send(how: Sending, records: string[], totals: Totals): Promise<BatchAnswer> {
  const { endpoint, slug, source, waiter } = how;
  // Without --source the body is as it always was, so the keys of batches sent before still replay.
  const declared = source === undefined ? "" : `,"sourceDeclaration":${JSON.stringify(source)}`;
  const body = `{"records":[${records.join(",")}]${declared}}`;
  const key = "svc-" + createHash("sha256").update(`${slug}\n${body}`).digest("hex").slice(0, 40);
  const { body: answer, headers } = await callJson(endpoint, "POST", `/projects/${slug}/contribute`, body, {
    "idempotency-key": key,
  });
  let view = answer as BatchAnswer;
  const final = (status: string) => status === "merged" || status === "rejected";
  if (waiter && !final(view.status)) view = await waiter.waitForContribution(slug, view.id) as BatchAnswer;
  totals.batches++;
  if (headers.get("idempotent-replayed") === "true") totals.replayed++;
  totals.records += records.length;
  if (!final(view.status)) {
    totals.pending += view.recordCount ?? records.length;
  } else if (view.status === "merged") {
    totals.merged += view.acceptedCount ?? 0;
    totals.duplicates += view.verdict?.droppedDuplicates ?? 0;
    if (view.mergedVersion !== null) totals.versions.push(view.mergedVersion);
  } else if (view.verdict?.gate === "dedup") {
    totals.duplicates += view.recordCount;
  } else {
    totals.rejected += view.recordCount;
    totals.reasons.push(`batch ${totals.batches} (${view.verdict?.gate}): ${view.verdict?.reason}`);
  }
  return view;
}

/**
 * The line a batch's answer prints on stdout, as the reference words it:
 * `merged  <id>  accepted 2/2 → v1`, `rejected  <id>  <gate>: <reason>`,
 * `nothing new  <id>  …` (the dedup gate: every record already there), or
 * `pending  <id>  …` (the origin, not waited for).
 */
function batchLine(view: BatchAnswer): string {
  const { id, status, recordCount, acceptedCount, mergedVersion, verdict } = view;
  if (status === "merged") {
    const into = mergedVersion === null ? "" : ` → v${mergedVersion}`;
    return `merged  ${id}  accepted ${acceptedCount ?? 0}/${recordCount}${into}`;
  }
  if (status === "rejected" && verdict?.gate === "dedup") return `nothing new  ${id}  every record is already there`;
  if (status === "rejected") {
    const reason = (verdict?.reason ?? "no reason given").replace(/\s+/g, " ");
    return `rejected  ${id}  ${verdict?.gate ? `${verdict.gate}: ` : ""}${reason}`;
  }
  return `${status}  ${id}  ${plural(recordCount, "record")}: the origin screens them (--wait waits)`;
}

function describe(slug: string, t: Totals): string {
  const versions = t.versions.length === 0
    ? ""
    : t.versions.length === 1
    ? ` (version ${t.versions[0]})`
    : ` (versions ${t.versions[0]}-${t.versions[t.versions.length - 1]})`;
  const head = `${slug}: ${plural(t.records, "record")} in ${plural(t.batches, "batch", "batches")}: ` +
    `${t.merged} merged${versions}, ${plural(t.duplicates, "duplicate")}, ${t.rejected} rejected` +
    (t.pending > 0 ? `, ${t.pending} pending (the origin screens them: --wait waits for the verdicts)` : "") +
    (t.replayed > 0 ? `; ${plural(t.replayed, "batch answer")} replayed (sent before within 24 hours)` : "");
  return [head, ...t.reasons.slice(0, 10).map((r) => `  ${r}`)].join("\n") + "\n";
}

/**
 * Runs `svc contribute` with `args`; resolves with the exit code.
 */
export async function contributeCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    file: { type: "string" },
    source: { type: "string" },
    wait: { type: "boolean" },
    "no-progress": { type: "boolean" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }, "contribute");
  if (values.help) {
    process.stdout.write(CONTRIBUTE_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc contribute takes one project slug");
  if (!isSlug(positionals[0])) throw new UsageError(notASlug(positionals[0]));
  if (!values.file) throw new UsageError("svc contribute needs --file FILE (or - for stdin)");
  const slug = positionals[0];
  const source = sourceFrom(values.source);
  const endpoint = endpointFrom(values, process.env);
  const client = new Client({ ...endpoint });
  // Refused before anything is read or sent, unless the node takes it without a key.
  await client.checkKey("contribute");
  const how: Sending = { endpoint, slug, source, waiter: values.wait ? client : null };
  const { input, size } = await openRecords(values.file);
  const bar = progress(`contribute ${slug}`, { enabled: !values["no-progress"], summary: false });
  const totals: Totals = {
    records: 0,
    batches: 0,
    merged: 0,
    duplicates: 0,
    rejected: 0,
    pending: 0,
    replayed: 0,
    versions: [],
    reasons: [],
  };
  const answers: BatchAnswer[] = [];
  noteOnInterrupt(() =>
    totals.batches === 0
      ? "no batch was answered yet (send the same file again: a batch the node took meanwhile replays)"
      : `sent before the interrupt: ${describe(slug, totals).trimEnd()}\n` +
        "(send the same file again: batches already answered replay instead of adding)"
  );
  try {
    await sendBatches(input, async (batch, read) => {
      const answer = await send(how, batch, totals);
      answers.push(answer);
      if (!values.json) {
        clearProgressLine();
        process.stdout.write(`${batchLine(answer)}\n`);
      }
      bar.update(read, size, `${plural(totals.records, "record")}, ${plural(totals.batches, "batch", "batches")}`);
    });
  } finally {
    noteOnInterrupt(null);
    bar.finish();
    if (totals.batches > 0 && !values.json) process.stderr.write(describe(slug, totals));
  }
  if (values.json) process.stdout.write(JSON.stringify({ ...totals, answers }) + "\n");
  const refused = totals.reasons.length;
  if (refused > 0) throw new CliError(`${refused} of ${plural(totals.batches, "batch", "batches")} rejected`);
  return 0;
}

/** The records file (`-` for stdin) as a stream, and its size (0 for stdin: a file read as it is sent shows it). */
async function openRecords(file: string): Promise<{ input: NodeJS.ReadableStream; size: number }> {
  if (file === "-") return { input: process.stdin, size: 0 };
  const info = await stat(file).catch((e) => {
    throw fileError("read", file, e);
  });
  if (info.isDirectory()) throw fileError("read", file, { code: "EISDIR" });
  await access(file, constants.R_OK).catch((e) => {
    throw fileError("read", file, e);
  });
  return { input: createReadStream(file), size: info.size };
}

/**
 * Reads JSON-lines records from `input` into batches of at most
 * {@linkcode MAX_RECORDS} records and {@linkcode MAX_BYTES}, handing each to
 * `flush` with the bytes read so far; a line that is not a JSON object, or
 * one record over the limit, stops it with the line's number.
 */
async function sendBatches(
  input: NodeJS.ReadableStream,
  flush: (batch: string[], read: number) => Promise<void>,
): Promise<void> {
  let batch: string[] = [];
  let batchBytes = 2;
  let read = 0;
  let line = 0;
  const send = async () => {
    if (batch.length === 0) return;
    await flush(batch, read);
    batch = [];
    batchBytes = 2;
  };
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    read += Buffer.byteLength(text) + 1;
    if (text.trim() === "") continue;
    let record;
    try {
      record = parseExactJson(text);
    } catch (e) {
      throw new CliError(`line ${line}: not JSON (${(e as Error).message})`);
    }
    if (!record || typeof record !== "object" || Array.isArray(record)) {
      throw new CliError(`line ${line}: a record must be a JSON object`);
    }
    const stable = stableStringify(record);
    const bytes = Buffer.byteLength(stable) + 1;
    if (bytes > MAX_BYTES) throw new CliError(`line ${line}: one record is over 512 KiB`);
    if (batch.length === MAX_RECORDS || batchBytes + bytes > MAX_BYTES) await send();
    batch.push(stable);
    batchBytes += bytes;
  }
  await send();
}
