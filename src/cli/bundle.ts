/**
 * `svc save SLUG[@N] [--version N] [-o FILE] [--cache|--store DIR]
 * [--workers 4]` and `svc load FILE [--out|--store DIR] [--check] [--json]`:
 * one version as a bundle file, and back.
 *
 * @module
 */
import process from "node:process";
import { loadBundle, pull, pushBundle, saveHeld } from "../local/mod.ts";
import { Client } from "../client/mod.ts";
import { DEFAULT_STORE } from "../store/mod.ts";
import { commandArgs, eitherFlag, projectAt, versionFrom } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { verifyRequired } from "../settings/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { plural, progressOnReport } from "./progress.ts";
import { trustFilePath } from "../trust/mod.ts";
import { isSlug, notASlug } from "../wire/mod.ts";
import { writeOut } from "./formats.ts";
import { loadPushLine, pushProgress, sourceFrom, workersFrom } from "./promote.ts";
import { pullWithWallet } from "./pull_pay.ts";

/** The help text of `svc save`. */
export const SAVE_HELP = `Usage: svc save SLUG[@VERSION] [-o FILE] [options]

Write one version as a bundle (a tar of svc-bundle.json, project.json,
manifest.json and the parts), pulling it first when the store lacks it.

Options:
  --version N        the version (the same as SLUG@N; default: the newest
                     held, else the newest)
  -o, --output FILE  the bundle (default: ./SLUG-vN.svc)
  --cache DIR        store directory (default: ${DEFAULT_STORE}); --store DIR
                     is the same option
  --workers N        parts fetched at once when it pulls first, 1-64
                     (default: 4)
  --base-url URL     where to pull from when needed (default: SVC_BASE_URL)
  --api-key KEY      agent key for that pull (default: SVC_API_KEY)
  --paid             when the store lacks it, buy the version with the wallet
                     (x402; SVC_WALLET_KEY, SVC_MAX_PRICE) and pull it
  --no-progress      no progress on stderr
  --json             print the bundle's header as JSON
  -h, --help         show this help
`;

/** The help text of `svc load`. */
export const LOAD_HELP = `Usage: svc load FILE [--out DIR] [--check] [--verify] [--json]
       svc load FILE --push SLUG [--source TEXT] [--allow-paid] [--no-wait]

Check a bundle member by member (only the allowed names, each part's size and
SHA-256, header and manifest agreeing, the signature against the keys pinned
for the origin) and lay its version out in the store as a pull would.

Options:
  --out DIR       store directory (default: ${DEFAULT_STORE}); --store DIR is
                  the same option; s3://bucket/prefix loads into a bucket
                  (AWS_* variables, as svc serve reads them)
  --check         check only; write nothing
  --verify        take it only if signed by a pinned key of the origin
                  (svc trust add); also SVC_VERIFY=1
  --origin URL    the origin whose keys must have signed it (default: the
                  origin its signature names, whose keys must be pinned)
  --push SLUG     then read the records back from the parts and push them to
                  project SLUG on the origin as one contribution (the file
                  FILE.records.jsonl is kept until the push is complete)
  --source TEXT   with --push: where the records come from (default: the
                  bundle, its version and license)
  --allow-paid    with --push: push a paid project's records (needs the
                  maintainer's rights)
  --no-wait       with --push: do not wait for the screening
  --workers N     with --push: parts sent at once (default: 4)
  --base-url URL  with --push: the origin (default: SVC_BASE_URL)
  --api-key KEY   with --push: agent key (default: SVC_API_KEY)
  --no-progress   no progress on stderr
  --json          print the result as JSON
  -h, --help      show this help
`;

/**
 * Runs `svc save` with `args`; resolves with the exit code.
 */
