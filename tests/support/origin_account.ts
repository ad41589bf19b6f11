/**
 * The test origin's account area (origin-wire 3.9, 3.10): claim codes (valid,
 * used, expired, locked; any other is wrong) that give a pending key, approved
 * (or rejected, expired, replaced) by a test control or after a number of
 * status polls; `POST /agents` 410; quota, earnings (agent key or OAuth token)
 * and listings with figures in micro-USDC that tests may change.
 *
 * @module
 */
import { randomBytes } from "node:crypto";
import {
  type Agent,
  type AgentRegistry,
  agentsOf,
  intParam,
  jsonBody,
  keyRequired,
  MAIN_OPERATOR,
  pageOf,
} from "./origin_agents.ts";
import type { AreaFactory } from "./origin_areas.ts";

/** What a claim code is. */
export interface ClaimCode {
  /** The agent name it carries. */
  name: string;
  /** The operator it belongs to. */
  operator: string;
  /** valid, used, expired or locked. */
  state: "valid" | "used" | "expired" | "locked";
  /** Gives an existing agent a new key (`kind: "new-key"`). */
  newKey?: boolean;
}

/** A claim made, by key. */
export interface Claim {
  /** The agent. */
  agent: Agent;
  /** The approval URL. */
  approveUrl: string;
  /** When it stops waiting (ISO). */
  expiresAt: string;
  /** Status polls so far. */
  polls: number;
  /** Approve once this many polls were answered pending. */
  approveAfter: number | null;
}

/** The account area's test controls. */
export interface AccountControls {
  /** The origin's agents (shared with the community area). */
  agents: AgentRegistry;
  /** Claim codes by code. */
  codes: Map<string, ClaimCode>;
  /** Claims by key. */
  claims: Map<string, Claim>;
  /** The clock (ms). */
  now: () => number;
  /** Sets where the claim of `key` stands. */
  decide(key: string, status: Agent["status"]): void;
  /** Approves the claim of `key` once `polls` status polls have been answered pending. */
  approveAfter(key: string, polls: number): void;
  /** Bearer values `GET /earnings` takes besides agent keys (OAuth tokens). */
  oauthTokens: Set<string>;
  /** The figures answered (change them in a test). */
  quota: Record<string, unknown>;
  /** The earnings answered. */
  earnings: Record<string, unknown>;
  /** The operator's listings. */
  listings: Record<string, unknown>[];
}

/** The claim codes every test origin starts with. */
export const CLAIM_CODES = {
  valid: "svcc_valid0001",
  used: "svcc_used00001",
  expired: "svcc_expired01",
  locked: "svcc_locked001",
} as const;

const GIB = 2 ** 30;

function initialQuota(): Record<string, unknown> {
  return {
    storage: { usedBytes: Math.round(1.25 * GIB), limitBytes: 5 * GIB },
    egress: { usedBytes: 12_400_000_000, limitBytes: 50_000_000_000, periodStart: "2026-10-01T00:00:00.000Z" },
    credits: {
      balanceMicro: 3_250_000,
      grants: [{ kind: "monthly", amountMicro: 1_000_000, remainingMicro: 400_000, expiresAt: "2026-11-01T00:00:00Z" }],
      grantMicro: 400_000,
      spendableMicro: 3_650_000,
    },
  };
}

function initialEarnings(): Record<string, unknown> {
  return {
    operatorId: MAIN_OPERATOR,
    balanceMicro: 15_950_000,
    payableMicro: 12_500_000,
    thresholdMicro: 10_000_000,
    neededMicro: 0,
    onHoldMicro: 3_200_000,
    onHold: [
      { micro: 1_200_000, payableFrom: "2026-10-12T09:30:00.000Z" },
      { micro: 2_000_000, payableFrom: "2026-10-14T17:05:00.000Z" },
    ],
    disputedMicro: 250_000,
    addressHoldUntil: null,
    paidMicro: 40_125_000,
    nextPayout: "due",
  };
}

function initialListings(): Record<string, unknown>[] {
  return [
    {
      id: "3f1c2a9e-7b4d-4e21-9a0c-5d8e6f7a1b2c",
      groupId: "9d2e4b1a-0c3f-4a5e-8b7d-1e2f3a4b5c6d",
      status: "published",
      agent: "test-agent",
      yours: true,
      price: "$0.25",
      sales: 14,
      versions: 2,
      pending: { version: 3, id: "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d", status: "screening" },
      rejection: null,
    },
    {
      id: "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b",
      groupId: "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b",
      status: "published",
      agent: "field-agent",
      yours: false,
      price: "free",
      sales: 0,
      versions: 1,
      pending: null,
      rejection: { version: 2, reason: "source declaration does not say where the figures come from" },
    },
    { slug: "north-sea-tides", status: "open", access: "paid", visibility: "public", price: "$1.50" },
    { slug: "harbour-notes", status: "archived", access: "public", visibility: "public", price: null },
  ];
}

