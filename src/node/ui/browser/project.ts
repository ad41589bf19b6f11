/**
 * A project's page in the browser interface (`#/p/{slug}[?version=N]`): its
 * facts, README, schema, versions with their signatures, and the parts of
 * the version shown, with tabs to its records, statistics and SQL box.
 *
 * @module
 */
import type { Manifest, ManifestPart, ProjectDetail } from "../../../wire/mod.ts";
import { api, errorBox, h, intParam, projectPath, session, tabs } from "./dom.ts";
import { mdParse, mdRender } from "./markdown.ts";

function signatureText(manifest: Record<string, unknown>): string {
  const s = manifest && manifest.signature as { origin?: unknown; kid?: unknown } | undefined;
  if (!s || typeof s !== "object") return "unsigned";
  return "signed by " + String(s.origin) + " (key " + String(s.kid) + ")";
}

/**
 * How many records version `n` of `p` holds, or null when its manifest does not say.
 */
export function versionRecords(p: ProjectDetail, n: number): number | null {
  const v = p.versions.find((x) => x.version === n);
  const totals = v && v.manifest && v.manifest.totals as { records?: unknown } | undefined;
  return totals && typeof totals.records === "number" ? totals.records : null;
}

function versionLinks(slug: string, n: number): HTMLElement {
  const q = "?version=" + n;
  return h("div", { class: "links" }, [
    h("a", { href: "#/p/" + slug + "/data" + q, id: "browse", text: "Browse records" }),
    h("a", { href: "#/p/" + slug + "/statistics" + q, id: "stats-link", text: "Statistics" }),
    h("a", { href: "#/p/" + slug + "/sql" + q, id: "sql-link", text: "SQL" }),
    h("a", {
      href: projectPath(slug, "/export" + q),
      id: "export",
      download: "",
      text: "Export v" + n + " (JSON lines, gzip)",
    }),
    h("a", { href: projectPath(slug, "/manifest" + q), id: "manifest", text: "Manifest (JSON)" }),
  ]);
}

function partRow(part: ManifestPart): HTMLElement {
  return h("tr", {}, [
    h("td", { class: "mono", text: String(part.sha256).slice(0, 16) + "…" }),
    h("td", { class: "num", text: String(part.records) }),
    h("td", { class: "num", text: String(part.bytes) }),
    h("td", {}, [part.url ? h("a", { href: part.url, class: "part", download: "", text: "Parquet" }) : "none"]),
  ]);
}

async function partsOf(slug: string, n: number): Promise<HTMLElement> {
  const box = h("div", { id: "parts" });
  try {
    const m = await api<Manifest & { urlExpiresAt?: string }>(projectPath(slug, "/manifest?version=" + n));
    box.appendChild(h("div", { class: "table-wrap" }, [
      h("table", {}, [
        h("thead", {}, [h("tr", {}, ["Part", "Records", "Bytes", "Download"].map((c) => h("th", { text: c })))]),
        h("tbody", {}, (m.parts || []).map(partRow)),
      ]),
    ]));
    if (m.urlExpiresAt) {
      box.appendChild(h("p", { class: "muted", text: "Part links expire at " + m.urlExpiresAt + "." }));
    }
  } catch (e) {
    box.appendChild(errorBox(e));
  }
  return box;
}

function badges(p: ProjectDetail): HTMLElement {
  const follow = session.node.follow?.[p.slug];
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

function facts(p: ProjectDetail, n: number): HTMLElement {
  const follow = session.node.follow?.[p.slug];
  const rows: [string, string][] = [
    ["License", p.license],
    ["Tags", p.tags.length ? p.tags.join(", ") : "none"],
    ["Versions here", p.localVersions.length ? p.localVersions.join(", ") : "none"],
    ["Latest known", String(p.latestVersion)],
    ["Records (v" + n + ")", String(versionRecords(p, n) ?? "unknown")],
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

function schema(view: HTMLElement, p: ProjectDetail): void {
  view.appendChild(h("h2", { text: "Schema" }));
  const fields = (p.schemaDef && p.schemaDef.fields) || [];
  if (fields.length === 0) {
    view.appendChild(h("p", { class: "muted", text: "No schema declared." }));
    return;
  }
  view.appendChild(h("div", { class: "table-wrap" }, [
    h("table", { id: "schema" }, [
      h("thead", {}, [h("tr", {}, ["Column", "Type", "Required"].map((c) => h("th", { text: c })))]),
      h(
        "tbody",
        {},
        fields.map((f) =>
          h("tr", {}, [
            h("td", { class: "mono", text: f.name }),
            h("td", { text: f.type }),
            h("td", { text: f.required === false ? "no" : "yes" }),
          ])
        ),
      ),
    ]),
  ]));
  const extra = p.schemaDef?.allowExtra ? "Extra columns allowed." : "No extra columns.";
  view.appendChild(h("p", { class: "muted", text: extra }));
}

function versions(view: HTMLElement, p: ProjectDetail): void {
  const slug = p.slug;
  view.appendChild(h("h2", { text: "Versions" }));
  const rows = p.versions.map((v) =>
    h("tr", {}, [
      h("td", {}, [h("a", { href: "#/p/" + slug + "?version=" + v.version, text: "v" + v.version })]),
      h("td", { text: v.createdAt }),
      h("td", { class: "num", text: String(versionRecords(p, v.version) ?? "") }),
      h("td", { class: "num", text: String(((v.manifest.parts as unknown[]) || []).length) }),
      h("td", { class: "signature", text: signatureText(v.manifest) }),
      h("td", {}, [h("a", { href: projectPath(slug, "/export?version=" + v.version), download: "", text: "export" })]),
    ])
  );
  const head = ["Version", "Created", "Records", "Parts", "Signature", ""];
  view.appendChild(h("div", { class: "table-wrap" }, [
    h("table", { id: "versions" }, [
      h("thead", {}, [h("tr", {}, head.map((c) => h("th", { text: c })))]),
      h("tbody", {}, rows),
    ]),
  ]));
}

/** `#/p/{slug}[?version=N]`: a project's page. */
export async function viewProject(view: HTMLElement, slug: string, params: URLSearchParams): Promise<string> {
  const p = await api<ProjectDetail>(projectPath(slug));
  const n = intParam(params, "version", p.localVersions[0] || 0, 0, Number.MAX_SAFE_INTEGER);
  view.appendChild(h("h1", { id: "title", text: p.title }));
  if (n > 0) view.appendChild(tabs(slug, n, "project"));
  view.appendChild(badges(p));
  view.appendChild(facts(p, n));
  if (n > 0) view.appendChild(versionLinks(slug, n));
  view.appendChild(h("h2", { text: "README" }));
  const readme = h("div", { class: "readme", id: "readme" });
  if (p.readme) readme.appendChild(mdRender(mdParse(p.readme), document));
  else readme.appendChild(h("p", { class: "muted", text: "No README." }));
  view.appendChild(readme);
  schema(view, p);
  versions(view, p);
  if (n > 0) {
    view.appendChild(h("h2", { text: "Parts of v" + n }));
    view.appendChild(await partsOf(slug, n));
  }
  return p.title;
}
