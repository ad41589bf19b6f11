/**
 * `svc pull SLUG[@N] [--version N] [--out|--store DIR] [--workers 4]
 * [--format parquet|jsonl] [--page 200] [--base-url URL] [--api-key KEY]
 * [--json]`: a version into a local store, as a node serves it, with a
 * progress bar on stderr.
 *
 * @module
 */
import process from "node:process";
import { Client } from "../client/mod.ts";
import { DEFAULT_PAGE, MAX_PAGE, pull, pullJsonLines, type PullResult } from "../local/mod.ts";
import { DEFAULT_STORE } from "../store/mod.ts";
import { trustFilePath } from "../trust/mod.ts";
import { commandArgs, eitherFlag, projectAt, versionFrom } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { verifyRequired } from "../settings/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { plural, progressOnReport } from "./progress.ts";
import { buyWithCredits, checkPayFlags, PULL_PAY_FLAGS, pullWithWallet } from "./pull_pay.ts";

/** The help text of `svc pull`. */
export const PULL_HELP = `Usage: svc pull SLUG[@VERSION] [options]

Copy a version from the origin or a node into a local store (parts checked
for size and SHA-256, renamed into place; the manifest last). Parts already
in the store are not fetched again; a pull that was stopped resumes. A
version already whole in the store asks for no manifest; otherwise the
manifest is asked for naming the parts held (have=), so that the origin
counts only the new ones as egress.

Options:
  --version N      the version (the same as SLUG@N; default: the newest)
  --out DIR        store directory (default: ${DEFAULT_STORE}); --store DIR
                   is the same option; s3://bucket/prefix pulls into a
                   bucket (AWS_* variables, as svc serve reads them)
  --workers N      parts fetched at once (default: 4)
  --format F       parquet (default): the parts, as a node serves them; or
                   jsonl: the records paged from /data into
                   STORE/SLUG/vN.jsonl, for when parts cannot be had
                   (never with --verify: records carry no signature)
  --page N         with --format jsonl: records a page, 1-${MAX_PAGE} (default:
                   ${DEFAULT_PAGE}); refused with parquet, which has no pages
  --verify         take the version only if it is signed by a pinned key of the
                   origin (svc trust add); also SVC_VERIFY=1
  --origin URL     the origin whose keys sign it (default: --base-url)
  --paid           buy the version with the wallet first (x402 on the pay
                   service; SVC_WALLET_KEY, SVC_PAY_URL); a pinned version
                   already whole in the store is not bought again
  --credits        buy the version with the operator's credits first
  --max-price USD  with --paid: the most it may cost (default: SVC_MAX_PRICE
                   or 1.00)
  --base-url URL   where from (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY    agent key (default: SVC_API_KEY)
  --no-progress    no progress on stderr
  --json           print the result as JSON
  -h, --help       show this help
`;

/**
 * Runs `svc pull` with `args`; resolves with the exit code.
 */
