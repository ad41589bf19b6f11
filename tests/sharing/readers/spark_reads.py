"""Reads a shared table with Spark and the Delta Sharing Spark connector, and answers what each read found.

stdin: {"profile": FILE, "table": "share.schema.table", "cores": N, "metrics": URL, "token": T, "reads": [READ, ...]}
where a READ is {"name": N, "options": {...spark reader options...}, "filter": SQL, "key": COLUMN, "table": T,
"conf": {...Spark settings for this read only...}} (all but the name optional; "table" overrides the default).
stdout: {N: {"count", "sum", "distinct", "min", "max", "columns", "partitions", "skipped", "listed"}, ...}: the
aggregates are over the `key` column; skipped and listed are what the node's svc_delta_sharing_files_total counted
while that read ran (from its /metrics; 0 without "metrics").
"""
import re
import urllib.request

from pyspark.sql import functions as F

from _answer import answer, args
from _spark import session


def files_counted(metrics, token) -> dict:
    if not metrics:
        return {"listed": 0, "skipped": 0}
    request = urllib.request.Request(metrics, headers={"authorization": f"Bearer {token}"} if token else {})
    text = urllib.request.urlopen(request).read().decode()
    found = {"listed": 0, "skipped": 0}
    for outcome, value in re.findall(r'^svc_delta_sharing_files_total\{outcome="(\w+)"\} (\S+)$', text, re.M):
        found[outcome] = int(float(value))
    return found


def main():
    given = args()
    spark = session(given.get("cores", 2))
    out = {}
    for read in given["reads"]:
        path = f"{given['profile']}#{read.get('table', given['table'])}"
        for key, value in read.get("conf", {}).items():
            spark.conf.set(key, value)
        before = files_counted(given.get("metrics"), given.get("token"))
        reader = spark.read.format("deltaSharing")
        for key, value in read.get("options", {}).items():
            reader = reader.option(key, value)
        df = reader.load(path)
        if read.get("filter"):
            df = df.filter(read["filter"])
        key = F.col(read.get("key", "id"))
        row = df.agg(
            F.count(F.lit(1)).alias("count"),
            F.sum(key).alias("sum"),
            F.countDistinct(key).alias("distinct"),
            F.min(key).alias("min"),
            F.max(key).alias("max"),
        ).collect()[0]
        after = files_counted(given.get("metrics"), given.get("token"))
        for key in read.get("conf", {}):
            spark.conf.unset(key)
        out[read["name"]] = {
            **row.asDict(),
            "columns": df.columns,
            "partitions": df.rdd.getNumPartitions(),
            "skipped": after["skipped"] - before["skipped"],
            "listed": after["listed"] - before["listed"],
        }
    spark.stop()
    answer(out)


main()
