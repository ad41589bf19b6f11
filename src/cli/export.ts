/**
 * `svc export SLUG[@N] [-o FILE|-] [--no-progress] [--json]`: a version's
 * records as gzip-compressed JSON lines from `GET /projects/{slug}/export`,
 * into a file (resumable after a cut) or to stdout.
 *
 * @module
 */
import process from "node:process";
import { Client, exportFile, newestVersion } from "../client/mod.ts";
import { commandArgs, intFlag, projectAt } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { UsageError } from "../errors/mod.ts";
import { writeOut } from "./formats.ts";
import { noteOnInterrupt } from "./interrupt.ts";
import { humanBytes, plural, progress } from "./progress.ts";

/** The help text of `svc export`. */
export const EXPORT_HELP = `Usage: svc export SLUG[@VERSION] [-o FILE|-] [options]

Download every record of a version as gzip-compressed JSON lines (one record
a line). The bytes go to FILE.part first; a download that was cut (network,
Ctrl-C) resumes from there when run again, as long as the node still serves
the same export (else it starts over). The file is checked to be whole gzip
before it is renamed into place.

Options:
  -o, --output FILE  where to write (default: ./SLUG-vN.jsonl.gz; - for stdout)
  --version N        the version (default: the newest, asked of the node)
  --no-progress      no progress on stderr
  --json             print the result as JSON
  --base-url URL     the node (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY      agent key or node token (default: SVC_API_KEY, SVC_NODE_TOKEN)
  -h, --help         show this help
`;

/**
 * Runs `svc export` with `args`; resolves with the exit code.
 */
export async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    output: { type: "string", short: "o" },
    version: { type: "string" },
    "no-progress": { type: "boolean" },
    json: { type: "boolean" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    help: { type: "boolean", short: "h" },
  }, "export");
  if (values.help) {
    process.stdout.write(EXPORT_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc export takes one SLUG[@VERSION]");
  const { slug, version: at } = projectAt(positionals[0]);
  const toStdout = values.output === "-";
  if (values.output === "") throw new UsageError("-o needs a file name (or - for stdout)");
  if (toStdout && values.json) throw new UsageError("--json cannot go with -o - (stdout holds the export)");
  if (toStdout && process.stdout.isTTY) {
    throw new UsageError("refusing to write gzip to a terminal: redirect stdout, or give -o FILE");
  }
  const client = new Client({ ...endpointFrom(values, process.env) });
  const version = intFlag("version", values.version, 1) ?? at ?? await newestVersion(client, slug);
  const bar = progress(`export ${slug} v${version}`, { enabled: !values["no-progress"] });
  if (toStdout) {
    const answer = await client.export(slug, { version });
    let done = 0;
    for await (const chunk of answer.body) {
      await writeOut(chunk);
      done += chunk.byteLength;
      bar.update(done, answer.size ?? 0);
    }
    bar.finish();
    return 0;
  }
  const out = values.output ?? `${slug}-v${version}.jsonl.gz`;
  let held = 0;
  noteOnInterrupt(() => held > 0 ? `${humanBytes(held)} kept in ${out}.part; run the same command to resume` : "");
  const result = await exportFile(client, slug, {
    version,
    out,
    onProgress: (done, total) => {
      held = done;
      bar.update(done, total);
    },
  });
  noteOnInterrupt(null);
  bar.finish();
  if (values.json) {
    await writeOut(JSON.stringify(result) + "\n");
  } else {
    const resumed = result.resumedFrom > 0 ? ` (resumed at ${humanBytes(result.resumedFrom)})` : "";
    await writeOut(
      `${slug} v${version}: ${plural(result.records, "record")}, ${humanBytes(result.bytes)} -> ${out}${resumed}\n`,
    );
  }
  return 0;
}
