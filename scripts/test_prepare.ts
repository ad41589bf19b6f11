/**
 * What `deno task test` checks before the suite runs, so that a fresh
 * machine either gets what the tests need or hears at once what is missing
 * (not after ten minutes of tests): Node.js (the npm package's test and the
 * HTTP framing comparison run it), a Chromium for the browser tests
 * (`SVC_CHROMIUM`, else Debian's or Ubuntu's `chromium`), and the programs
 * the fleet and deployment tests run (Debian's `haproxy`, `prometheus` with
 * promtool, and `kubernetes-client` for kubectl), installed here with
 * apt-get when this runs as root and they are missing. Each program is found
 * wherever apt put it, PATH or not (HAProxy goes to /usr/sbin, which a
 * user's PATH may lack); the task's runner (`test_all.ts`) puts such folders
 * on the runs' PATH. Also the S3-compatible server of the object-store tests
 * (Versity's S3 gateway, built once by scripts/objectstore/prepare.sh into a
 * cache folder), and the Delta Sharing readers the pandas tests drive
 * (tests/sharing/pandas_test.ts against a node,
 * tests/fleet/sharing_readers_test.ts through the fleet's HAProxy):
 * `scripts/readers/prepare.sh`, PyPI, a few minutes the first time; it
 * tries the Spark connector from Maven Central too and says when it cannot
 * be had, which the suite does not need; when the pandas part fails, only
 * the tests that drive it fail. Prints how long the task takes first.
 *
 * ```sh
 * deno run -A scripts/test_prepare.ts
 * ```
 *
 * @module
 */
import { existsSync } from "node:fs";
import process from "node:process";

/** The version of Versity's S3 gateway that scripts/objectstore/prepare.sh builds (and pins as the same). */
export const VERSITYGW_VERSION = "v1.8.0";

/** Where the object-store tests find versitygw (`tests/support/s3_server.ts`): `SVC_VERSITYGW`, else prepare.sh's. */
export function versitygwPath(): string {
  return process.env.SVC_VERSITYGW ??
    `${process.env.SVC_OBJECTSTORE_CACHE ?? "/var/tmp/svc-objectstore"}/versitygw-${VERSITYGW_VERSION}/versitygw`;
}

/** Where the browser tests look for Chromium (`tests/support/browser.ts`), after `SVC_CHROMIUM`. */
export const CHROMIUM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function runs(cmd: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(cmd, { args, stdout: "null", stderr: "null", stdin: "null" }).output()).success;
  } catch {
    return false;
  }
}

