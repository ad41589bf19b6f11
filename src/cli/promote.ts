/**
 * `svc promote SLUG [--to SLUG] [--store DIR] [--source TEXT] [--no-wait]
 * [--json]` (origin-wire 2.3), and the lines of `svc load FILE --push SLUG`
 * (2.2), with the push's progress on stderr.
 *
 * @module
 */
import process from "node:process";
import type { PushProgress } from "../client/mod.ts";
import { promote, type PromoteResult, type PushBundleResult } from "../local/mod.ts";
import { DEFAULT_STORE } from "../store/mod.ts";
import { requireLocalProject } from "./local_store.ts";
import { isSlug, notASlug } from "../wire/mod.ts";
import { commandArgs } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { UsageError } from "../errors/mod.ts";
import { writeOut } from "./formats.ts";
import { type Progress, progress } from "./progress.ts";

/** The help text of `svc promote`. */
export const PROMOTE_HELP = `Usage: svc promote SLUG [--to SLUG] [options]

Send the newest version of a local project (one created on a node) from the
store to a project on the origin, as one contribution: bundled from the store
offline, its records pushed (verification off: node versions are unsigned, so
SVC_VERIFY must be unset). The origin screens them; records already there are
dropped as duplicates, so promoting again sends only what is new. Needs the
origin's base URL and an agent key (a node takes no uploads).

Options:
  --to SLUG        the origin's project (default: the same slug)
  --store DIR      the node's store (default: ${DEFAULT_STORE})
  --source TEXT    where the records come from (default: the local project and version)
  --no-wait        do not wait for the screening
  --workers N      parts sent at once (default: 4)
  --no-progress    no progress on stderr
  --json           print the result as JSON
  --base-url URL   the origin (default: SVC_BASE_URL)
  --api-key KEY    agent key (default: SVC_API_KEY)
  -h, --help       show this help
`;

/**
 * A progress display on stderr for a push: the gzip copy, then the parts.
 */
export function pushProgress(label: string, shown: boolean): { onProgress: (p: PushProgress) => void; finish(): void } {
  const bars: Record<PushProgress["phase"], Progress | null> = { gzip: null, upload: null };
  return {
    onProgress(p) {
      if (p.phase === "upload" && bars.gzip) {
        bars.gzip.finish();
        bars.gzip = null;
      }
      const bar = bars[p.phase] ??= progress(p.phase === "gzip" ? `gzip ${label}` : `push ${label}`, {
        enabled: shown,
      });
      bar.update(p.done, p.total, p.phase === "upload" ? `${p.partsDone}/${p.parts} parts` : "");
    },
    finish() {
      bars.gzip?.finish();
      bars.upload?.finish();
    },
  };
}

/** The line of a push not waited for (2.2, 2.3). */
function uploadedLine(result: PushBundleResult): string {
  return `uploaded · contribution ${result.contributionId} is ${result.status}; the gates run on the origin`;
}

/**
 * The line `svc load FILE --push SLUG` prints (origin-wire 2.2) and its exit
 * code: 1 when a gate other than dedup rejected the records.
 *
 * @example
 * ```ts
 * import { loadPushLine } from "./promote.ts";
 * loadPushLine("notes", {
 *   contributionId: "c1", status: "merged", parts: 1, uploadedParts: 1, bytes: 9, mergedVersion: 2, acceptedCount: 3,
 *   bundle: { project: "cities", version: 2, records: 3, parts: 1, manifestSha256: "" },
 * });
 * // ["merged into notes v2 · accepted 3/3 from cities v2", 0]
 * ```
 */
export function loadPushLine(slug: string, result: PushBundleResult): [string, number] {
  const b = result.bundle;
  const gate = result.verdict?.gate;
  if (result.status === "merged") {
    return [
      `merged into ${slug} v${result.mergedVersion} · accepted ${result.acceptedCount}/${b.records} from ${b.project} v${b.version}`,
      0,
    ];
  }
  if (result.status === "rejected" && gate === "dedup") {
    return [`nothing new: every record of ${b.project} v${b.version} is already in ${slug}`, 0];
  }
  if (result.status === "rejected") return [`rejected by ${slug} (${gate}): ${result.verdict?.reason}`, 1];
  return [uploadedLine(result), 0];
}

