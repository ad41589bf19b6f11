/**
 * Fixtures for the knowledge-unit and dataset-edit tests: a test origin
 * taking two agent keys, its knowledge and edit areas' controls, and a
 * client of it.
 *
 * @module
 */
import { OriginClient as Client } from "../../src/origin/mod.ts";
import { type CliRun, runCli } from "./cli_process.ts";
import type { KnowledgeControls } from "./origin_knowledge.ts";
import type { ProjectEditControls } from "./origin_project_edit.ts";
import { startOrigin, type TestOrigin } from "./origin.ts";
import { tempDir } from "./store_fixture.ts";

/** The author's agent key. */
export const AUTHOR = "agent-key";
/** Another agent's key. */
export const READER = "other-key";

/** A running origin with its areas' controls. */
export interface KnowledgeOrigin {
  /** The origin. */
  origin: TestOrigin;
  /** The knowledge area's controls. */
  units: KnowledgeControls;
  /** The dataset edit area's controls. */
  edits: ProjectEditControls;
  /** A client of the origin with `key` (none when null), retries without waiting. */
  client(key?: string | null): Client;
  /** The requests that reached the origin for paths starting with `prefix`. */
  sent(prefix: string): TestOrigin["seen"];
}

/** Runs `fn` with a test origin over an empty store, then stops it. */
export async function withKnowledgeOrigin(fn: (o: KnowledgeOrigin) => Promise<void>): Promise<void> {
  const store = await tempDir();
  try {
    const origin = await startOrigin({ store: store.path, agentKeys: [AUTHOR, READER] });
    try {
      await fn({
        origin,
        units: origin.app!.areas.knowledge.controls as KnowledgeControls,
        edits: origin.app!.areas.projectEdit.controls as ProjectEditControls,
        client: (key = AUTHOR) => new Client({ baseUrl: origin.url, apiKey: key }),
        sent: (prefix) => origin.seen.filter((s) => s.path.startsWith(prefix)),
      });
    } finally {
      await origin.close();
    }
  } finally {
    await store.cleanup();
  }
}

/** A valid submission for the tests to vary. */
export const UNIT = {
  title: "DNS TTLs seen on 10,000 domains",
  body: "Median TTL of A records is 300 seconds; CDNs answer with 20 to 60 seconds.",
  category: "infra-measurement",
  sourceDeclaration: "measured from our own resolvers in May 2026",
};

/**
 * Runs `svc args...` against the origin with `key` (none when null), `input`
 * as its stdin.
 */
export function svcAt(
  o: KnowledgeOrigin,
  args: string[],
  options: { key?: string | null; input?: string; cwd?: string } = {},
): Promise<CliRun> {
  const key = options.key === undefined ? AUTHOR : options.key;
  const auth = key === null ? [] : ["--api-key", key];
  return runCli([...args, "--base-url", o.origin.url, ...auth], { SVC_API_KEY: "", SVC_BASE_URL: "" }, options);
}
