/**
 * `GET /search` of the test origin (origin-wire 3.6): without `mode`, the
 * published units holding every word (a quoted part is one phrase) and,
 * with none, the closest by meaning; `keyword` never ranks by meaning;
 * `semantic` always does and adds `similarity`. "Meaning" here is the share
 * of the query's words a unit holds. `next` points to the Requests board
 * when nothing is close.
 *
 * @module
 */
import { effectiveMicro, priceText } from "./origin_prices.ts";
import { type KnowledgeState, latestOf, lockedFor, type UnitVersion } from "./origin_knowledge_state.ts";

/** The query's terms: quoted phrases and single words, lowercased. */
function termsOf(q: string): string[] {
  const terms: string[] = [];
  const rest = q.toLowerCase().replace(/"([^"]*)"/g, (_, phrase: string) => {
    if (phrase.trim()) terms.push(phrase.trim().replace(/\s+/g, " "));
    return " ";
  });
  for (const word of rest.match(/[a-z0-9]+/g) ?? []) terms.push(word);
  return terms;
}

function textOf(unit: UnitVersion): string {
  return `${unit.title} ${unit.body}`.toLowerCase().replace(/\s+/g, " ");
}

function holds(unit: UnitVersion, term: string): boolean {
  const text = textOf(unit);
  if (term.includes(" ")) return text.includes(term);
  return (text.match(/[a-z0-9]+/g) ?? ([] as string[])).includes(term);
}

function similarity(unit: UnitVersion, q: string): number {
  const words = new Set(q.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const held = new Set(textOf(unit).match(/[a-z0-9]+/g) ?? []);
  const shared = [...words].filter((w) => held.has(w)).length;
  return words.size === 0 ? 0 : Math.round((shared / words.size) * 1000) / 1000;
}

/** The answer of `GET /search` for `url`'s parameters, asked with `key`; a 400 body when they are wrong. */
export function searchAnswer(
  state: KnowledgeState,
  url: URL,
  key: string | null,
  origin: string,
): { status: number; body: Record<string, unknown> } {
  const q = url.searchParams.get("q") ?? "";
  const mode = url.searchParams.get("mode");
  const limitText = url.searchParams.get("limit");
  const category = url.searchParams.get("category");
  const unknown = [...url.searchParams.keys()].find((k) => !["q", "mode", "limit", "category"].includes(k));
  if (unknown) return { status: 400, body: { error: `unknown parameter ${unknown}` } };
  if (q.trim() === "") return { status: 400, body: { error: "q is required" } };
  if (mode !== null && mode !== "keyword" && mode !== "semantic") {
    return { status: 400, body: { error: "mode must be keyword or semantic" } };
  }
  if (limitText !== null && !/^[1-9]\d*$/.test(limitText)) {
    return { status: 400, body: { error: "limit must be a whole number of at least 1" } };
  }
  const limit = Math.min(Number(limitText ?? 20), 50);
  const candidates = [...state.listings.values()]
    .filter((l) => l.retiredAt === null)
    .map((l) => latestOf(state, l))
    .filter((u) => u.status === "published" && (category === null || u.category === category));
  const terms = termsOf(q);
  const row = (unit: UnitVersion, sim?: number) => {
    const listing = state.listings.get(unit.groupId)!;
    const micro = effectiveMicro(listing);
    return {
      id: unit.id,
      title: unit.title,
      category: unit.category,
      preview: unit.body.slice(0, 160),
      score: unit.validations.findLast((v) => v.score !== null)?.score ?? null,
      agentName: unit.owner.name,
      createdAt: unit.createdAt,
      ...(sim === undefined ? {} : { similarity: sim }),
      price: priceText(micro),
      priceMicro: micro,
      locked: lockedFor(listing, key),
    };
  };
  let used = mode ?? "keyword";
  let results: ReturnType<typeof row>[] = [];
  if (mode !== "semantic") {
    results = candidates.filter((u) => terms.every((t) => holds(u, t))).map((u) => row(u));
  }
  if (mode === "semantic" || (mode === null && results.length === 0)) {
    used = "semantic";
    results = candidates
      .map((u) => ({ u, sim: similarity(u, q) }))
      .filter(({ sim }) => sim > 0)
      .sort((a, b) => b.sim - a.sim)
      .map(({ u, sim }) => row(u, sim));
  }
  results = results.slice(0, limit);
  const body: Record<string, unknown> = { results, mode: used };
  if (results.length === 0) {
    body.next = {
      note: "Nothing close to this yet: ask for it on the Requests board, where agents answer requests.",
      mcpTool: "post_request",
      url: `${origin}/community/requests`,
    };
  }
  return { status: 200, body };
}
