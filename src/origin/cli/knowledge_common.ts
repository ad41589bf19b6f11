/**
 * What the knowledge-unit commands share: the client flags and their help
 * lines, the client they make, `--json` output, and the unit's input from
 * the command line (`--file`/`--body`, `--source`, `--license`,
 * `--provenance`/`--measured`) checked as origin-wire 3.1 and 7.1 say:
 * a bad `--source`, `--license` or `--provenance` is a usage error (exit 2),
 * a unit with no text an error (exit 1).
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import process from "node:process";
import { listedLicense, ORIGIN_LICENSES } from "@svc/cli/wire";
import type { Provenance } from "../wire/mod.ts";
import { CliError, fileError, UsageError } from "@svc/cli/errors";

export { ORIGIN_FLAGS as CLIENT_FLAGS, originClient as clientFrom, printJson } from "./origin_flags.ts";

/** The help lines of {@linkcode CLIENT_FLAGS}. */
export const CLIENT_HELP = `  --json                 print the answer as JSON, as the API gives it
  --base-url URL         the origin (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY          agent key (default: SVC_API_KEY)
  -h, --help             show this help`;

/** The flags that give a unit's text and where it comes from (`submit`, `revise`). */
export const UNIT_INPUT_FLAGS = {
  file: { type: "string" },
  body: { type: "string" },
  source: { type: "string" },
  provenance: { type: "string" },
  measured: { type: "boolean" },
  wait: { type: "boolean" },
} as const;

/**
 * A `--source` checked as the origin takes it: 4 to 2000 characters, at
 * least 4 once trimmed; else a usage error.
 *
 * @example
 * ```ts
 * import { sourceFlag } from "./knowledge_common.ts";
 * sourceFlag("measured on our fleet"); // "measured on our fleet"
 * ```
 */
export function sourceFlag(value: string): string {
  if ([...value.trim()].length < 4 || [...value].length > 2000) {
    throw new UsageError("--source must say how you came to know it in 4 to 2000 characters");
  }
  return value;
}

/**
 * A `--license` as the origin spells it (any letter case given), else a
 * usage error naming the list.
 *
 * @example
 * ```ts
 * import { licenseFlag } from "./knowledge_common.ts";
 * licenseFlag("cc-by-4.0"); // "CC-BY-4.0"
 * ```
 */
export function licenseFlag(value: string): string {
  const listed = listedLicense(value);
  if (!listed) throw new UsageError(`--license must be one of ${ORIGIN_LICENSES.join(", ")}, not ${value}`);
  return listed;
}

/**
 * The provenance of `--provenance JSON|@FILE` or `--measured` (never both),
 * or undefined with neither; it must be a JSON object with a `kind`.
 *
 * @example
 * ```ts
 * import { provenanceFlags } from "./knowledge_common.ts";
 * await provenanceFlags({ measured: true }); // { kind: "own_measurement" }
 * ```
 */
export async function provenanceFlags(flags: { provenance?: string; measured?: boolean }): Promise<
  Provenance | undefined
> {
  if (flags.provenance !== undefined && flags.measured) {
    throw new UsageError("--provenance and --measured cannot go together (--measured is a provenance)");
  }
  if (flags.measured) return { kind: "own_measurement" };
  const given = flags.provenance;
  if (given === undefined) return undefined;
  const text = given.startsWith("@") ? await readText(given.slice(1), "the provenance file") : given;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || !("kind" in parsed)) {
    throw new UsageError('--provenance must be a JSON object with a "kind" (or @FILE holding one)');
  }
  return parsed as Provenance;
}

/**
 * The text of `path`, or of stdin for `-`; a file that cannot be read is an
 * error naming it (exit 1).
 */
export async function readText(path: string, what = ""): Promise<string> {
  if (path === "-") {
    const chunks: Uint8Array[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
    return new TextDecoder().decode(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
  }
  return await readFile(path, "utf8").catch((e) => {
    throw fileError("read", what ? `${what} ${path}` : path, e);
  });
}

/**
 * The unit's text from `--file` (`-` for stdin) or `--body`: one of them,
 * else an error (exit 1, origin-wire 3.1); both is a usage error.
 *
 * @example
 * ```ts
 * import { unitText } from "./knowledge_common.ts";
 * const body = await unitText({ body: "Median TTL is 300 s." });
 * ```
 */
export async function unitText(flags: { file?: string; body?: string }): Promise<string> {
  if (flags.file !== undefined && flags.body !== undefined) throw new UsageError("give --file or --body, not both");
  if (flags.body !== undefined) return flags.body;
  if (flags.file === undefined) throw new CliError("give --file FILE (- for stdin) or --body TEXT: the unit's text");
  return await readText(flags.file);
}

/**
 * Writes `help` and answers true when `--help` was given.
 */
export function helped(flags: { help?: boolean }, help: string): boolean {
  if (flags.help) process.stdout.write(help);
  return flags.help === true;
}
