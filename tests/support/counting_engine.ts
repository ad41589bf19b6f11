/**
 * A read engine that counts the connections asked of it: what tests of kept
 * answers (statistics, facets, sorted orders, footers) look at to hold that
 * a second answer asks DuckDB nothing.
 *
 * @module
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { ReadEngine } from "../../src/parquet/mod.ts";

/** `engine`, counting in `uses` the connections asked of it. */
export function counting(engine: ReadEngine): ReadEngine & { uses: number } {
  const counted = {
    uses: 0,
    scratch: engine.scratch,
    use<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
      counted.uses++;
      return engine.use(fn);
    },
    session: () => engine.session(),
    returnFreeMemory: () => engine.returnFreeMemory(),
    close: () => engine.close(),
  };
  return counted;
}
