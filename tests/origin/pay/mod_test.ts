/**
 * The pay entry's module graph: `src/origin/pay/mod.ts` names the x402 packages
 * and viem nowhere (`packages.ts` loads them on the first purchase or
 * signature by a specifier built at run time, so no graph or lock file the
 * node starts from holds them), and the remote client (`mod.ts`) does not
 * reach `src/origin/pay` at all.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import { assert, assertEquals } from "../../support/assert.ts";
import { ROOT } from "../../support/cli_process.ts";

interface Dependency {
  specifier: string;
  code?: { specifier: string };
  type?: { specifier: string };
  isDynamic?: boolean;
}
interface Graph {
  modules: { specifier: string; kind?: string; dependencies?: Dependency[] }[];
}

async function graphOf(file: string): Promise<Graph> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json", file], stdout: "piped" }).output();
  assertEquals(out.code, 0);
  return JSON.parse(new TextDecoder().decode(out.stdout)) as Graph;
}

/** The modules reached from `root` by static imports alone, and the dynamic edges met on the way. */
function staticReach(graph: Graph, root: string): { reached: Set<string>; dynamic: string[] } {
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const reached = new Set<string>();
  const dynamic: string[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const at = queue.pop()!;
    if (reached.has(at)) continue;
    reached.add(at);
    for (const dep of bySpecifier.get(at)?.dependencies ?? []) {
      const target = dep.code?.specifier;
      if (!target) continue;
      if (dep.isDynamic) dynamic.push(`${at.replace(pathToFileURL(ROOT).href, "")} -> ${dep.specifier}`);
      else queue.push(target);
    }
  }
  return { reached, dynamic };
}

Deno.test("src/origin/pay/mod.ts names the x402 packages and viem nowhere: packages.ts loads them by a built specifier", async () => {
  const root = `${pathToFileURL(ROOT).href}src/origin/pay/mod.ts`;
  const graph = await graphOf(`${ROOT}src/origin/pay/mod.ts`);
  const { reached, dynamic } = staticReach(graph, root);
  assert(reached.has(`${pathToFileURL(ROOT).href}src/origin/pay/packages.ts`), "the loader is part of the entry");
  assertEquals(graph.modules.map((m) => m.specifier).filter((s) => /^npm:.*(x402|viem|\/ox@)/.test(s)), []);
  assertEquals(dynamic.filter((d) => /x402|viem/.test(d)), []);
});

Deno.test("the origin's client (src/origin/mod.ts) reaches client.payments but nothing of src/origin/pay, x402 or viem", async () => {
  const specifiers = (await graphOf(`${ROOT}src/origin/mod.ts`)).modules.map((m) => m.specifier);
  assert(specifiers.includes(`${pathToFileURL(ROOT).href}src/origin/client/payments.ts`));
  assertEquals(specifiers.filter((s) => /\/src\/origin\/pay\/|x402|viem|ethers/.test(s)), []);
});
