/**
 * Stores for tests and benchmarks, written the way a pull lays them out:
 * real Parquet parts (written by native DuckDB), content-addressed, and a
 * manifest per version.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One part to write: a SELECT that yields its rows. */
export interface PartSpec {
  /** A DuckDB SELECT producing the part's rows. */
  sql: string;
  /** Parquet row group size (DuckDB's default is 122,880). */
  rowGroupSize?: number;
}

/** A version to write. */
export interface VersionSpec {
  /** The parts, in record order. */
  parts: PartSpec[];
  /** Extra top-level manifest keys (`signature`, bookkeeping, ...). */
  extra?: Record<string, unknown>;
}

/** What was written for one version. */
export interface WrittenVersion {
  /** The manifest as written. */
  manifest: Record<string, unknown>;
  /** Paths of the part files. */
  partPaths: string[];
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Uint8Array);
  return hash.digest("hex");
}

/** Writes Parquet parts and manifests into a store directory. */
export class StoreWriter {
  #db: DuckDBInstance | null = null;
  readonly root: string;

  /** A writer for the store at `root`. */
  constructor(root: string) {
    this.root = root;
  }

  async #connection() {
    this.#db ??= await DuckDBInstance.create(":memory:", { threads: "2" });
    return await this.#db.connect();
  }

  /** Writes one part of `slug` and returns its manifest entry. */
  async part(slug: string, spec: PartSpec): Promise<{ sha256: string; bytes: number; records: number; path: string }> {
    const dir = join(this.root, slug, "parts");
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `.tmp-${crypto.randomUUID()}.parquet`);
    const c = await this.#connection();
    try {
      const rows = Number(
        (await c.runAndReadAll(`SELECT count(*) FROM (${spec.sql})`)).getRows()[0][0],
      );
      const groups = spec.rowGroupSize ? `, ROW_GROUP_SIZE ${spec.rowGroupSize}` : "";
      await c.run(`COPY (${spec.sql}) TO '${tmp}' (FORMAT parquet${groups})`);
      const sha256 = await sha256File(tmp);
      const path = join(dir, `${sha256}.parquet`);
      await rename(tmp, path);
      return { sha256, bytes: (await stat(path)).size, records: rows, path };
    } finally {
      c.closeSync();
    }
  }

  /** Writes `project.json` of `slug`. */
  async project(slug: string, meta: Record<string, unknown>): Promise<void> {
    await mkdir(join(this.root, slug), { recursive: true });
    await writeFile(join(this.root, slug, "project.json"), JSON.stringify(meta, null, 2));
  }

  /** Writes version `n` of `slug`: its parts, then its manifest. */
  async version(slug: string, n: number, spec: VersionSpec): Promise<WrittenVersion> {
    const parts = [];
    for (const p of spec.parts) parts.push(await this.part(slug, p));
    const records = parts.reduce((a, p) => a + p.records, 0);
    const bytes = parts.reduce((a, p) => a + p.bytes, 0);
    const manifest: Record<string, unknown> = {
      format: "parquet",
      project: slug,
      version: n,
      parent: n > 1 ? n - 1 : null,
      createdAt: "2026-11-01T00:00:00Z",
      schema: { hash: "0".repeat(64), fields: [], allowExtra: false },
      parts: parts.map(({ sha256, bytes, records }) => ({ sha256, bytes, records })),
      totals: { records, bytes, parts: parts.length, contributions: 1 },
      ...spec.extra,
    };
    await mkdir(join(this.root, slug, `v${n}`), { recursive: true });
    await writeFile(join(this.root, slug, `v${n}`, "manifest.json"), JSON.stringify(manifest, null, 2));
    return { manifest, partPaths: parts.map((p) => p.path) };
  }

  /**
   * Writes version `to` of `slug` as version `from` and the parts of `more`
   * after its own (the same part files, content-addressed: a version that
   * adds records shares every part of the one before). Returns the new
   * parts' digests.
   */
  async extend(slug: string, from: number, to: number, more: PartSpec[]): Promise<string[]> {
    const before = JSON.parse(await readFile(join(this.root, slug, `v${from}`, "manifest.json"), "utf8"));
    const added = [];
    for (const p of more) added.push(await this.part(slug, p));
    const parts = [...before.parts, ...added.map(({ sha256, bytes, records }) => ({ sha256, bytes, records }))];
    const { signature: _s, ...kept } = before;
    const manifest = {
      ...kept,
      version: to,
      parent: from,
      parts,
      totals: {
        records: parts.reduce((a: number, p: { records: number }) => a + p.records, 0),
        bytes: parts.reduce((a: number, p: { bytes: number }) => a + p.bytes, 0),
        parts: parts.length,
        contributions: (before.totals?.contributions ?? 0) + 1,
      },
    };
    const dir = join(this.root, slug, `.v${to}.tmp`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
    await rename(dir, join(this.root, slug, `v${to}`));
    return added.map((p) => p.sha256);
  }

  /** Releases the writer's DuckDB. */
  close(): void {
    this.#db?.closeSync();
    this.#db = null;
  }
}

