/**
 * The test origin's agents, shared by its account and community areas: each
 * agent key belongs to a named agent of an operator, and a claimed key works
 * once its operator approves it. The keys the origin was started with
 * (`agentKeys`) are approved agents of operator `op-main`; tests add others
 * (another operator, to answer a request) and record purchases (reviews need
 * one). One registry per origin (per {@linkcode AreaContext}).
 *
 * @module
 */
import type { AreaContext } from "./origin_areas.ts";

/** An agent the origin knows. */
export interface Agent {
  /** Its key. */
  key: string;
  /** Its name. */
  name: string;
  /** Its operator. */
  operator: string;
  /** Where its claim stands (`approved` for working keys). */
  status: "pending" | "approved" | "rejected" | "expired" | "replaced";
}

/** The agents of one origin, and what their operators bought. */
export interface AgentRegistry {
  /** Every agent by key. */
  byKey: Map<string, Agent>;
  /** Adds (or replaces) an agent; approved unless said. */
  add(agent: Omit<Agent, "status"> & { status?: Agent["status"] }): Agent;
  /** The approved agent whose key `req` carries, or null. */
  caller(req: Request): Agent | null;
  /** Records that `operator` bought `item` (`unit:<id>` or `dataset:<slug>`). */
  buy(operator: string, item: string): void;
  /** Whether `operator` bought `item`. */
  bought(operator: string, item: string): boolean;
}

/** The operator of the keys the origin starts with. */
export const MAIN_OPERATOR = "op-main";
/** The agent name of the first of those keys. */
export const MAIN_AGENT = "test-agent";

const registries = new WeakMap<AreaContext, AgentRegistry>();

/** The registry of the origin `context` belongs to (made on first use). */
export function agentsOf(context: AreaContext): AgentRegistry {
  const known = registries.get(context);
  if (known) return known;
  const byKey = new Map<string, Agent>();
  const purchases = new Set<string>();
  [...context.agentKeys].forEach((key, i) => {
    byKey.set(key, {
      key,
      name: i === 0 ? MAIN_AGENT : `test-agent-${i + 1}`,
      operator: MAIN_OPERATOR,
      status: "approved",
    });
  });
  const registry: AgentRegistry = {
    byKey,
    add(agent) {
      const full: Agent = { status: "approved", ...agent };
      byKey.set(agent.key, full);
      return full;
    },
    caller(req) {
      const key = context.bearer(req);
      const agent = key === null ? undefined : byKey.get(key);
      return agent?.status === "approved" ? agent : null;
    },
    buy: (operator, item) => void purchases.add(`${operator}\n${item}`),
    bought: (operator, item) => purchases.has(`${operator}\n${item}`),
  };
  registries.set(context, registry);
  return registry;
}

/** The 401 of a call that needs an approved agent key. */
export function keyRequired(context: AreaContext): Response {
  return context.json(401, { error: "an agent key is required", code: "unauthorized" });
}

/** The JSON body of `req`, or null when it is not a JSON object. */
export async function jsonBody(req: Request): Promise<Record<string, unknown> | null> {
  try {
    const body = JSON.parse(await req.text());
    return body && typeof body === "object" && !Array.isArray(body) ? body : null;
  } catch {
    return null;
  }
}

/** Whether `value` is a string of `min` to `max` characters. */
export function textOf(value: unknown, min: number, max: number): value is string {
  return typeof value === "string" && [...value.trim()].length >= min && [...value].length <= max;
}

/** The page `page` (from 1) of `rows`, `per` a page, with the totals the origin's lists carry. */
export function pageOf<T>(
  rows: T[],
  page: number,
  per: number,
): { total: number; page: number; per: number; pages: number; rows: T[] } {
  const pages = Math.max(1, Math.ceil(rows.length / per));
  return { total: rows.length, page, per, pages, rows: rows.slice((page - 1) * per, page * per) };
}

/** A whole number query parameter within `min`..`max` (`fallback` when absent), or null when it is not one. */
export function intParam(url: URL, name: string, fallback: number, min: number, max: number): number | null {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  return /^\d+$/.test(raw) && n >= min && n <= max ? n : null;
}
