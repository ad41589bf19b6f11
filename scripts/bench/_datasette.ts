/**
 * Datasette as a reference for the `downloads` and `facets` benchmarks:
 * installed from PyPI (pinned) into a venv of its own under
 * `~/.cache/svc-bench-datasette/`, serving one SQLite file that holds the
 * bench's 1,000,000 records as table `records` (built once from the one-part
 * layout's Parquet, beside the bench data, and reused), in a process of its
 * own on a port the OS picks.
 *
 * SQLite has no parts: the same file stands beside both layouts of the node.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { sqlString } from "./_bench_store.ts";
import { benchDataDir } from "./_util.ts";

/** The Datasette release the benchmarks install from PyPI. */
export const DATASETTE_VERSION = "0.65.5";

/** The venv Datasette is installed into, one per release. */
const VENV = join(homedir(), ".cache", "svc-bench-datasette", `venv-${DATASETTE_VERSION}`);

/**
 * Settings Datasette is served with: a query may take up to a minute (facets
 * over every record take seconds), a page up to 10,000 rows (a view of 6,175
 * records whole in one JSON answer), CSV streamed whole without a size cap,
 * no suggested facets (the node suggests none on a data page), two SQL
 * threads (the node's SQL workers run two DuckDB threads).
 */
export const DATASETTE_SETTINGS: Readonly<Record<string, string>> = {
  sql_time_limit_ms: "60000",
  facet_time_limit_ms: "60000",
  max_returned_rows: "10000",
  allow_csv_stream: "on",
  max_csv_mb: "0",
  suggest_facets: "off",
  num_sql_threads: "2",
};