/** A fresh temporary directory; `cleanup` removes it. */
export async function tempDir(prefix = "svc-test-"): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** The schema fields of the `cities` fixture. */
export const CITY_FIELDS = [
  { name: "id", type: "integer" },
  { name: "name", type: "string" },
  { name: "population", type: "integer" },
  { name: "score", type: "number" },
  { name: "note", type: "string", required: false },
];

/** SQL for `n` city records starting at id `from`. */
export function citySql(from: number, n: number): string {
  return `SELECT (${from} + i)::BIGINT AS id, 'city-' || (${from} + i) AS name, ` +
    `((${from} + i) * 1000)::BIGINT AS population, ((${from} + i) * 0.5)::DOUBLE AS score, ` +
    `CASE WHEN (${from} + i) % 3 = 0 THEN NULL ELSE 'n' || (${from} + i) END AS note FROM range(${n}) r(i)`;
}

/**
 * A store with `cities` (project.json, v1 of 2 parts with 150 + 100 records,
 * v2 of 3 parts with 600 records) and `bare` (no project.json, one version).
 */
export async function citiesStore(root: string): Promise<{ v1: WrittenVersion; v2: WrittenVersion }> {
  const w = new StoreWriter(root);
  try {
    await w.project("cities", {
      slug: "cities",
      title: "World cities",
      readme: "Cities of the world, one record per city.",
      license: "CC-BY-4.0",
      tags: ["geo"],
      access: "public",
      visibility: "public",
      createdAt: "2026-11-01T00:00:00Z",
      schemaDef: { fields: CITY_FIELDS, allowExtra: false },
      latestVersion: 2,
    });
    const v1 = await w.version("cities", 1, {
      parts: [{ sql: citySql(0, 150), rowGroupSize: 64 }, { sql: citySql(150, 100) }],
      extra: { pulledAt: "2026-11-02T00:00:00Z", verified: true },
    });
    const v2 = await w.version("cities", 2, {
      parts: [{ sql: citySql(0, 250), rowGroupSize: 100 }, { sql: citySql(250, 250) }, { sql: citySql(500, 100) }],
      extra: {
        signature: {
          origin: "https://origin.example",
          kid: "0123456789abcdef",
          alg: "Ed25519",
          sig: "AA==",
          chain: [],
        },
      },
    });
    await w.version("bare", 1, {
      parts: [{ sql: `SELECT i::INTEGER AS k, 'v' || i AS v FROM range(10) r(i)` }],
      extra: {
        schema: {
          hash: "1".repeat(64),
          fields: [{ name: "k", type: "integer" }, { name: "v", type: "string" }],
          allowExtra: false,
        },
      },
    });
    return { v1, v2 };
  } finally {
    w.close();
  }
}
