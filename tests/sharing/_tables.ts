/**
 * Tables the reader tests share: `notes`, made on a node through its API by
 * contributions (so every version has its own time and a known change),
 * and the node's own answers to compare the readers with (its data pages,
 * its manifests, its metrics).
 *
 * @module
 */
import { assertEquals, type Json } from "../support/assert.ts";
import { post } from "../support/local_project.ts";

/** `notes`: a project whose versions are contributions. */
export const NOTES = {
  slug: "notes",
  title: "Notes",
  readme: "Notes kept while working, one per record.",
  schemaDef: {
    fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }, { name: "score", type: "number" }],
    allowExtra: false,
  },
};

/** What `contributeNotes` made: the records each version added (index 0: version 1). */
export type Contributions = Json[][];

/**
 * Makes `notes` (or `slug`) on the node at `url` through its API: `versions`
 * contributions of a few records each (version v adds ids that follow the
 * previous ones); returns the records each version added.
 */
export async function contributeNotes(
  url: string,
  token: string,
  versions: number,
  slug = NOTES.slug,
): Promise<Contributions> {
  const auth = { authorization: `Bearer ${token}` };
  const created = await post(url, "/projects", { ...NOTES, slug }, auth);
  assertEquals(created.status, 201, created.text);
  const added: Contributions = [];
  let next = 0;
  for (let v = 1; v <= versions; v++) {
    const records = Array.from({ length: 3 + ((v * 5) % 7) }, () => {
      const id = next++;
      return { id, text: `note ${id}`, score: id / 4 };
    });
    const r = await post(url, `/projects/${slug}/contribute`, { records }, auth);
    assertEquals(r.status, 201, JSON.stringify(r.body));
    added.push(records);
  }
  return added;
}

/** Every record of `slug` at `version` (the newest when null) as the node's data pages give them, in order. */
export async function pageRecords(url: string, token: string, slug: string, version: number | null): Promise<Json[]> {
  const out: Json[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const at = version === null ? "" : `&version=${version}`;
    const res: Response = await fetch(`${url}/projects/${slug}/data?limit=1000&offset=${offset}${at}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assertEquals(res.status, 200);
    const page: { records: Json[]; next: number | null } = await res.json();
    out.push(...page.records);
    offset = page.next;
  }
  return out;
}

/** Version `version`'s manifest as the node serves it. */
export async function manifestOf(url: string, token: string, slug: string, version: number): Promise<Json> {
  const res = await fetch(`${url}/projects/${slug}/manifest?version=${version}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assertEquals(res.status, 200);
  return await res.json();
}

/** `[count, sum, distinct, min, max]` of `column` over `records`. */
export function aggregates(records: Json[], column = "id"): [number, number, number, number | null, number | null] {
  const values = records.map((r) => Number(r[column]));
  return [
    values.length,
    values.reduce((a, b) => a + b, 0),
    new Set(values).size,
    values.length ? Math.min(...values) : null,
    values.length ? Math.max(...values) : null,
  ];
}