/** Installs Debian's `packages` with apt-get (root only); true when apt-get said it did. */
async function installDebian(packages: string[]): Promise<boolean> {
  const root = Deno.uid?.() === 0;
  if (!root || !(await runs("apt-get", ["--version"]))) return false;
  say(`test: installing Debian's ${packages.join(", ")} with apt-get (a minute or two)`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const update = await new Deno.Command("apt-get", { args: ["update", "-qq"], env, stdout: "null" }).output();
  if (!update.success) return false;
  const install = await new Deno.Command("apt-get", {
    args: ["install", "-y", "-qq", "--no-install-recommends", ...packages],
    env,
    stdout: "null",
  }).output();
  return install.success;
}

/** Programs the tests run, and the Debian package of each. */
const PROGRAMS: readonly [program: string, version: string, pkg: string][] = [
  ["haproxy", "-v", "haproxy"],
  ["prometheus", "--version", "prometheus"],
  ["promtool", "--version", "prometheus"],
  ["kubectl", "version --client", "kubernetes-client"],
];

/** Where Debian puts programs besides the folders a user's PATH usually names (HAProxy goes to /usr/sbin). */
export const SYSTEM_FOLDERS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/**
 * The folder holding an executable `program`: the first of `path` (a PATH
 * value), else of {@linkcode SYSTEM_FOLDERS}; null when none does.
 *
 * @example
 * ```ts
 * import { programFolder } from "./test_prepare.ts";
 * programFolder("sh", ""); // "/usr/bin" (or "/bin")
 * ```
 */
export function programFolder(program: string, path: string): string | null {
  const folders = [...path.split(":").filter((f) => f !== ""), ...SYSTEM_FOLDERS];
  for (const folder of folders) {
    try {
      const info = Deno.statSync(`${folder}/${program}`);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return folder;
    } catch {
      // not there
    }
  }
  return null;
}

/** What {@linkcode prepareTests} found: the problems left, and the folders the runs need added to PATH. */
export interface Prepared {
  /** Needs unmet, each a sentence saying what to do. */
  problems: string[];
  /** Folders holding a program the tests run that PATH does not name (apt's /usr/sbin when PATH lacks it). */
  pathAdditions: string[];
}

/** Whether `program` answers `args` when run from `folder`. */
function runsFrom(folder: string | null, program: string, args: string): Promise<boolean> {
  return folder === null ? Promise.resolve(false) : runs(`${folder}/${program}`, args.split(" "));
}

/**
 * Checks what the tests need (see the module's documentation), installing
 * Debian's packages as root where they are missing, and finds each program
 * wherever apt put it.
 */
export async function prepareTests(path = Deno.env.get("PATH") ?? ""): Promise<Prepared> {
  const problems: string[] = [];
  if (!(await runs("node", ["--version"]))) {
    problems.push("Node.js 20 or later is needed (the npm package's test and the HTTP framing comparison use it)");
  }
  const chosen = Deno.env.get("SVC_CHROMIUM");
  if (chosen !== undefined) {
    if (!existsSync(chosen)) problems.push(`SVC_CHROMIUM names ${chosen}, which does not exist`);
  }
  const missing: string[] = [];
  if (chosen === undefined && !CHROMIUM_PATHS.some((p) => existsSync(p))) missing.push("chromium");
  for (const [program, version, pkg] of PROGRAMS) {
    const works = await runsFrom(programFolder(program, path), program, version);
    if (!works && !missing.includes(pkg)) missing.push(pkg);
  }
  if (missing.length > 0) await installDebian(missing);
  if (chosen === undefined && !CHROMIUM_PATHS.some((p) => existsSync(p))) {
    problems.push(
      "no Chromium for the browser tests, and it could not be installed here: " +
        "`apt-get install -y chromium` as root, or set SVC_CHROMIUM to a Chromium or Chrome binary",
    );
  }
  const named = path.split(":");
  const pathAdditions: string[] = [];
  for (const [program, version, pkg] of PROGRAMS) {
    const folder = programFolder(program, path);
    if (!(await runsFrom(folder, program, version))) {
      problems.push(`${program} is needed by the fleet and deployment tests: \`apt-get install -y ${pkg}\` as root`);
    } else if (!named.includes(folder!) && !pathAdditions.includes(folder!)) {
      pathAdditions.push(folder!);
    }
  }
  if (!existsSync(versitygwPath())) {
    say("test: building Versity's S3 gateway for the object-store tests (scripts/objectstore/prepare.sh, once)");
    const script = new URL("./objectstore/prepare.sh", import.meta.url).pathname;
    const built = await new Deno.Command("bash", { args: [script], stdout: "null", stderr: "inherit" }).output();
    if (!built.success || !existsSync(versitygwPath())) {
      problems.push("the object-store tests' S3 server could not be built: see scripts/objectstore/prepare.sh above");
    }
  }
  const readers = await new Deno.Command("bash", {
    args: [new URL("./readers/prepare.sh", import.meta.url).pathname],
    stdout: "null",
    stderr: "inherit",
    stdin: "null",
  }).output().catch(() => null);
  // The rest of the suite does not need them: their own tests fail, saying so, and the others run.
  if (!readers?.success) {
    say(
      "test: the Delta Sharing readers could not be installed (see above): tests/sharing/pandas_test.ts and " +
        "tests/fleet/sharing_readers_test.ts will fail",
    );
  }
  return { problems, pathAdditions };
}

/** How long the whole task took on 2 cores, measured (see README.md). */
export const SUITE_MINUTES = "9-11";

async function main(): Promise<number> {
  say(
    `test: the whole suite takes about ${SUITE_MINUTES} minutes on 2 cores (files run in parallel, then the examples, then the fleet)`,
  );
  const { problems, pathAdditions } = await prepareTests();
  for (const folder of pathAdditions) say(`test: programs the tests run are in ${folder}, which PATH lacks: add it`);
  for (const problem of problems) say(`error: ${problem}`);
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
