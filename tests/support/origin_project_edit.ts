/**
 * A dataset's edit on the test origin (origin-wire 2.5): `PATCH
 * /projects/{slug}` by an agent key of the maintaining operator, with the
 * server's rules (title 4-140, readme 20-20,000, at most 8 tags, status
 * open, paused or archived, and archived for good), schema, access and
 * visibility refused, and a paid dataset's price changed at most once a day
 * by the area's clock. The datasets it edits are the ones a test adds.
 *
 * @module
 */
import type { AreaContext, AreaFactory } from "./origin_areas.ts";
import { changePrice, type ListingPrice } from "./origin_prices.ts";

/** A dataset as the edit sees it. */
export interface EditableDataset extends ListingPrice {
  slug: string;
  title: string;
  readme: string;
  tags: string[];
  status: "open" | "paused" | "archived";
  access: "public" | "paid";
  visibility: "public" | "private";
  /** The agent keys of its maintaining operator. */
  maintainers: Set<string>;
}

/** What tests drive and read of the edit area (`origin.app!.areas.projectEdit.controls`). */
export interface ProjectEditControls {
  /** The datasets, by slug. */
  datasets: Map<string, EditableDataset>;
  /** The bodies of the PATCH requests, parsed, in order. */
  received: { slug: string; key: string | null; body: unknown }[];
  /** The area's clock (milliseconds), for the one-price-change-a-day rule. */
  now: number;
  /** Adds a dataset maintained by `maintainers`. */
  add(slug: string, maintainers: string[], fields?: Partial<Omit<EditableDataset, "slug" | "maintainers">>): void;
}

const FIXED = ["schemaDef", "schema", "access", "visibility", "license", "slug"];
const EDITABLE = ["title", "readme", "tags", "status", "price", "trialSale"];

function problem(body: Record<string, unknown>): string | null {
  const fixed = Object.keys(body).find((k) => FIXED.includes(k));
  if (fixed) return `${fixed} is fixed at creation: schema, access and visibility cannot change`;
  const extra = Object.keys(body).find((k) => !EDITABLE.includes(k));
  if (extra) return `unknown field ${extra}`;
  if (Object.keys(body).length === 0) return "nothing to change";
  const { title, readme, tags, status } = body;
  if (title !== undefined && (typeof title !== "string" || title.length < 4 || title.length > 140)) {
    return "title must be 4-140 characters";
  }
  if (readme !== undefined && (typeof readme !== "string" || readme.length < 20 || readme.length > 20_000)) {
    return "readme must be 20-20000 characters";
  }
  if (
    tags !== undefined &&
    !(Array.isArray(tags) && tags.length <= 8 &&
      tags.every((t) => typeof t === "string" && /^[a-z0-9-]{2,30}$/.test(t)))
  ) {
    return "tags must be at most 8, each 2-30 of a-z, 0-9 and -";
  }
  if (status !== undefined && !["open", "paused", "archived"].includes(status as string)) {
    return "status must be open, paused or archived";
  }
  return null;
}

/** The edit area, for `AREAS` (origin_areas.ts). */
export const projectEditArea: AreaFactory = (context: AreaContext) => {
  const controls: ProjectEditControls = {
    datasets: new Map(),
    received: [],
    now: Date.parse("2026-10-08T12:00:00Z"),
    add(slug, maintainers, fields = {}) {
      controls.datasets.set(slug, {
        slug,
        title: "A dataset",
        readme: "What this dataset holds, in a few words.",
        tags: [],
        status: "open",
        access: "public",
        visibility: "public",
        priceMicro: null,
        trialSale: false,
        priceChangedAt: null,
        ...fields,
        maintainers: new Set(maintainers),
      });
    },
  };
  const json = context.json;

  async function handle(req: Request, url: URL): Promise<Response | null> {
    const match = /^\/projects\/([^/]+)$/.exec(url.pathname);
    if (req.method !== "PATCH" || !match) return null;
    const slug = decodeURIComponent(match[1]);
    const raw = await req.text();
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    const sent = context.bearer(req);
    controls.received.push({ slug, key: sent, body });
    if (sent === null || !context.agentKeys.has(sent)) return json(401, { error: "an agent key is required" });
    if (!/^application\/json\b/.test(req.headers.get("content-type") ?? "")) {
      return json(415, { error: "send JSON (content-type: application/json)" });
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      return json(400, { error: "body must be a JSON object" });
    }
    const dataset = controls.datasets.get(slug);
    if (!dataset) return json(404, { error: "project not found" });
    if (!dataset.maintainers.has(sent)) {
      return json(403, { error: "only agents of the maintaining operator can edit this project" });
    }
    const fields = body as Record<string, unknown>;
    const refused = problem(fields);
    if (refused) return json(400, { error: refused });
    if (dataset.status === "archived") return json(409, { error: "project is archived: it is read-only for good" });
    const priced = fields.price !== undefined || fields.trialSale !== undefined;
    if (priced && dataset.access !== "paid") return json(400, { error: "only a paid dataset has a price" });
    let state: Record<string, unknown> = {};
    if (priced) {
      const change: Record<string, unknown> = {};
      if (fields.price !== undefined) change.price = fields.price;
      if (fields.trialSale !== undefined) change.trialSale = fields.trialSale;
      const { status, body: answer } = changePrice(dataset, change, controls.now);
      if (status !== 200) return json(status, answer);
      state = answer;
    }
    for (const key of ["title", "readme", "tags", "status"] as const) {
      if (fields[key] !== undefined) Object.assign(dataset, { [key]: fields[key] });
    }
    const { title, status, access, visibility, readme, tags } = dataset;
    return json(200, { slug, title, status, access, visibility, readme, tags, ...state });
  }

  return { handle, controls };
};
