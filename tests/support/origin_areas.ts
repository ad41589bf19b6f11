/**
 * The test origin's route areas beyond datasets (knowledge units, account,
 * community): each area is a factory that makes its own state for one
 * origin and answers the requests it owns (or null to let the next area, and
 * then the dataset routes, answer). Areas are listed in {@linkcode AREAS};
 * a test reaches an area's controls through `origin.app!.areas[name]`.
 *
 * @module
 */
import { knowledgeArea } from "./origin_knowledge.ts";
import { projectEditArea } from "./origin_project_edit.ts";
import { accountArea } from "./origin_account.ts";
import { communityArea } from "./origin_community.ts";
import { paymentsArea } from "./origin_payments.ts";

/** What an area sees of the origin around it. */
export interface AreaContext {
  /** The origin's base URL. */
  origin: string;
  /** The origin's store. */
  store: string;
  /** The agent keys the origin takes. */
  agentKeys: ReadonlySet<string>;
  /** The bearer the request carried (any value), or null. */
  bearer(req: Request): string | null;
  /** A JSON answer. */
  json(status: number, body: unknown, headers?: Record<string, string>): Response;
}

/** One area of one origin: its handler, and controls for tests. */
export interface Area {
  /** Answers a request the area owns, else null. */
  handle(req: Request, url: URL): Promise<Response | null>;
  /** Test controls (state, clocks, faults), typed by the area's own module. */
  controls: unknown;
}

/** Makes an area for one origin. */
export type AreaFactory = (context: AreaContext) => Area;

/** Every area, by name, in the order they are asked. */
export const AREAS: Record<string, AreaFactory> = {
  knowledge: knowledgeArea,
  projectEdit: projectEditArea,
  account: accountArea,
  community: communityArea,
  payments: paymentsArea,
};