/**
 * The line `svc promote` prints (origin-wire 2.3) and its exit code: 1 when
 * a gate other than dedup rejected the records.
 *
 * @example
 * ```ts
 * import { promoteLine } from "./promote.ts";
 * promoteLine("https://origin.example", {
 *   contributionId: "c1", status: "rejected", parts: 1, uploadedParts: 1, bytes: 9, verdict: { gate: "dedup" },
 *   bundle: { project: "notes", version: 3, records: 30, parts: 1, manifestSha256: "" },
 *   promoted: { from: "notes", version: 3, to: "notes", records: 30 },
 * });
 * // ["up to date: every record of notes v3 is already in notes on https://origin.example", 0]
 * ```
 */
export function promoteLine(base: string, result: PromoteResult): [string, number] {
  const p = result.promoted;
  const gate = result.verdict?.gate;
  if (result.status === "merged") {
    return [
      `promoted ${p.from} v${p.version} → ${p.to} v${result.mergedVersion} on ${base} · accepted ` +
      `${result.acceptedCount}/${p.records} (the rest were already there)`,
      0,
    ];
  }
  if (result.status === "rejected" && gate === "dedup") {
    return [`up to date: every record of ${p.from} v${p.version} is already in ${p.to} on ${base}`, 0];
  }
  if (result.status === "rejected") return [`rejected by ${p.to} (${gate}): ${result.verdict?.reason}`, 1];
  return [uploadedLine(result), 0];
}

/**
 * `--workers`: 1 to 64, or undefined.
 *
 * @example
 * ```ts
 * import { workersFrom } from "./promote.ts";
 * workersFrom("8"); // 8
 * ```
 */
export function workersFrom(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!(/^[1-9]\d?$/.test(raw) && Number(raw) <= 64)) throw new UsageError("--workers must be 1-64");
  return Number(raw);
}

/**
 * `--source`: 4 to 2000 characters, or undefined.
 *
 * @example
 * ```ts
 * import { sourceFrom } from "./promote.ts";
 * sourceFrom("typed in"); // "typed in"
 * ```
 */
export function sourceFrom(raw: string | undefined): string | undefined {
  if (raw !== undefined && ([...raw].length < 4 || [...raw].length > 2000)) {
    throw new UsageError("--source must be 4 to 2000 characters");
  }
  return raw;
}

/**
 * Runs `svc promote` with `args`; resolves with the exit code.
 */
export async function promoteCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    to: { type: "string" },
    store: { type: "string" },
    source: { type: "string" },
    "no-wait": { type: "boolean" },
    workers: { type: "string" },
    "no-progress": { type: "boolean" },
    json: { type: "boolean" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    help: { type: "boolean", short: "h" },
  }, "promote");
  if (values.help) {
    process.stdout.write(PROMOTE_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc promote takes one project slug");
  if (!isSlug(positionals[0])) throw new UsageError(notASlug(positionals[0]));
  if (values.to !== undefined && !isSlug(values.to)) throw new UsageError(`--to: ${notASlug(values.to)}`);
  const slug = positionals[0];
  const store = values.store ?? DEFAULT_STORE;
  await requireLocalProject(store, slug, false);
  const endpoint = endpointFrom(values, process.env);
  const bar = pushProgress(values.to ?? slug, !values["no-progress"]);
  const { OriginClient } = await import("@svc/origin");
  const result = await promote(new OriginClient(endpoint), slug, {
    to: values.to,
    store,
    sourceDeclaration: sourceFrom(values.source),
    wait: !values["no-wait"],
    workers: workersFrom(values.workers),
    onProgress: bar.onProgress,
  });
  bar.finish();
  const [line, code] = promoteLine(endpoint.baseUrl.replace(/\/+$/, ""), result);
  await writeOut(values.json ? JSON.stringify(result) + "\n" : line + "\n");
  return code;
}
