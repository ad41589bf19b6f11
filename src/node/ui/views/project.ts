/**
 * A project's page (`/p/{slug}[?version=N]`): its facts, README, schema,
 * versions with their signatures and what each added (a link to the diff
 * page, and a form comparing any two), and the parts of the version shown,
 * with tabs to its records, statistics and SQL box.
 *
 * @module
 */
import type { Manifest, ManifestPart, ProjectDetail } from "../../../wire/mod.ts";
import { h, type VNode } from "./html.ts";
import { type Api, errorBox, intParam, type NodeFacts, projectPath, tabs, versionRecords } from "./common.ts";
import { count } from "./format.ts";
import { readmeNodes } from "./readme.ts";
import { diffHref, tabHref } from "./state.ts";
import type { Drawn } from "./data.ts";

function signatureText(manifest: Record<string, unknown>): string {
  const s = manifest && manifest.signature as { origin?: unknown; kid?: unknown } | undefined;
  if (!s || typeof s !== "object") return "unsigned";
  return "signed by " + String(s.origin) + " (key " + String(s.kid) + ")";
}

function versionLinks(slug: string, n: number): VNode {
  const q = "?version=" + n;
  return h("div", { class: "links" }, [
    h("a", { href: tabHref(slug, "data", n), id: "browse", text: "Browse records" }),
    h("a", { href: tabHref(slug, "statistics", n), id: "stats-link", text: "Statistics" }),
    h("a", { href: tabHref(slug, "sql", n), id: "sql-link", text: "SQL" }),
    h("a", {
      href: projectPath(slug, "/export" + q),
      id: "export",
      download: "",
      text: "Export v" + n + " (JSON lines, gzip)",
    }),
    h("a", { href: projectPath(slug, "/manifest" + q), id: "manifest", text: "Manifest (JSON)" }),
  ]);
}

function partRow(part: ManifestPart): VNode {
  return h("tr", {}, [
    h("td", { class: "mono", text: String(part.sha256).slice(0, 16) + "…" }),
    h("td", { class: "num", text: count(part.records) }),
    h("td", { class: "num", text: count(part.bytes) }),
    h("td", {}, [part.url ? h("a", { href: part.url, class: "part", download: "", text: "Parquet" }) : "none"]),
  ]);
}

function parts(manifest: (Manifest & { urlExpiresAt?: string }) | Error): VNode {
  if (manifest instanceof Error) return h("div", { id: "parts" }, [errorBox(manifest)]);
  return h("div", { id: "parts" }, [
    h("div", { class: "table-wrap" }, [
      h("table", {}, [
        h("thead", {}, [h("tr", {}, ["Part", "Records", "Bytes", "Download"].map((c) => h("th", { text: c })))]),
        h("tbody", {}, (manifest.parts || []).map(partRow)),
      ]),
    ]),
    manifest.urlExpiresAt
      ? h("p", { class: "muted", text: "Part links expire at " + manifest.urlExpiresAt + "." })
      : null,
  ]);
}

function badges(p: ProjectDetail, node: NodeFacts): VNode {
  const follow = node.follow?.[p.slug];
  return h("p", {}, [
    h("span", { class: "badge mono", text: p.slug }),
    h("span", { class: "badge", text: p.status }),
    // Visibility is the origin's word: on a node, whoever may read the node reads its projects.
    p.local
      ? h("span", {
        class: "badge",
        title: p.visibility + " on the origin once promoted",
        text: "this node's own: readable by whoever reads this node",
      })
      : h("span", { class: "badge", text: p.visibility + " on the origin" }),
    follow ? h("span", { class: "badge", text: "followed: " + follow.from }) : null,
  ]);
}

function facts(p: ProjectDetail, n: number, node: NodeFacts): VNode {
  const follow = node.follow?.[p.slug];
  const rows: [string, string][] = [
    ["License", p.license],
    ["Tags", p.tags.length ? p.tags.join(", ") : "none"],
    ["Versions here", p.localVersions.length ? p.localVersions.join(", ") : "none"],
    ["Latest known", String(p.latestVersion)],
    ["Records (v" + n + ")", versionRecords(p, n) === null ? "unknown" : count(versionRecords(p, n))],
    ["Created", p.createdAt || "unknown"],
  ];
  if (follow) {
    const error = follow.error ? ", error: " + follow.error : "";
    rows.push(["Follow", "v" + follow.version + ", signature " + follow.signature + error]);
  }
  return h(
    "dl",
    { class: "facts", id: "facts" },
    rows.flatMap((f) => [h("dt", { text: f[0] }), h("dd", { text: f[1] })]),
  );
}

