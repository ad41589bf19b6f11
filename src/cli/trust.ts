/**
 * `svc trust add [ORIGIN] [--origin URL] [--force]`, `svc trust [list]` and
 * `svc trust remove ORIGIN`: the pinned signing keys in the trust file
 * (`SVC_TRUST_FILE`).
 *
 * @module
 */
import process from "node:process";
import { callJson } from "../client/mod.ts";
import { type KeysDocument, pinKeys, readTrustFile, trustFilePath, writeTrustFile } from "../trust/mod.ts";
import { commandArgs } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { CliError, didYouMean, UsageError } from "../errors/mod.ts";

/** The help text of `svc trust`. */
export const TRUST_HELP = `Usage: svc trust add [ORIGIN] [--origin URL] [--force]
       svc trust [list] [--json]
       svc trust remove ORIGIN

Pin an origin's signing keys (from ORIGIN/.well-known/svc-keys; ORIGIN
defaults to --base-url or SVC_BASE_URL). The first time, every key that is
not revoked is pinned; later, a new key only when a pinned, unrevoked key
endorses it; revoked keys, and the keys they endorsed, are marked revoked.
--origin names the origin the document must speak for (default: ORIGIN);
--force pins keys that were refused for want of an endorsement.
The trust file is SVC_TRUST_FILE, else ~/.config/svc/trust.json.

Options:
  --origin URL   the origin the keys document must speak for
  --force        pin keys refused for want of an endorsement
  --json         print the result (add) or the pinned keys (list) as JSON
  -h, --help     show this help
`;

/**
 * Runs `svc trust` with `args`; resolves with the exit code.
 */
export async function trustCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    origin: { type: "string" },
    force: { type: "boolean" },
    json: { type: "boolean" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    help: { type: "boolean", short: "h" },
  }, "trust");
  // With no action, the pinned keys are listed, as the reference CLI does.
  const [action = "list", target, ...extra] = positionals;
  if (values.help) {
    process.stdout.write(TRUST_HELP);
    return 0;
  }
  if (extra.length > 0) throw new UsageError(`svc trust ${action} takes at most one origin`);
  const file = trustFilePath(process.env);
  const trust = await readTrustFile(file);
  if (action === "list") {
    if (values.json) process.stdout.write(JSON.stringify(trust) + "\n");
    else if (Object.keys(trust.origins).length === 0) {
      process.stderr.write(`no keys pinned in ${file}: svc trust add ORIGIN pins an origin's keys\n`);
    } else {
      for (const [origin, keys] of Object.entries(trust.origins)) {
        process.stdout.write(`${origin}\n`);
        for (const k of keys) {
          const notes = [k.endorsedBy ? `endorsed by ${k.endorsedBy}` : "", k.forced ? "forced" : ""].filter(Boolean);
          process.stdout.write(`  ${k.kid}  ${k.status}${notes.length ? `  (${notes.join(", ")})` : ""}\n`);
        }
      }
    }
    return 0;
  }
  if (action === "remove") {
    if (!target) throw new UsageError("svc trust remove takes the origin to forget");
    const origin = target.replace(/\/+$/, "");
    if (!trust.origins[origin]) throw new CliError(`${origin} is not in ${file}`);
    delete trust.origins[origin];
    await writeTrustFile(file, trust);
    process.stdout.write(`removed ${origin}\n`);
    return 0;
  }
  if (action !== "add") {
    const hint = didYouMean(action, ["add", "list", "remove"], (a) => `svc trust ${a}`);
    throw new UsageError(`unknown trust action ${JSON.stringify(action)}${hint} (add, list, remove)`);
  }
  const endpoint = endpointFrom(target ? { "base-url": target } : values, process.env);
  const base = endpoint.baseUrl.replace(/\/+$/, "");
  const origin = (values.origin ?? base).replace(/\/+$/, "");
  const { body } = await callJson({ ...endpoint, apiKey: null }, "GET", "/.well-known/svc-keys", null, {}, {
    exactIntegers: true,
  });
  let result;
  try {
    result = await pinKeys(trust, origin, body as KeysDocument, { force: values.force, now: new Date().toISOString() });
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  await writeTrustFile(file, trust);
  if (values.json) process.stdout.write(JSON.stringify(result) + "\n");
  else {
    const lines = [
      `${origin}: ${result.added.length} key${result.added.length === 1 ? "" : "s"} pinned` +
      (result.added.length ? ` (${result.added.join(", ")})` : ""),
    ];
    if (result.revoked.length) lines.push(`  revoked: ${result.revoked.join(", ")}`);
    for (const r of result.refused) {
      lines.push(`  refused ${r.kid}: ${r.reason}${values.force ? " (pinned anyway: --force)" : ""}`);
    }
    process.stdout.write(lines.join("\n") + "\n");
  }
  return 0;
}
