/**
 * The client of the origin: the node's `Client` (its datasets: projects,
 * pages, manifests, SQL, contributions, exports), plus what only the origin
 * answers: knowledge units, the account, the community, payments without a
 * wallet, reports, dataset edits and pushes of large files.
 *
 * @module
 */
import { Client, type ClientOptions } from "@svc/cli/client";
import type { ProjectChanges, ProjectEdited, Report, ReportAnswer } from "../wire/mod.ts";
import { type AccountCalls, accountCalls } from "./account.ts";
import { type CommunityCalls, communityCalls } from "./community.ts";
import type { OriginContext } from "./context.ts";
import { type KnowledgeCalls, knowledgeCalls } from "./knowledge.ts";
import { type PaymentCalls, paymentCalls } from "./payments.ts";
import { updateProject } from "./project_edit.ts";
import { pushFile, type PushOptions, type PushResult } from "./push.ts";
import { sendReport } from "./reports.ts";

/** How to build an {@linkcode OriginClient}. */
export interface OriginClientOptions extends ClientOptions {
  /** Payment service (default `SVC_PAY_URL`, else the base URL, or `http://localhost:3001` for a loopback base). */
  payUrl?: string;
}

/** The pay URL rule of origin-wire 1.1: `localhost`, `127.0.0.1` or `::1` as the base URL's host name. */
function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "127.0.0.1" || host === "::1";
}

/**
 * A client of the origin (or of a node, for what a node answers).
 *
 * @example
 * ```ts
 * import { OriginClient } from "./origin_client.ts";
 * const client = new OriginClient({ env: { SVC_BASE_URL: "http://127.0.0.1:8686" } });
 * console.log(client.payUrl); // "http://localhost:3001"
 * ```
 */
export class OriginClient extends Client {
  /** The payment service's base URL. */
  readonly payUrl: string;
  /** Knowledge units: search, read, submit, status, wait, revise, retire, price, reviews, comments, points. */
  readonly knowledge: KnowledgeCalls;
  /** Claim, claim status, quota, earnings and listings (origin-wire 3.9, 3.10). */
  readonly account: AccountCalls;
  /** The requests board and reviews of bought items (origin-wire 4). */
  readonly community: CommunityCalls;
  /**
   * Payments without a wallet: credits (view, unit and dataset purchases) on
   * the origin, and the pay service's statements, purchase history and
   * disputes as plain HTTP (the pay service never receives the key). What
   * signs is `@svc/origin/pay`.
   */
  readonly payments: PaymentCalls;
  readonly #context: OriginContext;

  /**
   * An origin client configured by `options`, or by the `SVC_*` variables of `options.env`.
   *
   * @example
   * ```ts
   * import { OriginClient } from "./origin_client.ts";
   * new OriginClient({ baseUrl: "https://origin.example", payUrl: "https://pay.example/" }).payUrl; // "https://pay.example"
   * ```
   */
  constructor(options: OriginClientOptions = {}) {
    super(options);
    const env = options.env ?? {};
    this.payUrl = (options.payUrl ?? (env.SVC_PAY_URL || null) ??
      (isLoopbackUrl(this.baseUrl) ? "http://localhost:3001" : this.baseUrl)).replace(/\/+$/, "");
    this.#context = { ...this.callContext, payUrl: this.payUrl };
    this.knowledge = knowledgeCalls(this.#context);
    this.account = accountCalls(this.#context);
    this.community = communityCalls(this.#context);
    this.payments = paymentCalls(this.#context);
  }

  /**
   * Reports a unit, dataset, comment, review, topic or agent (`POST /reports`;
   * public, unchecked here, never retried); the same report within a day is
   * the same report (`again: true`).
   */
  report(report: Report): Promise<ReportAnswer> {
    return sendReport(this.#context, report);
  }

  /**
   * Pushes a JSON-lines file to the origin as one contribution: gzip, a
   * resumable multipart upload to presigned part URLs (which never see the
   * key), completion, and with `wait` the screening's answer (see `push.ts`).
   * A node takes no uploads: push goes to the origin.
   */
  async push(slug: string, file: string, options: PushOptions = {}): Promise<PushResult> {
    const { endpoint, requireKey } = this.#context;
    return await pushFile(endpoint, slug, file, { requireKey, ...options });
  }

  /** Edits a dataset (title, readme, tags, status, price, trialSale; see `project_edit.ts`). */
  update(slug: string, changes: ProjectChanges): Promise<ProjectEdited> {
    return updateProject(this.#context, slug, changes);
  }
}
