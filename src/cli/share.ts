/**
 * `svc share`: the Delta Sharing recipients of a store. A recipient's token
 * reads the node's shares and nothing else; it is stored hashed and shown
 * once, in the profile file a Delta Sharing client loads.
 *
 * @module
 */
import process from "node:process";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { addRecipient, listRecipients, type Recipient, removeRecipient } from "../sharing/mod.ts";
import { DEFAULT_STORE } from "../store/mod.ts";
import { SHARING_PREFIX } from "../catalog/mod.ts";
import { CliError, didYouMean, UsageError } from "../errors/mod.ts";
import { commandArgs } from "./args.ts";
import { prepareKeyFile } from "./key_file.ts";

/** `svc share --help`. */
export const SHARE_HELP = `Usage: svc share add NAME [--expires 30d] [-o FILE] [--endpoint URL]
       svc share [list] [--json]
       svc share remove NAME
       svc share profile NAME -o FILE [--expires 30d] [--endpoint URL]

Recipients of the node's Delta Sharing share (/delta-sharing): each has a
bearer token that reads the shares' routes and the file URLs they hand out,
and nothing else (no data pages, SQL, writes, MCP or browser login). The
token is stored hashed in the store (.sharing/recipients.json) and shown
once: add prints it, or writes it into a profile file with -o. profile
gives the recipient a new token (the old one stops working at once) and
writes its profile. A running node sees changes at once.

Options:
  --store DIR       the store (default: ${DEFAULT_STORE})
  --expires AGE     the token stops working after AGE (30d, 12h, 45m) or at
                    a date (2027-01-31 or ISO 8601); default: never
  -o, --out FILE    write the profile file (shareCredentialsVersion 1)
  --endpoint URL    the node's address as recipients reach it, written in
                    the profile (default: SVC_BASE_URL, else
                    http://127.0.0.1:8686), /delta-sharing appended
                    (an endpoint ending in it is taken as it is)
  --json            print the result as JSON
  -h, --help        show this help
`;

/**
 * When a token given `--expires text` stops working, measured from `now`.
 *
 * @example
 * ```ts
 * import { expiryOf } from "./share.ts";
 * expiryOf("30d", new Date("2026-01-01T00:00:00Z"))?.toISOString(); // "2026-01-31T00:00:00.000Z"
 * ```
 */
export function expiryOf(text: string | undefined, now: Date): Date | null {
  if (text === undefined) return null;
  const age = /^(\d{1,6})([dhm])$/.exec(text);
  if (age) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[age[2] as "d" | "h" | "m"];
    if (Number(age[1]) === 0) throw new UsageError("--expires must be a positive age");
    return new Date(now.getTime() + Number(age[1]) * unit);
  }
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !Number.isFinite(at)) {
    throw new UsageError(`--expires takes an age (30d, 12h, 45m) or a date (2027-01-31): ${text}`);
  }
  if (at <= now.getTime()) throw new UsageError(`--expires ${text} is already past`);
  return new Date(at);
}

/**
 * The node's address from `--endpoint` (or `SVC_BASE_URL`): an http or https
 * URL, without trailing slashes or the sharing prefix (an endpoint copied
 * from a profile names the same node).
 *
 * @example
 * ```ts
 * import { nodeBase } from "./share.ts";
 * nodeBase("https://data.example.org/delta-sharing/"); // "https://data.example.org"
 * ```
 */
export function nodeBase(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw new UsageError(`--endpoint takes the node's address, an http or https URL: ${JSON.stringify(text)}`);
  }
  if (url.search || url.hash) throw new UsageError(`--endpoint takes no query or fragment: ${JSON.stringify(text)}`);
  const path = url.pathname.replace(/\/+$/, "");
  return url.origin + (path.endsWith(SHARING_PREFIX) ? path.slice(0, -SHARING_PREFIX.length) : path);
}

/**
 * The profile a Delta Sharing client loads for a recipient.
 *
 * @example
 * ```ts
 * import { profileOf } from "./share.ts";
 * profileOf("http://127.0.0.1:8686", "svcshare_x", null).endpoint; // "http://127.0.0.1:8686/delta-sharing"
 * ```
 */
export function profileOf(base: string, token: string, expiresAt: string | null): Record<string, unknown> {
  return {
    shareCredentialsVersion: 1,
    endpoint: `${base.replace(/\/+$/, "")}${SHARING_PREFIX}`,
    bearerToken: token,
    ...(expiresAt ? { expirationTime: expiresAt } : {}),
  };
}

async function writeProfile(file: string, profile: Record<string, unknown>): Promise<void> {
  // The file holds a working token: written as a key file is (0600, whole or not at all, nothing left on Ctrl-C).
  const pending = await prepareKeyFile(file, true);
  await pending.write(JSON.stringify(profile, null, 2));
}

async function requireStore(store: string): Promise<void> {
  const isDir = await stat(store).then((s) => s.isDirectory(), () => false);
  if (!isDir) throw new CliError(`there is no store at ${store} (${resolve(store)}): give --store DIR`);
}