export async function saveCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    version: { type: "string" },
    output: { type: "string", short: "o" },
    cache: { type: "string" },
    store: { type: "string" },
    workers: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    "no-progress": { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
    paid: { type: "boolean" },
  }, "save");
  if (values.help) {
    process.stdout.write(SAVE_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc save takes one SLUG[@VERSION]");
  const store = eitherFlag(["cache", values.cache], ["store", values.store]) ?? DEFAULT_STORE;
  const at = projectAt(positionals[0]);
  const slug = at.slug;
  const version = versionFrom(at.version, values.version);
  const workers = workersFrom(values.workers) ?? 4;
  const bar = progressOnReport(`save ${slug}`, "bytes", !values["no-progress"]);
  let note = "";
  const pullMissing = async (v: number | null) => {
    const clientOptions = { ...endpointFrom(values, process.env), env: process.env };
    const client = new Client(clientOptions);
    const pulling = { store, version: v ?? undefined, workers };
    if (!values.paid) return (await pull(client, slug, pulling)).version;
    const bought = await pullWithWallet(clientOptions, slug, pulling);
    note = `${bought.note}\n`;
    return bought.result.version;
  };
  const { file: out, ...header } = await saveHeld(store, slug, version, values.output ?? null, pullMissing, {
    onProgress: bar.onProgress,
  });
  bar.finish();
  process.stderr.write(note);
  if (values.json) process.stdout.write(JSON.stringify(header) + "\n");
  else {
    process.stdout.write(
      `${slug} v${header.version}: ${plural(header.records, "record")} in ${plural(header.parts, "part")} -> ${out}\n`,
    );
  }
  return 0;
}

/**
 * Runs `svc load` with `args`; resolves with the exit code.
 */
export async function loadCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    out: { type: "string" },
    store: { type: "string" },
    check: { type: "boolean" },
    verify: { type: "boolean" },
    origin: { type: "string" },
    push: { type: "string" },
    source: { type: "string" },
    "allow-paid": { type: "boolean" },
    "no-wait": { type: "boolean" },
    workers: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    "no-progress": { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }, "load");
  if (values.help) {
    process.stdout.write(LOAD_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc load takes one bundle file");
  const store = eitherFlag(["out", values.out], ["store", values.store]) ?? DEFAULT_STORE;
  const required = verifyRequired(values.verify, process.env);
  // Without --origin, the keys pinned for the origin the signature names are the ones that count.
  const origin = values.origin ?? "";
  const trust = { trustFile: trustFilePath(process.env), origin: origin.replace(/\/+$/, ""), required };
  if (values.push !== undefined) {
    if (!isSlug(values.push)) throw new UsageError(`--push: ${notASlug(values.push)}`);
    if (values.check) throw new UsageError("--check and --push do not go together");
    const push = pushProgress(values.push, !values["no-progress"]);
    const { OriginClient } = await import("@svc/origin");
    const origin = new OriginClient({ ...endpointFrom(values, process.env) });
    const pushed = await pushBundle(origin, positionals[0], values.push, {
      store,
      sourceDeclaration: sourceFrom(values.source),
      allowPaid: values["allow-paid"],
      wait: !values["no-wait"],
      workers: workersFrom(values.workers),
      verify: trust,
      onProgress: push.onProgress,
    });
    push.finish();
    const [line, code] = loadPushLine(values.push, pushed);
    await writeOut(values.json ? JSON.stringify(pushed) + "\n" : line + "\n");
    return code;
  }
  const bar = progressOnReport("load", "bytes", !values["no-progress"]);
  const result = await loadBundle(positionals[0], store, {
    check: values.check,
    trust,
    onProgress: bar.onProgress,
  });
  bar.finish();
  const h = result.header;
  const signed = ` · ${result.signature === "verified" ? "signed ✓" : result.signature ?? "unsigned"}`;
  const what = `${h.project} v${h.version}, ${plural(h.records, "record")} in ${plural(h.parts, "part")}`;
  if (values.json) process.stdout.write(JSON.stringify(result) + "\n");
  else if (values.check) process.stdout.write(`${positionals[0]}: ${what}: whole (nothing written)${signed}\n`);
  else process.stdout.write(`${what} -> ${store}/${h.project}/ (${plural(result.newParts, "new part")})${signed}\n`);
  return 0;
}
