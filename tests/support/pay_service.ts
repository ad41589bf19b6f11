/**
 * A test pay service on its own loopback port (origin-wire 5.1): x402 v2
 * sales of knowledge units, dataset versions and credit packs (a 402 with a
 * `PAYMENT-REQUIRED` header; the `PAYMENT-SIGNATURE` retry verified with
 * ethers against the offer, the injected clock and the nonces used; the
 * resource and a `PAYMENT-RESPONSE` receipt), the purchase history and
 * disputes behind EIP-191 statements, and faults for every hostile case:
 * another asset, network or price, a v1-only 402, a settlement that fails
 * after paying, HTML error pages, a redirect, a statement one byte off, a
 * clock off by some seconds. Every request is recorded.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import {
  disputeText,
  historyText,
  type Offer,
  originOf,
  signedBy,
  type Verified,
  verifyPayment,
} from "./pay_verify.ts";

/** The fixed test wallet's private key (never a real wallet). */
export const TEST_WALLET_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
/** Its address. */
export const TEST_WALLET_ADDRESS = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23";
/** Who the test pay service is paid to. */
export const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
/** Base Sepolia's USDC. */
export const SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

/** A unit for sale. */
export interface UnitForSale {
  /** Title. */
  title: string;
  /** Body. */
  body: string;
  /** Price in atomic USDC. */
  amount: string;
}

/** A request the pay service received. */
export interface PaySeen {
  /** Method. */
  method: string;
  /** Path with query. */
  path: string;
  /** Headers, lowercased. */
  headers: IncomingMessage["headers"];
  /** Body text. */
  body: string;
}

/** What the tests can break. */
export interface PayFaults {
  /** Fields that replace those of every offer (another asset, network, amount, ...). */
  offer: Partial<Offer> | null;
  /** Answer the 402 as x402 v1 only (a JSON body with a legacy network name, no header). */
  v1Only: boolean;
  /** Refuse the settlement after a valid payment: a second 402 with this error. */
  settleError: string | null;
  /** Answer every route with this status and an HTML page. */
  htmlStatus: number | null;
  /** Redirect `/paid/*` to `/moved/paid/*` (which sells the same). */
  redirect: boolean;
  /** Seconds added to the time of statements. */
  statementSkewS: number;
  /** Change one byte of every statement. */
  tamperStatement: boolean;
}

/** A purchase, with its payer. */
export type PurchaseRecord = Record<string, unknown> & { payer: string; transaction: string; settledAt: string };

/** A running test pay service. */
export interface PayService {
  /** Base URL. */
  url: string;
  /** Every request, in order. */
  seen: PaySeen[];
  /** Faults, changed by tests. */
  faults: PayFaults;
  /** Payments that passed every check. */
  payments: Verified[];
  /** Why payments were refused. */
  refused: string[];
  /** Purchases, oldest first. */
  purchases: PurchaseRecord[];
  /** Disputes by id. */
  disputes: Map<string, Record<string, unknown>>;
  /** Units for sale, by id. */
  units: Map<string, UnitForSale>;
  /** Sets the service's clock (milliseconds). */
  setClock(now: () => number): void;
  /** The requests that carried a `PAYMENT-SIGNATURE`. */
  signatures(): PaySeen[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** How to start one. */
export interface PayServiceOptions {
  /** The clock (default `Date.now`). */
  now?: () => number;
  /** The manifest of a dataset version sold (version null: the newest), or null when there is none. */
  dataset?: (slug: string, version: number | null) => Promise<Record<string, unknown> | null>;
  /** Price of a dataset version, atomic (default 250000). */
  datasetAmount?: string;
  /** Price of a credit pack, atomic (default 1000000, the default cap). */
  packAmount?: string;
  /** Credits `micro` to `operator`; answers the balance after (default: a balance kept here). */
  credit?: (operator: string, micro: number) => number;
}

const DAY_MS = 86_400_000;
const HTML = "<!doctype html><html><body><h1>Bad Gateway</h1><p>the upstream is down</p></body></html>";

function b64(value: unknown): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))));
}