/** Runs `command` and resolves with its stdout; throws with its stderr when it fails. */
async function output(command: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(command, { args, stdin: "null", stdout: "piped", stderr: "piped" }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  if (!out.success) {
    throw new Error(`${command} ${args.join(" ")} exited ${out.code}: ${text(out.stderr).slice(-2000)}`);
  }
  return text(out.stdout);
}

/**
 * The `datasette` command of the pinned release, installed into its venv
 * first when absent (`python3 -m venv`, `pip install datasette==...`).
 *
 * @example
 * ```ts ignore
 * const datasette = await ensureDatasette();
 * ```
 */
export async function ensureDatasette(): Promise<string> {
  const bin = join(VENV, "bin", "datasette");
  const have = await output(bin, ["--version"]).catch(() => "");
  if (!have.includes(DATASETTE_VERSION)) {
    console.log(`installing datasette ${DATASETTE_VERSION} from PyPI into ${VENV} ...`);
    await rm(VENV, { recursive: true, force: true });
    await output("python3", ["-m", "venv", VENV]);
    await output(join(VENV, "bin", "pip"), [
      "install",
      "--quiet",
      "--disable-pip-version-check",
      `datasette==${DATASETTE_VERSION}`,
    ]);
  }
  return bin;
}

/** Python: loads a headerless CSV (`\N` for null) into `records` with executemany, indexes `country`. */
const LOAD_PY = `
import csv, json, sqlite3, sys
db, source, columns = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
kinds = {"INTEGER": int, "REAL": float, "TEXT": str}
convert = [kinds[t] for _, t in columns]
con = sqlite3.connect(db)
con.execute("PRAGMA journal_mode = OFF")
con.execute("PRAGMA synchronous = OFF")
defs = ", ".join(f'"{n}" {t}' + (" PRIMARY KEY" if n == "id" else "") for n, t in columns)
con.execute(f"CREATE TABLE records ({defs})")
marks = ", ".join("?" for _ in columns)
with open(source, newline="") as f:
    rows = (tuple(None if v == "\\\\N" else c(v) for c, v in zip(convert, row)) for row in csv.reader(f))
    con.executemany(f"INSERT INTO records VALUES ({marks})", rows)
con.execute("CREATE INDEX records_country ON records (country)")
con.commit()
print(con.execute("SELECT count(*) FROM records").fetchone()[0])
`;

/** SQLite's type for a DuckDB column type. */
function sqliteType(duckType: string): string {
  if (/INT/.test(duckType)) return "INTEGER";
  if (/DOUBLE|FLOAT|REAL|DECIMAL/.test(duckType)) return "REAL";
  if (duckType === "VARCHAR") return "TEXT";
  throw new Error(`no SQLite type for the bench column type ${duckType}`);
}

/**
 * The SQLite file Datasette serves, `bench-data/datasette/bench.db`: table
 * `records` holding the records of `parts` in their order (`id` its primary
 * key, an index on `country`). Built when absent or made from other parts
 * (DuckDB writes CSV, the venv's Python loads it with sqlite3), reused
 * otherwise.
 *
 * @example
 * ```ts ignore
 * const db = await ensureDatasetteDb(parts.get("sql-one-part")!);
 * ```
 */
export async function ensureDatasetteDb(parts: readonly string[]): Promise<string> {
  const dir = benchDataDir("datasette");
  const db = join(dir, "bench.db");
  const marker = join(dir, "READY.json");
  const wanted = JSON.stringify({ loader: 1, parts: parts.map((p) => p.split("/").pop()) });
  if ((await readFile(marker, "utf8").catch(() => null)) === wanted && (await stat(db).catch(() => null))) return db;
  const t0 = performance.now();
  console.log(`building ${db} from ${parts.length} part(s) ...`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const csv = join(dir, "records.csv");
  const from = `read_parquet([${parts.map(sqlString).join(", ")}])`;
  const duck = await DuckDBInstance.create(":memory:", { threads: "2" });
  const c = await duck.connect();
  let columns: [string, string][];
  try {
    columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRows()
      .map((r) => [String(r[0]), sqliteType(String(r[1]))]);
    await c.run(`COPY (SELECT * FROM ${from}) TO ${sqlString(csv)} (FORMAT csv, HEADER false, NULLSTR '\\N')`);
  } finally {
    c.closeSync();
    duck.closeSync();
  }
  const python = join(dirname(await ensureDatasette()), "python");
  const count = await output(python, ["-c", LOAD_PY, `${db}.tmp`, csv, JSON.stringify(columns)]);
  await rm(csv);
  await rename(`${db}.tmp`, db);
  await writeFile(marker, wanted);
  console.log(`built (${count.trim()} records) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return db;
}

/** A running `datasette serve`. */
export interface DatasetteServer {
  /** The base URL of the table, e.g. `http://127.0.0.1:40123/bench/records`. */
  table: string;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Serves `db` (immutable: it never changes, as Datasette advises for
 * published data) with {@linkcode DATASETTE_SETTINGS} on 127.0.0.1 and a port
 * the OS picks (`-p 0`, read from uvicorn's line), and resolves once it
 * answers.
 *
 * @example
 * ```ts ignore
 * const ds = await startDatasette(await ensureDatasette(), db);
 * await ds.stop();
 * ```
 */
export async function startDatasette(bin: string, db: string): Promise<DatasetteServer> {
  const settings = Object.entries(DATASETTE_SETTINGS).flatMap(([k, v]) => ["--setting", k, v]);
  const child = new Deno.Command(bin, {
    args: ["serve", "-i", db, "-h", "127.0.0.1", "-p", "0", ...settings],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  let found: (url: string) => void = () => {};
  const seen = new Promise<string>((resolve) => found = resolve);
  // Read to the end: uvicorn logs every request, and a full pipe would stall it.
  const read = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of child.stderr) {
      text = (text + dec.decode(chunk, { stream: true })).slice(-8000);
      const m = /running on (http:\/\/\S+) \(/.exec(text);
      if (m) found(m[1]);
    }
  })();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await read.catch(() => {});
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const url = await Promise.race([
      seen,
      child.status.then((s) => Promise.reject(new Error(`datasette exited ${s.code} before serving:\n${text}`))),
      new Promise<never>((_, reject) =>
        timer = setTimeout(() => reject(new Error(`datasette: no port\n${text}`)), 60_000)
      ),
    ]);
    const name = db.split("/").pop()!.replace(/\.db$/, "");
    const res = await fetch(`${url}/-/versions.json`);
    const versions = await res.json() as { datasette: { version: string }; sqlite: { version: string } };
    console.log(
      `reference: Datasette ${versions.datasette.version} (SQLite ${versions.sqlite.version}) at ${url}, ` +
        Object.entries(DATASETTE_SETTINGS).map(([k, v]) => `${k}=${v}`).join(" "),
    );
    return { table: `${url}/${name}/records`, stop };
  } catch (e) {
    await stop();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Datasette serving the records of `parts`, ready: installed, its SQLite
 * file built, started. Null, saying why, when it cannot be installed (no
 * `python3`, or PyPI refuses): the benchmark then goes on without it.
 *
 * @example
 * ```ts ignore
 * const ds = await openDatasette(parts.get("sql-one-part")!);
 * try { ... } finally { await ds?.stop(); }
 * ```
 */
export async function openDatasette(parts: readonly string[]): Promise<DatasetteServer | null> {
  let bin: string;
  try {
    bin = await ensureDatasette();
  } catch (e) {
    console.log(`Datasette is left out: it could not be installed (${e instanceof Error ? e.message : e})`);
    return null;
  }
  return await startDatasette(bin, await ensureDatasetteDb(parts));
}
