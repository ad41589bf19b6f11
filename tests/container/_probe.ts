/**
 * Run under the node's permission flags: tries what the node must not be
 * able to do and what it must, and prints one JSON object of outcomes
 * (`"ok"`, or the error's name such as `"NotCapable"`).
 *
 * Arguments: `--store DIR --other URL`.
 *
 * @module
 */
const args = Object.fromEntries(
  Deno.args.flatMap((a, i, all) => (a.startsWith("--") ? [[a.slice(2), all[i + 1]]] : [])),
) as { store: string; other: string };

async function outcome(fn: () => Promise<unknown> | unknown): Promise<string> {
  try {
    await fn();
    return "ok";
  } catch (e) {
    return (e as Error).name;
  }
}

const result = {
  readShadow: await outcome(() => Deno.readTextFile("/etc/shadow")),
  readPasswd: await outcome(() => Deno.readTextFile("/etc/passwd")),
  readStore: await outcome(() => Array.fromAsync(Deno.readDir(args.store))),
  writeEtc: await outcome(() => Deno.writeTextFile("/etc/svc-probe", "x")),
  fetchOther: await outcome(() => fetch(args.other).then((r) => r.body?.cancel())),
  envHome: await outcome(() => Deno.env.get("HOME")),
  envSvc: await outcome(() => Deno.env.get("SVC_NODE_PORT")),
  runShell: await outcome(() => new Deno.Command("/usr/bin/env", { args: ["true"] }).output()),
};
console.log(JSON.stringify(result));
