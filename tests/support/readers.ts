/**
 * The real Delta Sharing readers (the protocol's Python connector with
 * pandas, and Spark with the Delta Sharing Spark connector), as
 * `scripts/readers/prepare.sh` installs them, driven through the Python
 * scripts of `tests/sharing/readers/`. A test that needs them fails, saying
 * why, when they are not there: it never skips. The pandas part comes from
 * PyPI; the Spark part needs `io.delta:delta-sharing-spark_2.13:4.0.1` from
 * Maven Central, which the registry this project's machines reach does not
 * serve.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { ROOT, runCli } from "./cli_process.ts";

/** What prepare.sh installed (its `readers-KEY.json`). */
export interface Readers {
  /** The venv's Python, with delta-sharing, pandas, pyarrow and pyspark. */
  python: string;
  /** Versions of the Python packages. */
  packages: Record<string, string>;
  /** The Spark part, or null when the connector could not be had. */
  spark: SparkReaders | null;
}

/** The Spark part: the connector's published jars and a Java for Spark. */
export interface SparkReaders {
  /** A Java 17 or newer. */
  javaHome: string;
  /** The connector's jars and what it needs beyond Spark's own. */
  jars: string[];
  /** The connector's coordinates and where they came from. */
  connector: string;
}

/** A part of the readers: `pandas` (the Python packages), or `spark` (those and the Spark connector). */
export type ReadersPart = "pandas" | "spark";

const SCRIPTS = fileURLToPath(new URL("../sharing/readers/", import.meta.url));

const found = new Map<ReadersPart, Promise<Readers>>();

/**
 * The readers with `part` ready, checked once per process (`prepare.sh
 * --check`): throws with prepare.sh's reason when that part is missing.
 */
export function readers(part: ReadersPart = "pandas"): Promise<Readers> {
  let promise = found.get(part);
  if (promise === undefined) {
    promise = (async () => {
      const check = await new Deno.Command("bash", {
        args: [`${ROOT}scripts/readers/prepare.sh`, "--check", part],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const dec = new TextDecoder();
      if (!check.success) {
        const errors = dec.decode(check.stderr).split("\n").filter((l) => l.startsWith("error: "));
        throw new Error(errors.map((l) => l.slice("error: ".length)).join("\n") || dec.decode(check.stderr).trim());
      }
      return JSON.parse(await readFile(dec.decode(check.stdout).trim(), "utf8")) as Readers;
    })();
    found.set(part, promise);
  }
  return promise;
}

/**
 * Installs what is missing of `part` with `scripts/readers/prepare.sh`, its
 * progress and its reason for failing on stderr; throws when it fails.
 */
export async function installReaders(part: ReadersPart): Promise<void> {
  const run = await new Deno.Command("bash", {
    args: [`${ROOT}scripts/readers/prepare.sh`, part],
    stdout: "null",
    stderr: "inherit",
    stdin: "null",
  }).output();
  if (!run.success) {
    throw new Error(`scripts/readers/prepare.sh ${part} could not install the ${part} readers (see above)`);
  }
}

/** What a reader script printed, and the answer on its last line. */
export interface ReaderRun<T> {
  /** The answer (the script's last line of output, as JSON). */
  answer: T;
  /** Everything it printed before its answer. */
  printed: string;
  /** Its stderr (Spark's and the JVM's logs). */
  stderr: string;
  /** Seconds it ran. */
  seconds: number;
}

/** How to run a reader script. */
export interface ReaderOptions {
  /** Killed after this long (default 5 minutes). */
  timeoutMs?: number;
  /** More environment for the script. */
  env?: Record<string, string>;
  /** The script starts Spark: it needs the Spark part (the connector's jars and Java). */
  spark?: boolean;
}

/**
 * Runs `tests/sharing/readers/<script>` with `input` as JSON on stdin,
 * killed after `timeoutMs`; throws with its output when it fails, and
 * before it starts when the readers it needs are missing.
 */
export async function runReader<T>(script: string, input: unknown, options: ReaderOptions = {}): Promise<ReaderRun<T>> {
  const r = await readers(options.spark ? "spark" : "pandas");
  const spark: Record<string, string> = r.spark === null || !options.spark ? {} : {
    JAVA_HOME: r.spark.javaHome,
    PATH: `${r.spark.javaHome}/bin:${Deno.env.get("PATH") ?? ""}`,
    SVC_READER_JARS: r.spark.jars.join(","),
  };
  const started = performance.now();
  const child = new Deno.Command(r.python, {
    args: [`${SCRIPTS}${script}`],
    env: {
      ...spark,
      PYSPARK_PYTHON: r.python,
      // Spark binds its driver to the loopback only: nothing of a test leaves the machine.
      SPARK_LOCAL_IP: "127.0.0.1",
      PYTHONDONTWRITEBYTECODE: "1",
      ...options.env,
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 300_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(input)));
  await writer.close();
  const out = await child.output();
  const dec = new TextDecoder();
  const stdout = dec.decode(out.stdout).trimEnd();
  const stderr = dec.decode(out.stderr);
  const seconds = (performance.now() - started) / 1000;
  const cut = stdout.lastIndexOf("\n");
  const last = stdout.slice(cut + 1);
  if (!out.success || !last.startsWith("{")) {
    throw new Error(
      `${script} failed (exit ${out.code}${out.signal ? `, ${out.signal}` : ""}):\n${stdout.slice(-3000)}\n` +
        stderr.split("\n").filter((l) => !/^\s+at /.test(l)).join("\n").slice(-6000),
    );
  }
  return { answer: JSON.parse(last) as T, printed: cut < 0 ? "" : stdout.slice(0, cut), stderr, seconds };
}

/**
 * A recipient of the store at `store` made with `svc share add NAME -o FILE
 * --endpoint URL`, as a user makes one; resolves to the profile file.
 */
export async function shareProfile(store: string, name: string, file: string, endpoint: string): Promise<string> {
  const made = await runCli(["share", "add", name, "--store", store, "-o", file, "--endpoint", endpoint]);
  if (made.code !== 0) throw new Error(`svc share add failed: ${made.stderr}`);
  return file;
}
