/**
 * `svc push SLUG --file F [--source TEXT] [--no-gzip] [--part-size MiB]
 * [--workers N] [--wait] [--json]`: a JSON-lines file to the origin as one
 * contribution, by the resumable multipart upload of `../client/push.ts`
 * (origin-wire 2.1), with progress on stderr.
 *
 * @module
 */
import { constants, readFileSync } from "node:fs";
import { access, stat } from "node:fs/promises";
import process from "node:process";
import {
  MAX_PART_BYTES,
  MIB,
  MIN_PART_BYTES,
  pushFile,
  type PushProgress,
  type PushResult,
  uploadPaths,
} from "../client/mod.ts";
import { isSlug, notASlug } from "@svc/cli/wire";
import { commandArgs } from "@svc/cli/command";
import { endpointFrom } from "@svc/cli/command";
import { fileError, UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { noteOnInterrupt } from "@svc/cli/command";
import { type Progress, progress } from "@svc/cli/command";

/** The help text of `svc push`. */
export const PUSH_HELP = `Usage: svc push SLUG --file FILE [options]

Upload a JSON-lines file (one record a line) to a project on the origin as
one contribution: resumable, gzip, up to 5 GB. The file is copied as gzip to
FILE.svc-upload.gz, sent in parts (at least 5 MiB, at most 1000 of them, a
few at a time, straight to the object store), and the upload's state is kept
in FILE.svc-upload.json after every part: a push that was stopped (Ctrl-C,
a kill, the network) sends only the missing parts when run again. A file
that changed since starts over. Both files are removed once the upload is
complete. The origin screens the records afterwards (schema, personal data,
duplicates); --wait waits for its verdict.

Options:
  --file FILE        the records (required)
  --source TEXT      where the records come from (4 to 2000 characters)
  --no-gzip          send the file as it is
  --part-size MiB    size of each part (default: 8, at least 5)
  --workers N        parts sent at once (default: 4)
  --wait             wait until the contribution is merged or rejected
  --no-progress      no progress on stderr
  --json             print the result as JSON
  --base-url URL     the origin (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY      agent key (default: SVC_API_KEY)
  -h, --help         show this help
`;

/**
 * The line `svc push` prints (origin-wire 2.1), with the screening's
 * outcome when it was waited for.
 *
 * @example
 * ```ts
 * import { pushLine } from "./push.ts";
 * pushLine("notes", { contributionId: "c1", parts: 2, uploadedParts: 1, bytes: 6_000_000 }, false);
 * // "pushed notes: 2 part(s) (6.0 MB, 1 transferred) → contribution c1"
 * ```
 */
export function pushLine(slug: string, result: PushResult, waited: boolean): string {
  const head = `pushed ${slug}: ${result.parts} part(s) (${(result.bytes / 1e6).toFixed(1)} MB, ` +
    `${result.uploadedParts} transferred) → contribution ${result.contributionId}`;
  if (!waited) return head;
  const verdict = result.verdict ?? {};
  if (result.status === "merged") {
    return `${head} → merged (v${result.mergedVersion}, ${result.acceptedCount} accepted)`;
  }
  if (result.status === "rejected" && verdict.gate === "dedup") {
    return `${head} → nothing new: every record is already there (no new version)`;
  }
  if (result.status === "rejected") return `${head} → rejected (${verdict.gate}): ${verdict.reason}`;
  return `${head} → ${result.status}`;
}

function partSizeBytes(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const mib = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  const bytes = Math.round(mib * MIB);
  if (!(bytes >= MIN_PART_BYTES && bytes <= MAX_PART_BYTES)) {
    throw new UsageError(`--part-size must be a number of MiB from 5 to 5120, not ${JSON.stringify(raw)}`);
  }
  return bytes;
}

/** The progress bars of a push (gzip, then upload) and the last progress seen. */
function pushBars(file: string, slug: string, shown: boolean) {
  const bars: Record<PushProgress["phase"], Progress | null> = { gzip: null, upload: null };
  let last: PushProgress | null = null;
  return {
    onProgress(p: PushProgress) {
      if (p.phase === "upload" && bars.gzip) {
        bars.gzip.finish();
        bars.gzip = null;
      }
      const bar = bars[p.phase] ??= progress(p.phase === "gzip" ? `gzip ${file}` : `push ${slug}`, { enabled: shown });
      bar.update(p.done, p.total, p.phase === "upload" ? `${p.partsDone}/${p.parts} parts` : "");
      last = p;
    },
    last: () => last,
    finish() {
      bars.gzip?.finish();
      bars.upload?.finish();
    },
  };
}

/** What an interrupted push leaves: read from the state file the next run resumes from, as it is right now. */
function interruptNote(file: string, last: PushProgress | null): string {
  const path = uploadPaths(file).state;
  let state: { parts?: number; uploadId?: string; etags?: Record<string, string> } | null = null;
  try {
    state = JSON.parse(readFileSync(path, "utf8"));
  } catch { /* no upload open yet */ }
  if (state?.uploadId) {
    return `${Object.keys(state.etags ?? {}).length} of ${state.parts} parts are stored (upload ${state.uploadId}, ` +
      `state in ${path}); run the same command to resume`;
  }
  if (state) return "nothing was sent yet";
  return last?.phase === "gzip" ? `the gzip copy of ${file} was not finished; the next push starts it again` : "";
}

/**
 * Runs `svc push` with `args`; resolves with the exit code.
 */
export async function pushCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    file: { type: "string" },
    source: { type: "string" },
    "no-gzip": { type: "boolean" },
    "part-size": { type: "string" },
    workers: { type: "string" },
    wait: { type: "boolean" },
    "no-progress": { type: "boolean" },
    json: { type: "boolean" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    help: { type: "boolean", short: "h" },
  }, "push");
  if (values.help) {
    process.stdout.write(PUSH_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc push takes one project slug");
  if (!isSlug(positionals[0])) throw new UsageError(notASlug(positionals[0]));
  const slug = positionals[0];
  if (!values.file) throw new UsageError("svc push needs --file FILE");
  const file = values.file;
  const partSize = partSizeBytes(values["part-size"]);
  if (values.workers !== undefined && !(/^[1-9]\d?$/.test(values.workers) && Number(values.workers) <= 64)) {
    throw new UsageError("--workers must be 1-64");
  }
  const source = values.source;
  if (source !== undefined && ([...source].length < 4 || [...source].length > 2000)) {
    throw new UsageError("--source must be 4 to 2000 characters");
  }
  const endpoint = endpointFrom(values, process.env);
  const info = await stat(file).catch((e) => {
    throw fileError("read", file, e);
  });
  if (info.isDirectory()) throw fileError("read", file, { code: "EISDIR" });
  await access(file, constants.R_OK).catch((e) => {
    throw fileError("read", file, e);
  });
  const bars = pushBars(file, slug, !values["no-progress"]);
  noteOnInterrupt(() => interruptNote(file, bars.last()));
  let result: PushResult;
  try {
    result = await pushFile(endpoint, slug, file, {
      sourceDeclaration: source ?? null,
      compress: !values["no-gzip"],
      partSize,
      workers: values.workers === undefined ? undefined : Number(values.workers),
      wait: values.wait,
      onProgress: bars.onProgress,
    });
  } finally {
    noteOnInterrupt(null);
  }
  bars.finish();
  await writeOut(values.json ? JSON.stringify(result) + "\n" : pushLine(slug, result, values.wait === true) + "\n");
  return 0;
}