function schema(p: ProjectDetail): (VNode | null)[] {
  const fields = (p.schemaDef && p.schemaDef.fields) || [];
  if (fields.length === 0) {
    return [h("h2", { text: "Schema" }), h("p", { class: "muted", text: "No schema declared." })];
  }
  const rows = fields.map((f) =>
    h("tr", {}, [
      h("td", { class: "mono", text: f.name }),
      h("td", { text: f.type }),
      h("td", { text: f.required === false ? "no" : "yes" }),
    ])
  );
  return [
    h("h2", { text: "Schema" }),
    h("div", { class: "table-wrap" }, [
      h("table", { id: "schema" }, [
        h("thead", {}, [h("tr", {}, ["Column", "Type", "Required"].map((c) => h("th", { text: c })))]),
        h("tbody", {}, rows),
      ]),
    ]),
    h("p", { class: "muted", text: p.schemaDef?.allowExtra ? "Extra columns allowed." : "No extra columns." }),
  ];
}

/** The version held before `n` (0 when `n` is the first one held). */
function heldBefore(p: ProjectDetail, n: number): number {
  return p.localVersions.filter((v) => v < n).reduce((a, b) => Math.max(a, b), 0);
}

/** A form asking for what versions `(from, to]` added: two choices and a button. */
function compareForm(p: ProjectDetail): VNode | null {
  const held = [...p.localVersions].sort((a, b) => a - b);
  if (held.length === 0) return null;
  const newest = held[held.length - 1];
  const choice = (name: string, values: number[], chosen: number, label: (v: number) => string) =>
    h(
      "select",
      { name, id: "compare-" + name },
      values.map((v) => h("option", { value: String(v), selected: v === chosen, text: label(v) })),
    );
  return h("form", { method: "get", action: "/p/" + p.slug + "/diff", id: "compare", class: "row" }, [
    h("label", {}, [
      "What changed from ",
      choice("from", [0, ...held.slice(0, -1)], heldBefore(p, newest), (v) => v === 0 ? "nothing" : "v" + v),
    ]),
    h("label", {}, [" to ", choice("to", held, newest, (v) => "v" + v)]),
    h("button", { type: "submit", class: "quiet", id: "compare-go", text: "Compare" }),
  ]);
}

function versions(p: ProjectDetail): VNode[] {
  const slug = p.slug;
  const rows = p.versions.map((v) => {
    const held = p.localVersions.includes(v.version);
    const before = heldBefore(p, v.version);
    return h("tr", {}, [
      h("td", {}, [h("a", { href: tabHref(slug, "", v.version), text: "v" + v.version })]),
      h("td", { text: v.createdAt }),
      h("td", { class: "num", text: versionRecords(p, v.version) === null ? "" : count(versionRecords(p, v.version)) }),
      h("td", { class: "num", text: count(((v.manifest.parts as unknown[]) || []).length) }),
      h("td", { class: "signature", text: signatureText(v.manifest) }),
      h("td", {}, [
        held
          ? h("a", {
            href: diffHref(slug, before, v.version),
            class: "diff",
            text: before === 0 ? "what v" + v.version + " holds" : "changes since v" + before,
          })
          : null,
      ]),
      h("td", {}, [h("a", { href: projectPath(slug, "/export?version=" + v.version), download: "", text: "export" })]),
    ]);
  });
  const head = ["Version", "Created", "Records", "Parts", "Signature", "Changes", ""];
  return [
    h("h2", { text: "Versions" }),
    h("div", { class: "table-wrap" }, [
      h("table", { id: "versions" }, [
        h("thead", {}, [h("tr", {}, head.map((c) => h("th", { text: c })))]),
        h("tbody", {}, rows),
      ]),
    ]),
    compareForm(p) ?? h("p", { class: "muted", text: "No version here yet." }),
  ];
}

/** `/p/{slug}[?version=N]`: a project's page; `node` is what the node said of itself. */
export async function projectView(api: Api, slug: string, params: URLSearchParams, node: NodeFacts): Promise<Drawn> {
  const p = await api<ProjectDetail>(projectPath(slug));
  const n = intParam(params, "version", p.localVersions[0] || 0, 0, Number.MAX_SAFE_INTEGER);
  const manifest = n > 0
    ? await api<Manifest & { urlExpiresAt?: string }>(projectPath(slug, "/manifest?version=" + n)).catch((e) =>
      e as Error
    )
    : null;
  const readme = p.readme ? readmeNodes(p.readme) : [h("p", { class: "muted", text: "No README." })];
  return {
    title: p.title,
    body: [
      h("h1", { id: "title", text: p.title }),
      n > 0 ? tabs(slug, n, "project") : null,
      badges(p, node),
      facts(p, n, node),
      n > 0 ? versionLinks(slug, n) : null,
      h("h2", { text: "README" }),
      h("div", { class: "readme", id: "readme" }, readme),
      ...schema(p),
      ...versions(p),
      n > 0 ? h("h2", { text: "Parts of v" + n }) : null,
      manifest ? parts(manifest) : null,
    ],
  };
}