/**
 * What to say of the node at `base` once a recipient of `store` is made: a
 * warning when that node serves this store with no token (a recipient's
 * token guards nothing there: anyone who reaches the node reads the share,
 * and every other read), a note when no node answers there; null when the
 * node has a token, or serves another store. The node is asked its
 * `/healthz` (two seconds at most).
 */
async function tokenWarning(base: string, store: string): Promise<string | null> {
  let health: { auth?: unknown; store?: unknown };
  try {
    const res = await fetch(`${base.replace(/\/+$/, "")}/healthz`, { signal: AbortSignal.timeout(2000) });
    health = await res.json();
  } catch {
    return `note: no node answers at ${base} now; a node that serves ${store} without a token ` +
      "(svc serve --token, or SVC_NODE_TOKEN) answers its share to anyone who reaches it, token or not";
  }
  if (health?.auth !== "none") return null;
  if (typeof health.store === "string" && resolve(health.store) !== resolve(store)) return null;
  return `warning: the node at ${base} has no token: anyone who reaches it reads this share (and all it serves) ` +
    "without the recipient's token; give the node one (svc serve --token, or SVC_NODE_TOKEN) before you share beyond " +
    "this machine";
}

function listLines(recipients: Recipient[], now: number): string {
  return recipients.map((r) => {
    const expired = r.expiresAt !== null && Date.parse(r.expiresAt) <= now;
    const until = r.expiresAt === null ? "never expires" : `${expired ? "expired" : "expires"} ${r.expiresAt}`;
    return `${r.name}  created ${r.createdAt}  ${until}\n`;
  }).join("");
}

/**
 * Runs `svc share ARGS`; resolves with the exit code.
 *
 * @example
 * ```ts
 * import { shareCommand } from "./share.ts";
 * await shareCommand(["list", "--store", await Deno.makeTempDir(), "--json"]); // prints []
 * ```
 */
export async function shareCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    store: { type: "string" },
    expires: { type: "string" },
    out: { type: "string", short: "o" },
    endpoint: { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }, "share");
  if (values.help) {
    process.stdout.write(SHARE_HELP);
    return 0;
  }
  const [action = "list", name, ...extra] = positionals;
  if (!["add", "list", "remove", "profile"].includes(action)) {
    const hint = didYouMean(action, ["add", "list", "remove", "profile"], (a) => `svc share ${a}`);
    throw new UsageError(`unknown share action ${JSON.stringify(action)}${hint} (add, list, remove, profile)`);
  }
  if (extra.length > 0) throw new UsageError(`svc share ${action} takes one name`);
  const store = values.store ?? DEFAULT_STORE;
  await requireStore(store);
  const now = new Date();
  if (action === "list") {
    const recipients = await listRecipients(store);
    if (values.json) process.stdout.write(JSON.stringify(recipients) + "\n");
    else if (recipients.length === 0) process.stderr.write(`no recipients in ${store}: svc share add NAME makes one\n`);
    else process.stdout.write(listLines(recipients, now.getTime()));
    return 0;
  }
  if (!name) throw new UsageError(`svc share ${action} takes the recipient's name`);
  if (action === "remove") {
    if (!(await removeRecipient(store, name))) throw new CliError(`there is no recipient ${name} in ${store}`);
    process.stdout.write(`removed ${name}: its token no longer works\n`);
    return 0;
  }
  if (action === "profile" && !values.out) throw new UsageError("svc share profile needs -o FILE");
  // Checked before anything changes: a refused address must not cost a recipient its token, or leave one nobody saw.
  const base = nodeBase(values.endpoint ?? (process.env.SVC_BASE_URL || "http://127.0.0.1:8686"));
  let expires = expiryOf(values.expires, now);
  if (action === "profile") {
    const old = (await listRecipients(store)).find((r) => r.name.toLowerCase() === name.toLowerCase());
    if (!old) throw new CliError(`there is no recipient ${name} in ${store}: svc share add ${name} makes one`);
    if (values.expires === undefined && old.expiresAt !== null) expires = new Date(old.expiresAt);
    await removeRecipient(store, name);
  }
  let made;
  try {
    made = await addRecipient(store, name, expires, now);
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(e.message);
    throw e;
  }
  const profile = profileOf(base, made.token, made.recipient.expiresAt);
  const warning = tokenWarning(base, store);
  if (values.out) await writeProfile(values.out, profile);
  if (values.json) {
    process.stdout.write(JSON.stringify({ ...made.recipient, token: made.token, profile: values.out ?? null }) + "\n");
  } else if (values.out) {
    const renewed = action === "profile" ? " (a new token: the previous one no longer works)" : "";
    process.stdout.write(`wrote ${values.out} for ${name}${renewed}; it holds the token, keep it private\n`);
  } else {
    process.stdout.write(`${made.token}\n`);
    process.stderr.write(
      `recipient ${name}: the token above is shown once (svc share profile ${name} -o FILE makes another)\n`,
    );
  }
  const said = await warning;
  if (said !== null) process.stderr.write(`${said}\n`);
  return 0;
}