export async function pullCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    version: { type: "string" },
    out: { type: "string" },
    store: { type: "string" },
    workers: { type: "string" },
    format: { type: "string" },
    page: { type: "string" },
    verify: { type: "boolean" },
    origin: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    "no-progress": { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
    ...PULL_PAY_FLAGS,
  }, "pull");
  if (values.help) {
    process.stdout.write(PULL_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc pull takes one SLUG[@VERSION]");
  const at = projectAt(positionals[0]);
  const slug = at.slug;
  const version = versionFrom(at.version, values.version);
  if (values.workers !== undefined && !/^[1-9]\d?$/.test(values.workers)) {
    throw new UsageError("--workers must be 1-99");
  }
  const format = values.format ?? "parquet";
  if (format !== "parquet" && format !== "jsonl") throw new UsageError("--format must be parquet or jsonl");
  checkPayFlags(values);
  if (values.paid && format === "jsonl") throw new UsageError("--paid pulls parts: it does not go with --format jsonl");
  const page = pageFrom(values.page, format);
  const store = eitherFlag(["out", values.out], ["store", values.store]) ?? DEFAULT_STORE;
  const clientOptions = { ...endpointFrom(values, process.env), env: process.env };
  const client = new Client(clientOptions);
  const required = verifyRequired(values.verify, process.env);
  const shown = !values["no-progress"];
  const pinned = values.credits ? await buyWithCredits(clientOptions, slug, version ?? undefined) : version;
  if (format === "jsonl") {
    return await pullLines(client, slug, { store, version: pinned, verify: required, page, json: values.json, shown });
  }
  const trust = {
    trustFile: trustFilePath(process.env),
    origin: (values.origin ?? client.baseUrl).replace(/\/+$/, ""),
    required,
  };
  const bar = progressOnReport(`pull ${slug}`, "bytes", shown);
  const pulling = {
    store,
    version: pinned ?? undefined,
    workers: values.workers === undefined ? 4 : Number(values.workers),
    trust,
    onProgress: bar.onProgress,
  };
  const bought = values.paid
    ? await pullWithWallet(clientOptions, slug, { ...pulling, maxPrice: values["max-price"] })
    : null;
  const result = bought?.result ?? await pull(client, slug, pulling);
  bar.finish();
  if (bought) process.stderr.write(`${bought.note}\n`);
  if (values.json) {
    process.stdout.write(JSON.stringify(result) + "\n");
  } else {
    process.stdout.write(`${pullLine(slug, store, result)}\n`);
  }
  return 0;
}

/** `--page`: records a page of the JSON-lines path; the parts have none, so parquet refuses it. */
function pageFrom(raw: string | undefined, format: string): number {
  if (raw === undefined) return DEFAULT_PAGE;
  if (format !== "jsonl") throw new UsageError("--page goes with --format jsonl (parts are not paged)");
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE) {
    throw new UsageError(`--page must be a whole number from 1 to ${MAX_PAGE}, not ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

async function pullLines(
  client: Client,
  slug: string,
  options: { store: string; version: number | null; verify: boolean; page: number; json?: boolean; shown: boolean },
): Promise<number> {
  const bar = progressOnReport(`pull ${slug}`, "record", options.shown);
  const result = await pullJsonLines(client, slug, {
    store: options.store,
    version: options.version ?? undefined,
    verify: options.verify,
    page: options.page,
    onProgress: bar.onProgress,
  });
  bar.finish();
  if (options.json) process.stdout.write(JSON.stringify(result) + "\n");
  else {
    process.stdout.write(
      `${slug} v${result.version}: ${plural(result.records, "record")} -> ${result.file} · unsigned\n`,
    );
  }
  return 0;
}

/**
 * The line a pull prints (origin-wire 7.3): records, parts, where they are,
 * what was downloaded, and the signature's status.
 *
 * @example
 * ```ts
 * import { pullLine } from "./pull.ts";
 * pullLine("cities", "svc-data", {
 *   slug: "cities", version: 2, records: 48000, parts: 2, downloaded: 0, bytes: 0,
 *   signedBy: "https://origin.example", signature: "verified",
 * }); // "cities v2: 48000 record(s) in 2 part(s) → svc-data/cities/parts/ (up to date) · signed by https://origin.example ✓"
 * ```
 */
export function pullLine(slug: string, store: string, result: PullResult): string {
  const fetched = result.downloaded === 0 ? "up to date" : `${result.downloaded} part(s) downloaded`;
  const signed = result.signature === "verified"
    ? ` · signed by ${result.signedBy} ✓`
    : result.signedBy
    ? ` · signed by ${result.signedBy} (not trusted here: svc trust add)`
    : " · unsigned";
  return `${slug} v${result.version}: ${result.records} record(s) in ${result.parts} part(s) → ` +
    `${store}/${slug}/parts/ (${fetched})${signed}`;
}