function unb64(text: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0))));
  } catch {
    return null;
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function usd(atomic: string): string {
  const n = BigInt(atomic);
  return `$${n / 1_000_000n}.${(n % 1_000_000n).toString().padStart(6, "0").replace(/0{1,4}$/, "")}`;
}

/** Starts a test pay service on a free loopback port. */
export async function startPayService(options: PayServiceOptions = {}): Promise<PayService> {
  let now = options.now ?? Date.now;
  const seen: PaySeen[] = [];
  const faults: PayFaults = {
    offer: null,
    v1Only: false,
    settleError: null,
    htmlStatus: null,
    redirect: false,
    statementSkewS: 0,
    tamperStatement: false,
  };
  const payments: Verified[] = [];
  const refused: string[] = [];
  const purchases: PurchaseRecord[] = [];
  const disputes = new Map<string, Record<string, unknown>>();
  const units = new Map<string, UnitForSale>();
  const nonces = new Set<string>();
  const balances = new Map<string, number>();
  const credit = options.credit ?? ((operator: string, micro: number) => {
    balances.set(operator, (balances.get(operator) ?? 0) + micro);
    return balances.get(operator)!;
  });
  let url = "";
  const nowS = () => Math.floor(now() / 1000);

  const offerOf = (amount: string): Offer => ({
    scheme: "exact",
    network: "eip155:84532",
    amount,
    asset: SEPOLIA_USDC,
    payTo: PAY_TO,
    maxTimeoutSeconds: 300,
    extra: { name: "USDC", version: "2" },
    ...faults.offer,
  });

  /** Sells `what` for `amount`: a 402 until a valid payment comes, then `deliver`'s body and the receipt. */
  function sell(
    req: Request,
    amount: string,
    what: Record<string, unknown>,
    deliver: (payer: string) => Record<string, unknown>,
  ): Response {
    const offers = [offerOf(amount)];
    const resource = { url: req.url, description: String(what.kind), mimeType: "application/json" };
    const ask = (error: string) =>
      json(402, {}, { "payment-required": b64({ x402Version: 2, error, resource, accepts: offers }) });
    const header = req.headers.get("payment-signature");
    if (faults.v1Only) {
      return json(402, {
        x402Version: 1,
        error: "X-PAYMENT header is required",
        accepts: [{ ...offers[0], network: "base-sepolia", maxAmountRequired: amount, resource: req.url }],
      });
    }
    if (header === null) return ask("payment required");
    const checked = verifyPayment(unb64(header), offers, nowS(), nonces);
    if ("error" in checked) {
      refused.push(checked.error);
      return ask(checked.error);
    }
    nonces.add(checked.nonce);
    if (faults.settleError) {
      refused.push(faults.settleError);
      return ask(faults.settleError);
    }
    payments.push(checked);
    const transaction = `0x${createHash("sha256").update(`${checked.nonce}${checked.signature}`).digest("hex")}`;
    const at = new Date(now()).toISOString();
    purchases.push({
      id: `pur_${purchases.length + 1}`,
      unit: null,
      dataset: null,
      ...what,
      price: usd(amount),
      amountMicro: Number(amount),
      network: checked.offer.network,
      transaction,
      status: "settled",
      createdAt: at,
      settledAt: at,
      dispute: null,
      disputeUntil: new Date(now() + 7 * DAY_MS).toISOString(),
      payer: checked.payer.toLowerCase(),
    });
    const receipt = { success: true, transaction, network: checked.offer.network, payer: checked.payer };
    return json(200, deliver(checked.payer), { "payment-response": b64(receipt) });
  }

  /** A statement answer: the text `build` makes at the service's time, or one byte off when tampered. */
  const statement = (build: (time: number) => string) => {
    const time = nowS() + faults.statementSkewS;
    const text = build(time);
    return json(200, { statement: faults.tamperStatement ? text.replace("SVC", "SVc") : text, time });
  };

  function history(req: Request, q: URLSearchParams): Response {
    const wallet = (req.headers.get("x-svc-wallet") ?? "").toLowerCase();
    const time = Number(req.headers.get("x-svc-time"));
    if (!Number.isSafeInteger(time) || Math.abs(nowS() - time) > 300) return json(401, { error: "stale statement" });
    if (!signedBy(historyText(wallet, originOf(url), time), req.headers.get("x-svc-signature"), wallet)) {
      return json(401, { error: "bad signature" });
    }
    const limit = Number(q.get("limit") ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return json(400, { error: "limit must be 1-100" });
    const mine = purchases.filter((p) => p.payer === wallet).reverse();
    const before = q.get("before");
    const from = before === null ? 0 : mine.findIndex((p) => p.id === before) + 1;
    const page = mine.slice(from, from + limit).map(({ payer: _p, ...p }) => p);
    const next = from + limit < mine.length ? String(page.at(-1)!.id) : null;
    return json(200, { wallet, purchases: page, next });
  }

  async function openDispute(req: Request): Promise<Response> {
    // deno-lint-ignore no-explicit-any
    const b: any = await req.json().catch(() => null);
    const wallet = String(b?.wallet ?? "").toLowerCase();
    const tx = String(b?.transaction ?? "");
    if (!Number.isSafeInteger(b?.time) || Math.abs(nowS() - b.time) > 300) return json(401, { error: "stale" });
    if (!signedBy(disputeText(tx, wallet, originOf(url), b.time), b?.signature, wallet)) {
      return json(401, { error: "bad signature" });
    }
    const reason = typeof b?.reason === "string" ? b.reason : "";
    if ([...reason].length < 3 || [...reason].length > 500) return json(400, { error: "reason must be 3-500 chars" });
    const purchase = purchases.find((p) => p.transaction === tx && p.payer === wallet);
    if (!purchase) return json(404, { error: "unknown transaction" });
    if (now() - Date.parse(purchase.settledAt) > 7 * DAY_MS) {
      return json(404, { error: "settled more than 7 days ago: disputes close after 7 days" });
    }
    if (purchase.dispute) return json(409, { error: "already disputed" });
    const id = `dsp_${disputes.size + 1}`;
    const kind = String(purchase.kind);
    const dispute = {
      id,
      status: "open",
      kind,
      amountMicro: purchase.amountMicro,
      transaction: tx,
      reason,
      refundMicro: null,
      refundTx: null,
      note: null,
    };
    disputes.set(id, dispute);
    purchase.dispute = { id, status: "open" };
    return json(201, { id, status: "open", kind, amountMicro: purchase.amountMicro });
  }

  async function handle(req: Request): Promise<Response> {
    const u = new URL(req.url);
    if (faults.htmlStatus !== null) {
      return new Response(HTML, { status: faults.htmlStatus, headers: { "content-type": "text/html" } });
    }
    if (faults.redirect && u.pathname.startsWith("/paid/")) {
      return new Response(null, { status: 302, headers: { location: `/moved${u.pathname}${u.search}` } });
    }
    const path = u.pathname.replace(/^\/moved(?=\/paid\/)/, "");
    const q = u.searchParams;
    if (req.method === "GET" && path === "/paid/knowledge") {
      const id = q.get("id") ?? "";
      const unit = units.get(id);
      if (!unit) return json(404, { error: "unit not found" });
      return sell(req, unit.amount, { kind: "unit", unit: { id, title: unit.title } }, () => ({
        id,
        title: unit.title,
        body: unit.body,
      }));
    }
    if (req.method === "GET" && path === "/paid/dataset") {
      const slug = q.get("slug") ?? "";
      const version = q.has("version") ? Number(q.get("version")) : null;
      const manifest = await options.dataset?.(slug, version) ?? null;
      if (!manifest) return json(404, { error: "dataset version not found" });
      return sell(
        req,
        options.datasetAmount ?? "250000",
        { kind: "dataset", dataset: { slug, version: manifest.version } },
        () => ({ ...manifest, urlExpiresAt: new Date(now() + 15 * 60_000).toISOString(), paid: true }),
      );
    }
    if (req.method === "GET" && path === "/paid/credits") {
      const operator = q.get("operator") ?? "";
      if (!operator) return json(400, { error: "operator is required" });
      const amount = options.packAmount ?? "1000000";
      return sell(req, amount, { kind: "credits", credits: { operatorId: operator } }, () => ({
        operatorId: operator,
        creditedMicro: Number(amount),
        balanceMicro: credit(operator, Number(amount)),
        paid: true,
      }));
    }
    if (req.method === "GET" && path === "/purchases/statement") {
      const wallet = (q.get("wallet") ?? "").toLowerCase();
      return statement((time) => historyText(wallet, originOf(url), time));
    }
    if (req.method === "GET" && path === "/purchases") return history(req, q);
    if (req.method === "GET" && path === "/disputes/statement") {
      const tx = (q.get("transaction") ?? "").toLowerCase();
      const wallet = (q.get("wallet") ?? "").toLowerCase();
      return statement((time) => disputeText(tx, wallet, originOf(url), time));
    }
    if (req.method === "POST" && path === "/disputes") return await openDispute(req);
    const disputeMatch = path.match(/^\/disputes\/([^/]+)$/);
    if (req.method === "GET" && disputeMatch) {
      const dispute = disputes.get(decodeURIComponent(disputeMatch[1]));
      return dispute ? json(200, dispute) : json(404, { error: "dispute not found" });
    }
    return json(404, { error: `no route ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (c: Uint8Array) => chunks.push(c));
    req.on("end", async () => {
      const body = new TextDecoder().decode(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
      const path = req.url ?? "/";
      seen.push({ method: req.method ?? "GET", path, headers: req.headers, body });
      const request = new Request(`${url}${path}`, {
        method: req.method,
        headers: Object.entries(req.headers).map(([k, v]): [string, string] => [k, String(v)]),
        body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
      });
      const answer = await handle(request);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(new Uint8Array(await answer.arrayBuffer()));
    });
  });
  url = await new Promise<string>((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
  return {
    url,
    seen,
    faults,
    payments,
    refused,
    purchases,
    disputes,
    units,
    setClock: (clock) => void (now = clock),
    signatures: () => seen.filter((s) => s.headers["payment-signature"] !== undefined),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every place a secret could have gone in `seen`: paths, headers and bodies, as one text. */
export function everythingSeen(seen: PaySeen[]): string {
  return seen.map((s) => `${s.method} ${s.path}\n${JSON.stringify(s.headers)}\n${s.body}`).join("\n");
}
