/**
 * Delta Sharing recipients: named bearer tokens that read the sharing routes
 * and the file URLs they hand out, and nothing else. Kept in the store at
 * `.sharing/recipients.json`, each token as its SHA-256 only, so a copy of
 * the store does not leak a working token.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { readTextNoFollow, refusedLink, writeFileAtomic } from "../store/mod.ts";

/** One recipient as stored (never its token). */
export interface Recipient {
  /** Its name, as `svc share add NAME` gave it. */
  name: string;
  /** SHA-256 hex of its token. */
  tokenSha256: string;
  /** When it was made (ISO 8601). */
  createdAt: string;
  /** When its token stops working (ISO 8601), or null for never. */
  expiresAt: string | null;
}

/** What a store's recipients file holds. */
interface RecipientsFile {
  recipients: Recipient[];
}

/** Names a recipient may have: letters, digits, `-`, `_` and `.`, 1 to 64, starting with a letter or digit. */
export const RECIPIENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * `<store>/.sharing/recipients.json`.
 *
 * @example
 * ```ts
 * import { recipientsFile } from "./recipients.ts";
 * recipientsFile("svc-data"); // "svc-data/.sharing/recipients.json"
 * ```
 */
export function recipientsFile(root: string): string {
  return join(root, ".sharing", "recipients.json");
}

function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The recipients of the store at `root` (none when it has no file).
 *
 * @example
 * ```ts
 * import { listRecipients } from "./recipients.ts";
 * console.log(await listRecipients(await Deno.makeTempDir())); // []
 * ```
 */
export async function listRecipients(root: string): Promise<Recipient[]> {
  let text: string;
  try {
    text = await readTextNoFollow(root, recipientsFile(root));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const parsed = JSON.parse(text) as Partial<RecipientsFile>;
  if (!Array.isArray(parsed.recipients)) throw new Error(`${recipientsFile(root)} has no recipients list`);
  return parsed.recipients;
}

async function writeRecipients(root: string, recipients: Recipient[]): Promise<void> {
  if (refusedLink(root, recipientsFile(root))) {
    throw new Error("the recipients' file is reached through a symbolic link");
  }
  await writeFileAtomic(recipientsFile(root), JSON.stringify({ recipients }, null, 2) + "\n");
}

/** A recipient just made, with the token that is shown once. */
export interface NewRecipient {
  /** The recipient as stored. */
  recipient: Recipient;
  /** Its bearer token: the only time it is known. */
  token: string;
}

/**
 * Makes recipient `name` with a new token, valid until `expiresAt` (or for
 * ever when null). Refuses a name that exists or is malformed.
 *
 * @example
 * ```ts
 * import { addRecipient } from "./recipients.ts";
 * const { token } = await addRecipient(await Deno.makeTempDir(), "analysts", null, new Date());
 * console.log(token.startsWith("svcshare_")); // true
 * ```
 */
export async function addRecipient(
  root: string,
  name: string,
  expiresAt: Date | null,
  now: Date,
): Promise<NewRecipient> {
  if (!RECIPIENT_NAME.test(name)) {
    throw new RangeError(`a recipient's name is 1 to 64 letters, digits, ".", "-" or "_": ${JSON.stringify(name)}`);
  }
  const recipients = await listRecipients(root);
  if (recipients.some((r) => r.name.toLowerCase() === name.toLowerCase())) {
    throw new RangeError(`recipient ${name} exists: svc share remove ${name} first, or pick another name`);
  }
  const token = `svcshare_${randomBytes(32).toString("base64url")}`;
  const recipient: Recipient = {
    name,
    tokenSha256: tokenDigest(token),
    createdAt: now.toISOString(),
    expiresAt: expiresAt?.toISOString() ?? null,
  };
  await writeRecipients(root, [...recipients, recipient]);
  return { recipient, token };
}

/**
 * Removes recipient `name`; false when there is none of that name.
 *
 * @example
 * ```ts
 * import { removeRecipient } from "./recipients.ts";
 * console.log(await removeRecipient(await Deno.makeTempDir(), "analysts")); // false
 * ```
 */
export async function removeRecipient(root: string, name: string): Promise<boolean> {
  const recipients = await listRecipients(root);
  const kept = recipients.filter((r) => r.name.toLowerCase() !== name.toLowerCase());
  if (kept.length === recipients.length) return false;
  await writeRecipients(root, kept);
  return true;
}

/** Finds the recipient whose token a request carries; built once per node. */
export interface RecipientBook {
  /** The recipient whose unexpired token `bearer` is, or null. */
  holder(bearer: string, nowMs: number): Promise<Recipient | null>;
}

/**
 * A book over the store's recipients file that rereads it whenever it
 * changed, so a removed token is refused at once.
 *
 * @example
 * ```ts
 * import { recipientBook } from "./recipients.ts";
 * const book = recipientBook(await Deno.makeTempDir());
 * console.log(await book.holder("svcshare_x", Date.now())); // null
 * ```
 */
export function recipientBook(root: string): RecipientBook {
  let seen = "";
  let recipients: Recipient[] = [];
  return {
    async holder(bearer, nowMs) {
      const info = await stat(recipientsFile(root)).catch(() => null);
      const stamp = info ? `${info.mtimeMs}:${info.size}:${info.ino}` : "none";
      if (stamp !== seen) {
        recipients = info ? await listRecipients(root).catch(() => []) : [];
        seen = stamp;
      }
      const digest = Buffer.from(tokenDigest(bearer), "hex");
      for (const r of recipients) {
        if (!/^[0-9a-f]{64}$/.test(r.tokenSha256)) continue;
        if (!timingSafeEqual(digest, Buffer.from(r.tokenSha256, "hex"))) continue;
        if (r.expiresAt !== null && Date.parse(r.expiresAt) <= nowMs) return null;
        return r;
      }
      return null;
    },
  };
}
