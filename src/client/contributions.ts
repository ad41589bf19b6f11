/**
 * Contributions through the client: send 1 to 500 records
 * (`POST /projects/{slug}/contribute`, retried only with an idempotency
 * key), read one back, and poll one until it is final.
 *
 * @module
 */
import type { ContributionView } from "../wire/mod.ts";
import type { CallContext } from "./context.ts";
import { ValueError, WaitTimeout } from "./errors.ts";
import { callJson } from "./http.ts";

/** A contribution's answer (the wire's `ContributionView`). */
export type ContributionAnswer = ContributionView;

/** How a contribution is sent. */
export interface ContributeOptions {
  /** Where the records come from, 4 to 2000 characters (spec 9). */
  sourceDeclaration?: string;
  /** Makes the call safe to repeat, so it is retried on transient failures. */
  idempotencyKey?: string;
  /** Poll until the answer is final: true (up to 900 s) or milliseconds. */
  wait?: boolean | number;
}

/** Contribution states after which nothing changes. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(["merged", "rejected"]);
const DEFAULT_WAIT_MS = 900_000;

/** A source declaration, when given, is 4 to 2000 characters (spec 9). */
function checkSourceDeclaration(text: string | undefined): void {
  if (text === undefined) return;
  if (typeof text !== "string") throw new ValueError("sourceDeclaration must be a string");
  const length = [...text].length;
  if (length < 4 || length > 2000) {
    throw new ValueError(`sourceDeclaration must be 4 to 2000 characters, not ${length}`);
  }
}

/**
 * Sends `records` to `slug` as one contribution, and with `options.wait`
 * polls its answer until it is final.
 *
 * @example
 * ```ts ignore
 * import { contribute } from "./contributions.ts";
 * const answer = await contribute(context, "notes", [{ text: "hi" }], { wait: true });
 * ```
 */
export async function contribute(
  context: CallContext,
  slug: string,
  records: Record<string, unknown>[],
  options: ContributeOptions = {},
): Promise<ContributionAnswer & { replayed: boolean }> {
  await context.needKey("contribute");
  if (records.length < 1 || records.length > 500) throw new ValueError("records must hold 1-500 records");
  checkSourceDeclaration(options.sourceDeclaration);
  const headers: Record<string, string> = options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {};
  const body = JSON.stringify({ records, sourceDeclaration: options.sourceDeclaration });
  const answer = await callJson(
    context.endpoint,
    "POST",
    `/projects/${encodeURIComponent(slug)}/contribute`,
    body,
    headers,
    {
      retry: options.idempotencyKey !== undefined,
      route: "POST /projects/{slug}/contribute",
    },
  );
  const replayed = answer.headers.get("idempotent-replayed") === "true";
  let view = answer.body as ContributionAnswer;
  if (options.wait && !FINAL_STATUSES.has(view.status)) {
    view = await waitForContribution(context, slug, view.id, {
      timeoutMs: options.wait === true ? DEFAULT_WAIT_MS : options.wait,
    });
  }
  return { ...view, replayed };
}

/**
 * A contribution's answer (`GET /projects/{slug}/contributions/{id}`).
 *
 * @example
 * ```ts ignore
 * import { contribution } from "./contributions.ts";
 * const { status } = await contribution(context, "notes", "c_1");
 * ```
 */
export async function contribution(context: CallContext, slug: string, id: string): Promise<ContributionAnswer> {
  await context.needKey("contribution");
  return (await callJson(
    context.endpoint,
    "GET",
    `/projects/${encodeURIComponent(slug)}/contributions/${encodeURIComponent(id)}`,
    null,
    {},
    { route: "GET /projects/{slug}/contributions/{id}" },
  )).body as ContributionAnswer;
}

/**
 * Polls a contribution until it is `merged` or `rejected`, waiting twice as
 * long each time (from `intervalMs`, 250 ms, to 5 s); a `WaitTimeout` once
 * `timeoutMs` (900 s) has passed.
 *
 * @example
 * ```ts ignore
 * import { waitForContribution } from "./contributions.ts";
 * const final = await waitForContribution(context, "notes", "c_1", { timeoutMs: 60_000 });
 * ```
 */
export async function waitForContribution(
  context: CallContext,
  slug: string,
  id: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<ContributionAnswer> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  const deadline = Date.now() + timeoutMs;
  for (let wait = options.intervalMs ?? 250;; wait = Math.min(wait * 2, 5_000)) {
    const view = await contribution(context, slug, id);
    if (FINAL_STATUSES.has(view.status)) return view;
    if (Date.now() + wait > deadline) {
      throw new WaitTimeout(
        `contribution ${id} still ${view.status} after ${timeoutMs / 1000}s`,
        null,
        "wait_timeout",
        view,
      );
    }
    await new Promise((r) => setTimeout(r, wait));
  }
}