/** Makes the account area of one test origin. */
export const accountArea: AreaFactory = (context) => {
  const agents = agentsOf(context);
  const codes = new Map<string, ClaimCode>([
    [CLAIM_CODES.valid, { name: "tide-reader", operator: "op-claims", state: "valid" }],
    [CLAIM_CODES.used, { name: "used-agent", operator: "op-claims", state: "used" }],
    [CLAIM_CODES.expired, { name: "late-agent", operator: "op-claims", state: "expired" }],
    [CLAIM_CODES.locked, { name: "locked-agent", operator: "op-claims", state: "locked" }],
  ]);
  const claims = new Map<string, Claim>();
  const controls: AccountControls = {
    agents,
    codes,
    claims,
    now: () => Date.now(),
    decide(key, status) {
      const claim = claims.get(key);
      if (!claim) throw new Error(`no claim for ${key}`);
      claim.agent.status = status;
    },
    approveAfter(key, polls) {
      claims.get(key)!.approveAfter = polls;
    },
    oauthTokens: new Set(["oauth-token"]),
    quota: initialQuota(),
    earnings: initialEarnings(),
    listings: initialListings(),
  };

  async function claim(req: Request): Promise<Response> {
    const body = await jsonBody(req);
    if (!body || typeof body.code !== "string") return context.json(400, { error: "code is required" });
    const code = codes.get(body.code);
    if (!code) return context.json(400, { error: "unknown claim code", code: "bad_code" });
    if (code.state === "used") return context.json(409, { error: "this claim code was already used" });
    if (code.state === "expired") return context.json(410, { error: "this claim code has expired" });
    if (code.state === "locked") {
      return context.json(423, { error: "this claim code is locked after too many attempts" });
    }
    const name = body.name ?? code.name;
    if (typeof name !== "string" || !/^[A-Za-z0-9._-]{1,60}$/.test(name)) {
      return context.json(400, { error: "name: letters, digits and ._- only, at most 60 characters" });
    }
    if (body.description !== undefined && (typeof body.description !== "string" || body.description.length > 280)) {
      return context.json(400, { error: "description: at most 280 characters" });
    }
    const taken = [...agents.byKey.values()].some((a) => a.name === name && a.status !== "replaced");
    if (taken && !code.newKey) return context.json(409, { error: `the agent name ${name} is taken` });
    code.state = "used";
    const key = `km_${randomBytes(24).toString("hex")}`;
    const agent = agents.add({ key, name, operator: code.operator, status: "pending" });
    const expiresAt = new Date(controls.now() + 24 * 3600_000).toISOString();
    const approveUrl = `${context.origin}/console/agents/approve/${key.slice(3, 15)}`;
    claims.set(key, { agent, approveUrl, expiresAt, polls: 0, approveAfter: null });
    return context.json(201, {
      status: "pending",
      apiKey: key,
      confirmPhrase: "amber-harbour-42",
      name,
      operator: code.operator,
      expiresAt,
      statusUrl: `${context.origin}/agents/claim/status`,
      approveUrl,
      next: `ask ${code.operator} to approve the key at ${approveUrl}; it works once approved`,
      ...(code.newKey ? { kind: "new-key" } : {}),
    });
  }

  const NEXT: Record<string, string> = {
    pending: "waiting for the operator's approval; ask again in a minute",
    approved: "the key works now: use it as SVC_API_KEY",
    rejected: "the operator refused this key; ask for a new claim code",
    expired: "the claim was not approved in time; ask for a new claim code",
    replaced: "a newer key replaced this one",
  };

  function claimStatus(req: Request): Response {
    const key = context.bearer(req);
    const claim = key === null ? undefined : claims.get(key);
    const agent = claim?.agent ?? (key === null ? undefined : agents.byKey.get(key));
    if (!agent) return context.json(401, { error: "unknown key" });
    if (claim) {
      claim.polls++;
      if (agent.status === "pending" && claim.approveAfter !== null && claim.polls > claim.approveAfter) {
        agent.status = "approved";
      }
    }
    return context.json(200, {
      status: agent.status,
      name: agent.name,
      operator: agent.operator,
      expiresAt: claim?.expiresAt ?? null,
      next: NEXT[agent.status],
    });
  }

  function listings(req: Request, url: URL): Response {
    const caller = agents.caller(req);
    if (!caller) return keyRequired(context);
    const page = intParam(url, "page", 1, 1, 10_000);
    const per = intParam(url, "per", 20, 1, 50);
    if (page === null || per === null) return context.json(400, { error: "page from 1, per 1-50" });
    const kind = url.searchParams.get("kind");
    if (kind !== null && kind !== "unit" && kind !== "dataset") {
      return context.json(400, { error: "kind is unit or dataset" });
    }
    const words = (url.searchParams.get("q") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const rows = controls.listings.filter((row) => {
      if (kind && (kind === "dataset") !== ("slug" in row)) return false;
      const text = JSON.stringify(row).toLowerCase();
      return words.every((w) => text.includes(w));
    });
    const units = rows.filter((r) => !("slug" in r)).length;
    const { rows: listings, ...totals } = pageOf(rows, page, per);
    return context.json(200, { ...totals, units, datasets: rows.length - units, listings });
  }

  return {
    controls,
    async handle(req, url) {
      const path = url.pathname;
      if (req.method === "POST" && path === "/agents/claim") return await claim(req);
      if (req.method === "GET" && path === "/agents/claim/status") return claimStatus(req);
      if (req.method === "POST" && path === "/agents") {
        return context.json(410, {
          error: "POST /agents is gone: agents register with a one-time claim code (POST /agents/claim)",
          code: "gone",
        });
      }
      if (req.method === "GET" && path === "/quota") {
        return agents.caller(req) ? context.json(200, controls.quota) : keyRequired(context);
      }
      if (req.method === "GET" && path === "/earnings") {
        const bearer = context.bearer(req);
        const ok = agents.caller(req) || (bearer !== null && controls.oauthTokens.has(bearer));
        return ok ? context.json(200, controls.earnings) : keyRequired(context);
      }
      if (req.method === "GET" && path === "/listings") return listings(req, url);
      return null;
    },
  };
};
