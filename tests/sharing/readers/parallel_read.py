"""Spark reading one table two ways, timed: through Delta Sharing (the node's pre-signed URLs) and as the same
Parquet files from local disk. The tasks of each read run at once, `cores` of them.

stdin: {"profile": FILE, "table": "share.schema.table", "files": [PARQUET, ...], "cores": N, "repeats": R}
stdout: {"sharing": READ, "local": READ}, READ = {"seconds": [...], "partitions", "count", "sum_id", "sum_score",
"name_bytes"}: the first read of each way is a warm-up, left out of "seconds"; reads alternate between the ways.
"""
import time

from pyspark.sql import functions as F

from _answer import answer, args
from _spark import session


def measure(df):
    # Every column decoded: sums of the numbers and the names' lengths (count(*) alone reads only the footers).
    started = time.perf_counter()
    row = df.agg(
        F.count(F.lit(1)).alias("count"),
        F.sum("id").alias("sum_id"),
        F.sum("score").alias("sum_score"),
        F.sum(F.length("name")).alias("name_bytes"),
    ).collect()[0]
    return time.perf_counter() - started, row.asDict()


def main():
    given = args()
    spark = session(given.get("cores", 2))
    ways = {
        "sharing": lambda: spark.read.format("deltaSharing").load(f"{given['profile']}#{given['table']}"),
        "local": lambda: spark.read.parquet(*given["files"]),
    }
    out = {}
    for name, make in ways.items():
        df = make()
        _, found = measure(df)
        out[name] = {"seconds": [], "partitions": df.rdd.getNumPartitions(), **found}
    for _ in range(given.get("repeats", 3)):
        for name, make in ways.items():
            seconds, found = measure(make())
            out[name]["seconds"].append(seconds)
    spark.stop()
    answer(out)


main()
