/**
 * `svc save SLUG[@N] [-o FILE] [--store DIR]` and `svc load FILE [--store DIR]
 * [--check] [--json]`: one version as a bundle file, and back.
 *
 * @module
 */
import process from "node:process";
import { loadBundle, saveBundle } from "../client/bundle.ts";
import { Client } from "../client/client.ts";
import { pull } from "../client/pull.ts";
import { DEFAULT_STORE } from "../store/layout.ts";
import { openStore } from "../store/store.ts";
import { commandArgs, projectAt } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { UsageError } from "./errors.ts";
import { type Progress, progress } from "./progress.ts";
import { trustFilePath } from "../trust/trust_file.ts";

/** The help text of `svc save`. */
export const SAVE_HELP = `Usage: svc save SLUG[@VERSION] [-o FILE] [options]

Write one version as a bundle (a tar of svc-bundle.json, project.json,
manifest.json and the parts), pulling it first when the store lacks it.

Options:
  -o, --output FILE  the bundle (default: ./SLUG-vN.svc)
  --store DIR        store directory (default: ${DEFAULT_STORE})
  --base-url URL     where to pull from when needed (default: SVC_BASE_URL)
  --api-key KEY      agent key for that pull (default: SVC_API_KEY)
  --json             print the bundle's header as JSON
`;

/** The help text of `svc load`. */
export const LOAD_HELP = `Usage: svc load FILE [--store DIR] [--check] [--verify] [--json]

Check a bundle member by member (only the allowed names, each part's size and
SHA-256, header and manifest agreeing, the signature against the keys pinned
for the origin) and lay its version out in the store as a pull would.

Options:
  --store DIR     store directory (default: ${DEFAULT_STORE})
  --check         check only; write nothing
  --verify        take it only if signed by a pinned key of the origin
                  (svc trust add); also SVC_VERIFY=1
  --origin URL    the origin whose keys must have signed it (default: the
                  origin its signature names, whose keys must be pinned)
  --json          print the result as JSON
`;

/**
 * Runs `svc save` with `args`; resolves with the exit code.
 *
 * @example
 * ```ts ignore
 * await saveCommand(["cities@2", "-o", "cities.svc"]);
 * ```
 */
export async function saveCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    output: { type: "string", short: "o" },
    store: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    process.stdout.write(SAVE_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc save takes one SLUG[@VERSION]");
  const store = values.store ?? DEFAULT_STORE;
  const { slug, version: asked } = projectAt(positionals[0]);
  let version = asked;
  const held = version === null ? await openStore(store).latest(slug) : await openStore(store).version(slug, version);
  if (!held) {
    const pulled = await pull(new Client({ ...endpointFrom(values, process.env) }), slug, {
      store,
      version: version ?? undefined,
    });
    version = pulled.version;
  }
  const n = version ?? held!.version;
  const out = values.output ?? `${slug}-v${n}.svc`;
  let bar: Progress | null = null;
  const header = await saveBundle(store, slug, n, out, {
    onProgress: (done, total) => {
      bar ??= progress(`save ${slug}`, total);
      bar.update(done, "bytes");
    },
  });
  (bar as Progress | null)?.finish();
  if (values.json) process.stdout.write(JSON.stringify(header) + "\n");
  else process.stdout.write(`${slug} v${n}: ${header.records} records in ${header.parts} parts -> ${out}\n`);
  return 0;
}

/**
 * Runs `svc load` with `args`; resolves with the exit code.
 *
 * @example
 * ```ts ignore
 * await loadCommand(["cities-v2.svc", "--check"]);
 * ```
 */
export async function loadCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    store: { type: "string" },
    check: { type: "boolean" },
    verify: { type: "boolean" },
    origin: { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    process.stdout.write(LOAD_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc load takes one bundle file");
  const store = values.store ?? DEFAULT_STORE;
  const required = values.verify === true || /^(1|true|yes)$/i.test(process.env.SVC_VERIFY ?? "");
  // Without --origin, the keys pinned for the origin the signature names are the ones that count.
  const origin = values.origin ?? "";
  let bar: Progress | null = null;
  const result = await loadBundle(positionals[0], store, {
    check: values.check,
    trust: { trustFile: trustFilePath(process.env), origin: origin.replace(/\/+$/, ""), required },
    onProgress: (done, total) => {
      bar ??= progress("load", total);
      bar.update(done, "bytes");
    },
  });
  (bar as Progress | null)?.finish();
  const h = result.header;
  const signed = ` · ${result.signature === "verified" ? "signed ✓" : result.signature ?? "unsigned"}`;
  const what = `${h.project} v${h.version}, ${h.records} records in ${h.parts} parts`;
  if (values.json) process.stdout.write(JSON.stringify(result) + "\n");
  else if (values.check) process.stdout.write(`${positionals[0]}: ${what}: whole (nothing written)${signed}\n`);
  else process.stdout.write(`${what} -> ${store}/${h.project}/ (${result.newParts} new parts)${signed}\n`);
  return 0;
}
