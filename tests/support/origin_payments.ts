/**
 * The test origin's payments area (origin-wire 2.6, 3.10, 5.7, 5.8): the
 * credits view (`GET /credits`), units bought with credits
 * (`POST /knowledge/{id}/buy`), dataset versions bought with credits
 * (`POST /projects/{slug}/buy`), and the 402 a paid dataset's manifest or
 * data page answers until its version is bought. All need an agent key.
 * Given credits go first, and only on trial-sale units; the paid balance
 * covers the rest; short of it, 402 with a top-up URL.
 *
 * @module
 */
import type { AreaContext, AreaFactory } from "./origin_areas.ts";

/** A unit sold for credits. */
export interface CreditUnit {
  /** The listing's group. */
  groupId: string;
  /** The seller's price, or null for none (409). */
  priceMicro: number | null;
  /** A trial-sale listing (given credits may pay it). */
  trial?: boolean;
  /** The buyer's own unit (409). */
  own?: boolean;
}

/** The area's test controls. */
export interface PaymentsControls {
  /** The operator's figures. */
  account: {
    operatorId: string;
    balanceMicro: number;
    grants: { kind: "welcome" | "monthly"; amountMicro: number; remainingMicro: number; expiresAt: string }[];
    ledger: { createdAt: string; kind: string; amountMicro: number; grantMicro: number }[];
  };
  /** Units for sale, by id. */
  units: Map<string, CreditUnit>;
  /** Paid datasets: price and newest version, by slug. */
  paidProjects: Map<string, { priceMicro: number; latest: number }>;
  /** Dataset versions bought (`slug@N`) and unit groups owned. */
  owned: Set<string>;
  /** Where the pay service is (for top-up and pay URLs). */
  payUrl: string;
  /** Keys that read paid datasets without buying (the pay service's own, to sell them). */
  sellerKeys: Set<string>;
}

const PRICES = { egressMicroPerGb: 50_000, storageMicroPerGibMonth: 20_000, packMicro: 1_000_000 };

function dollars(micro: number): string {
  return `$${(micro / 1e6).toFixed(2)}`;
}

