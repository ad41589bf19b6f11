/**
 * Spark through the fleet's HAProxy (tests/fleet/_sharing.ts): three readers
 * holding one store's copy and one node token, a recipient made with
 * `svc share add` on the store before it was copied, a profile whose
 * endpoint is the balancer. Spark with the Delta Sharing Spark connector
 * reads through HAProxy (the table, `versionAsOf`, a filter, `responseFormat=delta`,
 * the change feed), so a file URL one reader signed is fetched from another;
 * HAProxy's log says which reader answered what. pandas through the same
 * fleet is tests/fleet/sharing_readers_test.ts, which CI runs; this one needs
 * the Spark connector (see spark_test.ts) and runs with `deno task test:readers`.
 */
import { assert, assertEquals, type Json } from "../../support/assert.ts";
import { readers, runReader } from "../../support/readers.ts";
import { citiesStore, tempDir } from "../../support/store_fixture.ts";
import { requireTools } from "../../fleet/_fleet.ts";
import { loggedRequests } from "../../fleet/_haproxy.ts";
import { fetchesFile, FLEET_TOKEN, issuesUrls, type SharingFleet, startSharingFleet } from "../../fleet/_sharing.ts";
import { aggregates, pageRecords } from "../_tables.ts";

Deno.test({
  name: "fleet: Spark reads through HAProxy; file URLs one reader signed are fetched from the others",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await requireTools("haproxy:haproxy");
  // Before anything starts: prepare.sh's reason, when the Spark connector is not there.
  await readers("spark");
  const dir = await tempDir("svc-fleet-spark-");
  let fleet: SharingFleet | null = null;
  try {
    fleet = await startSharingFleet(dir.path, async (store) => {
      await citiesStore(store);
    });
    const node = fleet.readers[0].url;
    const newest = await pageRecords(node, FLEET_TOKEN, "cities", null);
    const v1 = await pageRecords(node, FLEET_TOKEN, "cities", 1);
    const spark = await runReader<Record<string, Json>>("spark_reads.py", {
      profile: fleet.profile,
      table: "svc.default.cities",
      reads: [
        { name: "newest" },
        { name: "v1", options: { versionAsOf: 1 } },
        { name: "filtered", filter: "id >= 550" },
        { name: "delta", options: { responseFormat: "delta" } },
        { name: "changes", options: { readChangeFeed: "true", startingVersion: 1, endingVersion: 1 } },
      ],
    }, { spark: true });
    const of = (f: Json) => [f.count, f.sum, f.distinct, f.min, f.max];
    assertEquals(of(spark.answer.newest), aggregates(newest));
    assertEquals(of(spark.answer.v1), aggregates(v1));
    assertEquals(of(spark.answer.filtered), aggregates(newest.filter((r) => r.id >= 550)));
    assertEquals(of(spark.answer.delta), aggregates(newest));
    assertEquals(of(spark.answer.changes), aggregates(v1));

    const log = loggedRequests(fleet.balancer.output());
    const parts = log.filter(fetchesFile);
    const byReader = new Map<string, number>();
    for (const p of parts) byReader.set(p.reader, (byReader.get(p.reader) ?? 0) + 1);
    console.log(
      `fleet: ${log.length} requests through HAProxy, ${parts.length} of them file URLs: ${
        [...byReader].map(([r, n]) => `${r} ${n}`).join(", ")
      }; queries answered by ${[...new Set(log.filter(issuesUrls).map((l) => l.reader))]}`,
    );
    const failed = log.filter((l) => l.status !== 200 && l.status !== 206);
    assertEquals(failed, [], "every request through HAProxy was answered");
    assert(byReader.size >= 2, "the file URLs were fetched from more than one reader");
    assert(
      parts.some((p) => log.slice(0, log.indexOf(p)).findLast(issuesUrls)?.reader !== p.reader),
      "a file URL was fetched from a reader other than the one whose query issued it",
    );
  } finally {
    await fleet?.stop();
    await dir.cleanup();
  }
});
