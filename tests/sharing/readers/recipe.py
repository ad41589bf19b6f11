"""Runs one of docs/delta-sharing.md's Python recipes verbatim and answers what its DataFrames hold.

stdin: {"code": PYTHON, "cwd": DIR, "spark": BOOL, "cores": N}: the recipe runs in DIR (where its profile file is);
a Spark recipe finds `spark` made, as in the pyspark shell. stdout: whatever the recipe prints, then one line
{NAME: {"count", "sum", "distinct"}, ...} for every DataFrame it left (pandas or Spark), over its `id` column.
"""
import os

import pandas

from _answer import answer, args, done


def summary(value):
    if isinstance(value, pandas.DataFrame):
        return {"count": len(value), "sum": int(value["id"].sum()), "distinct": int(value["id"].nunique())}
    try:
        from pyspark.sql import DataFrame, functions as F
    except ImportError:  # the pandas readers alone: no Spark installed, so no Spark DataFrame either
        return None

    if isinstance(value, DataFrame):
        row = value.agg(F.count(F.lit(1)), F.sum("id"), F.countDistinct("id")).collect()[0]
        return {"count": row[0], "sum": row[1], "distinct": row[2]}
    return None


def main():
    given = args()
    os.chdir(given["cwd"])
    names = {}
    if given.get("spark"):
        from _spark import session

        names["spark"] = session(given.get("cores", 2))
    exec(compile(given["code"], "docs/delta-sharing.md", "exec"), names)
    out = {name: s for name, value in names.items() if (s := summary(value)) is not None}
    spark = "spark" in names
    if spark:
        names["spark"].stop()
    answer(out)
    return spark


if not main():
    done()
