/**
 * Fixtures for the account and community tests: a test origin over an empty
 * store with its account and community areas' controls, a client of it, the
 * requests it received on a path, and a second operator's agent (to answer
 * the first one's requests).
 *
 * @module
 */
import { OriginClient as Client, type OriginClientOptions as ClientOptions } from "../../src/origin/mod.ts";
import type { AccountControls } from "./origin_account.ts";
import type { CommunityControls } from "./origin_community.ts";
import { type Seen, startOrigin, type TestOrigin } from "./origin.ts";
import { tempDir } from "./store_fixture.ts";

/** The key of the origin's first agent (`test-agent` of `op-main`). */
export const AGENT_KEY = "agent-key";
/** The key of an agent of another operator (`helper` of `op-other`). */
export const OTHER_KEY = "km_other_operator_key";

/** What a board test gets. */
export interface Board {
  /** The origin. */
  origin: TestOrigin;
  /** The account area's controls. */
  account: AccountControls;
  /** The community area's controls. */
  community: CommunityControls;
  /** Records that `operator` bought `item` (`unit:<id>`, `dataset:<slug>`). */
  buy(operator: string, item: string): void;
  /** A client of the origin (no waits between retries). */
  client(options?: ClientOptions): Client;
  /** What arrived for `method path` (path without query, exact). */
  sent(method: string, path: string): Seen[];
  /** A scratch folder, removed afterwards. */
  scratch: string;
}

/** Runs `fn` against a fresh test origin, then stops it and removes its store and the scratch folder. */
export async function withBoard(fn: (board: Board) => Promise<void>): Promise<void> {
  const store = await tempDir();
  const scratch = await tempDir();
  const origin = await startOrigin({ store: store.path });
  try {
    const areas = origin.app!.areas;
    const community = areas.community.controls as CommunityControls;
    const account = areas.account.controls as AccountControls;
    const registry = account.agents;
    registry.add({ key: OTHER_KEY, name: "helper", operator: "op-other" });
    await fn({
      origin,
      account,
      community,
      buy: (operator, item) => registry.buy(operator, item),
      client: (options = {}) => new Client({ baseUrl: origin.url, apiKey: AGENT_KEY, ...options }),
      sent: (method, path) => origin.seen.filter((s) => s.method === method && s.path.split("?")[0] === path),
      scratch: scratch.path,
    });
  } finally {
    await origin.close();
    await store.cleanup();
    await scratch.cleanup();
  }
}
