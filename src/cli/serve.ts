/**
 * `svc serve`: run a node until SIGINT (exit 130) or SIGTERM (exit 0), letting
 * in-flight requests finish.
 *
 * @module
 */
import process from "node:process";
import { serveNode } from "../../server.ts";
import { exit, onShutdownSignal } from "../runtime/mod.ts";
import { checkServeSettings, parseServeArgs, SERVE_HELP } from "./serve_args.ts";

/**
 * Runs `svc serve` with `args`; resolves when the node has stopped, with the
 * exit code.
 *
 * @example
 * ```ts ignore
 * const code = await serveCommand(["--store", "svc-data", "--port", "8686"]);
 * ```
 */
export async function serveCommand(args: string[]): Promise<number> {
  const settings = parseServeArgs(args, process.env);
  if (settings.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  checkServeSettings(settings);
  const log = settings.quiet ? null : (line: string) => process.stderr.write(line + "\n");
  const serving = await serveNode({
    store: settings.store,
    host: settings.host,
    port: settings.port,
    token: settings.token,
    readOnly: settings.readOnly,
    allowedHosts: settings.allowHosts,
    log,
  });
  const auth = settings.token ? "token required" : "no token";
  process.stderr.write(
    `svc node serving ${settings.store} on ${serving.url} (${auth}${settings.readOnly ? ", read-only" : ""})\n` +
      `MCP (Streamable HTTP): ${serving.url}/mcp\n`,
  );
  serving.node.warmSql().catch((e) => process.stderr.write(`error: the SQL workers did not start: ${e.message}\n`));
  let code = 0;
  let signals = 0;
  const stopped = new Promise<void>((resolve) => {
    onShutdownSignal((signal) => {
      signals++;
      if (signals > 1) exit(130);
      code = signal === "SIGINT" ? 130 : 0;
      process.stderr.write(`svc node stopping (${signal}): finishing requests in flight\n`);
      serving.shutdown().then(resolve, (e) => {
        process.stderr.write(`error: ${(e as Error).message}\n`);
        code = 1;
        resolve();
      });
    });
  });
  await stopped;
  return code;
}
