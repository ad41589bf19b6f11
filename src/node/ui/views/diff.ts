/**
 * What versions `(from, to]` of a project added (`/p/{slug}/diff?from=&to=`),
 * as the node's diff answers it (`GET /projects/{slug}/diff`): the
 * contributions merged, who sent them and when, and their records, with the
 * ways to the neighbouring versions' changes and a form comparing any two.
 * Versions only grow (every version is the one before plus what was merged
 * into it), so the diff is what was added.
 *
 * @module
 */
import type { ProjectDetail } from "../../../wire/mod.ts";
import { h, type VNode } from "./html.ts";
import {
  type Api,
  ApiError,
  cell,
  errorBox,
  fieldOf,
  intParam,
  pageColumns,
  projectPath,
  records,
  tabs,
} from "./common.ts";
import { count } from "./format.ts";
import { diffHref, tabHref } from "./state.ts";
import type { Drawn } from "./data.ts";

/** One contribution of a diff. */
interface Fragment {
  version: number;
  contributionId: string | null;
  agent: string | null;
  accepted: number;
  mergedAt: string | null;
}

/** `GET /projects/{slug}/diff`. */
interface DiffAnswer {
  project: string;
  from: number;
  to: number;
  addedContributions: number;
  addedRecords: number;
  fragments: Fragment[];
  records: Record<string, unknown>[];
}

/** Records shown unless the address asks for more, and the most it may (the API's). */
const SHOWN = 100;
const MOST = 500;

function fragmentsTable(fragments: Fragment[]): VNode {
  const rows = fragments.map((f) =>
    h("tr", {}, [
      h("td", { class: "num", text: "v" + f.version }),
      h("td", { class: "mono", text: f.contributionId ?? "unknown" }),
      h("td", { text: f.agent ?? "unknown" }),
      h("td", { class: "num", text: count(f.accepted) }),
      h("td", { text: f.mergedAt ?? "unknown" }),
    ])
  );
  const head = ["Merged in", "Contribution", "Sent by", "Records", "Merged at"];
  return h("div", { class: "table-wrap" }, [
    h("table", { id: "fragments" }, [
      h("thead", {}, [h("tr", {}, head.map((c) => h("th", { text: c })))]),
      h("tbody", {}, rows),
    ]),
  ]);
}

function recordsTable(p: ProjectDetail, answer: DiffAnswer): VNode {
  const { names, types } = pageColumns(p, answer);
  const head = h(
    "tr",
    {},
    names.map((c, i) => h("th", { scope: "col" }, [c, h("span", { class: "type", text: types[i] })])),
  );
  const body = answer.records.map((r) => h("tr", {}, names.map((c, i) => cell(fieldOf(r, c), types[i]))));
  return h("div", { class: "table-wrap" }, [
    h("table", { id: "diff-records", class: "records" }, [h("thead", {}, [head]), h("tbody", {}, body)]),
  ]);
}

/** Links to the changes of the versions held before `from` and after `to`. */
function neighbours(p: ProjectDetail, from: number, to: number): VNode {
  const held = [...p.localVersions].sort((a, b) => a - b);
  const before = held.filter((v) => v < from);
  const after = held.find((v) => v > to);
  const earlier = from > 0 ? diffHref(p.slug, before.length ? before[before.length - 1] : 0, from) : null;
  return h("p", { class: "links", id: "diff-links" }, [
    earlier ? h("a", { href: earlier, id: "diff-earlier", text: "← What v" + from + " added" }) : null,
    after !== undefined
      ? h("a", { href: diffHref(p.slug, to, after), id: "diff-later", text: "What v" + after + " added →" })
      : null,
    h("a", { href: tabHref(p.slug, "", to), id: "to-version", text: "v" + to + "'s page" }),
  ]);
}

function compareForm(p: ProjectDetail, from: number, to: number): VNode {
  const held = [...p.localVersions].sort((a, b) => a - b);
  const choice = (name: string, values: number[], chosen: number) =>
    h(
      "select",
      { name, id: "compare-" + name },
      values.map((v) => h("option", { value: String(v), selected: v === chosen, text: v === 0 ? "nothing" : "v" + v })),
    );
  return h("form", { method: "get", action: "/p/" + p.slug + "/diff", id: "compare", class: "row" }, [
    h("label", {}, ["From ", choice("from", [0, ...held.filter((v) => v < held[held.length - 1])], from)]),
    h("label", {}, [" to ", choice("to", held, to)]),
    h("button", { type: "submit", class: "quiet", id: "compare-go", text: "Compare" }),
  ]);
}

function summary(answer: DiffAnswer, shown: number): string {
  const { from, to } = answer;
  const what = from === 0
    ? "v" + to + " holds"
    : from + 1 === to
    ? "v" + to + " added"
    : "v" + (from + 1) + " to v" + to + " added";
  const contributions = count(answer.addedContributions) +
    (answer.addedContributions === 1 ? " contribution" : " contributions");
  const listed = shown < answer.addedRecords ? " (the first " + count(shown) + " below)" : "";
  return what + " " + records(answer.addedRecords) + listed + ", from " + contributions + ".";
}

/** `/p/{slug}/diff?from=&to=[&limit=]`: what versions `(from, to]` added (newest and the one held before it by default). */
export async function diffView(api: Api, slug: string, params: URLSearchParams): Promise<Drawn> {
  const p = await api<ProjectDetail>(projectPath(slug));
  const held = [...p.localVersions].sort((a, b) => a - b);
  const to = intParam(params, "to", held[held.length - 1] ?? 1, 1, Number.MAX_SAFE_INTEGER);
  const from = intParam(params, "from", held.filter((v) => v < to).pop() ?? 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = intParam(params, "limit", SHOWN, 0, MOST);
  const title = p.title + " · changes v" + from + " → v" + to;
  const head = [
    h("h1", {}, [
      h("a", { href: "/p/" + slug, text: p.title }),
      " · changes from " + (from === 0 ? "nothing" : "v" + from) + " to v" + to,
    ]),
    tabs(slug, to, "diff"),
    compareForm(p, from, to),
  ];
  let answer: DiffAnswer;
  try {
    answer = await api<DiffAnswer>(
      projectPath(slug, "/diff?" + new URLSearchParams({ from: String(from), to: String(to), limit: String(limit) })),
    );
  } catch (e) {
    // A range the node cannot tell (no provenance: 409) or may not answer (400) is said on the page, with the ways on.
    if (!(e instanceof ApiError) || (e.status !== 409 && e.status !== 400)) throw e;
    return { title, body: [...head, errorBox(e), neighbours(p, from, to)] };
  }
  const more = answer.records.length < answer.addedRecords && limit < MOST
    ? h("a", {
      href: "/p/" + slug + "/diff?" + new URLSearchParams({ from: String(from), to: String(to), limit: String(MOST) }),
      id: "diff-more",
      text: "Show up to " + MOST,
    })
    : null;
  return {
    title,
    body: [
      ...head,
      h("p", { id: "diff-summary" }, [summary(answer, answer.records.length), " ", more]),
      neighbours(p, from, to),
      h("h2", { text: "Contributions" }),
      answer.fragments.length ? fragmentsTable(answer.fragments) : h("p", { class: "muted", text: "None." }),
      h("h2", { text: "Records added" }),
      answer.records.length
        ? recordsTable(p, answer)
        : h("p", { class: "muted", text: limit === 0 ? "Not asked for." : "None." }),
    ],
  };
}