/** The payments area of one test origin. */
export const paymentsArea: AreaFactory = (context: AreaContext) => {
  const controls: PaymentsControls = {
    account: {
      operatorId: "op_test",
      balanceMicro: 2_000_000,
      grants: [{
        kind: "welcome",
        amountMicro: 10_000_000,
        remainingMicro: 500_000,
        expiresAt: "2027-02-01T00:00:00Z",
      }],
      ledger: [{ createdAt: "2026-11-01T00:00:00Z", kind: "welcome", amountMicro: 10_000_000, grantMicro: 10_000_000 }],
    },
    units: new Map(),
    paidProjects: new Map(),
    owned: new Set(),
    payUrl: context.origin,
    sellerKeys: new Set(),
  };
  const a = controls.account;
  const grantMicro = () => a.grants.reduce((n, g) => n + g.remainingMicro, 0);
  const topup = () => `${controls.payUrl}/paid/credits?operator=${a.operatorId}`;
  const spendGrants = (micro: number) => {
    let left = micro;
    for (const g of a.grants) {
      const take = Math.min(g.remainingMicro, left);
      g.remainingMicro -= take;
      left -= take;
    }
  };
  const record = (kind: string, amountMicro: number, grant: number) =>
    a.ledger.unshift({ createdAt: new Date().toISOString(), kind, amountMicro, grantMicro: grant });
  const short = (priceMicro: number, balanceMicro: number) =>
    context.json(402, { error: "not enough credits: top up", priceMicro, balanceMicro, topup: topup() });

  function buyUnit(id: string): Response {
    const unit = controls.units.get(id);
    if (!unit) return context.json(404, { error: `unit ${id} not found` });
    if (unit.priceMicro === null) return context.json(409, { error: "this unit has no seller price" });
    if (unit.own) return context.json(409, { error: "this is your own unit" });
    const base = { id, groupId: unit.groupId, balanceMicro: a.balanceMicro };
    if (controls.owned.has(unit.groupId)) {
      return context.json(200, {
        ...base,
        already: true,
        chargedMicro: 0,
        grantMicro: 0,
        paidMicro: 0,
        authorPoints: 0,
      });
    }
    const given = unit.trial ? Math.min(grantMicro(), unit.priceMicro) : 0;
    const paid = unit.priceMicro - given;
    if (paid > a.balanceMicro) return short(unit.priceMicro, a.balanceMicro);
    spendGrants(given);
    a.balanceMicro -= paid;
    controls.owned.add(unit.groupId);
    record("purchase", -unit.priceMicro, -given);
    return context.json(200, {
      ...base,
      already: false,
      chargedMicro: unit.priceMicro,
      grantMicro: given,
      paidMicro: paid,
      balanceMicro: a.balanceMicro,
      authorPoints: 10,
    });
  }

  async function buyDataset(req: Request, slug: string): Promise<Response> {
    const body = await req.json().catch(() => null) as { version?: unknown } | null;
    if (!body || typeof body !== "object") return context.json(400, { error: "body must be a JSON object" });
    const sale = controls.paidProjects.get(slug);
    if (!sale) return context.json(409, { error: `${slug} is not a paid dataset` });
    const version = body.version ?? sale.latest;
    if (!Number.isInteger(version) || (version as number) < 1 || (version as number) > sale.latest) {
      return context.json(404, { error: `${slug} has no version ${version}` });
    }
    const base = { project: slug, version };
    if (controls.owned.has(`${slug}@${version}`)) {
      return context.json(200, { ...base, already: true, chargedMicro: 0, balanceMicro: a.balanceMicro });
    }
    if (sale.priceMicro > a.balanceMicro) return short(sale.priceMicro, a.balanceMicro);
    a.balanceMicro -= sale.priceMicro;
    controls.owned.add(`${slug}@${version}`);
    record("purchase", -sale.priceMicro, 0);
    return context.json(200, { ...base, already: false, chargedMicro: sale.priceMicro, balanceMicro: a.balanceMicro });
  }

  /** The 402 of a paid dataset's content, until its version is bought. */
  function paywall(slug: string, url: URL): Response | null {
    const sale = controls.paidProjects.get(slug);
    if (!sale) return null;
    const version = url.searchParams.has("version") ? Number(url.searchParams.get("version")) : sale.latest;
    if (controls.owned.has(`${slug}@${version}`)) return null;
    return context.json(402, {
      error: `${slug} v${version} is a paid dataset: buy it first`,
      price: dollars(sale.priceMicro),
      pay: `${controls.payUrl}/paid/dataset?slug=${slug}&version=${version}`,
      credits: { buy: `POST /projects/${slug}/buy`, priceMicro: sale.priceMicro, note: "or svc pull --credits" },
    });
  }

  return {
    controls,
    handle(req, url) {
      const path = url.pathname;
      const unitBuy = path.match(/^\/knowledge\/([^/]+)\/buy$/);
      const datasetBuy = path.match(/^\/projects\/([^/]+)\/buy$/);
      const content = req.method === "GET" ? path.match(/^\/projects\/([^/]+)\/(manifest|data)$/) : null;
      const owns = (req.method === "GET" && path === "/credits") || (req.method === "POST" && (unitBuy || datasetBuy));
      if (!owns && !content) return Promise.resolve(null);
      const key = context.bearer(req);
      if (!key || !context.agentKeys.has(key)) {
        return Promise.resolve(content ? null : context.json(401, { error: "an agent key is required" }));
      }
      if (content) {
        return Promise.resolve(controls.sellerKeys.has(key) ? null : paywall(decodeURIComponent(content[1]), url));
      }
      if (unitBuy) return Promise.resolve(buyUnit(decodeURIComponent(unitBuy[1])));
      if (datasetBuy) return buyDataset(req, decodeURIComponent(datasetBuy[1]));
      return Promise.resolve(context.json(200, {
        operatorId: a.operatorId,
        balanceMicro: a.balanceMicro,
        grants: a.grants,
        grantMicro: grantMicro(),
        spendableMicro: a.balanceMicro + grantMicro(),
        prices: PRICES,
        topup: topup(),
        ledger: a.ledger.slice(0, 10),
      }));
    },
  };
};
