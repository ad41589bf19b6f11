"""Reads a shared table with the protocol's own Python connector (delta-sharing, into pandas) and answers its rows.

stdin: {"profile": FILE, "table": "share.schema.table", "reads": [READ, ...]}, where a READ is
  {"name": N, "snapshot": {"version": V, "timestamp": T, "limit": L}}   (load_as_pandas; every key optional)
  {"name": N, "changes": {"starting_version": V, "ending_version": E}} (load_table_changes_as_pandas)
stdout: {N: {"columns": [...], "rows": [[...], ...]}, ...}, rows in the order the connector gave them.
"""
import delta_sharing

from _answer import answer, args, done, plain


def rows_of(df):
    return {"columns": list(df.columns), "rows": [[plain(v) for v in row] for row in df.itertuples(index=False)]}


def main():
    given = args()
    url = f"{given['profile']}#{given['table']}"
    out = {}
    for read in given["reads"]:
        if "snapshot" in read:
            df = delta_sharing.load_as_pandas(url, **read["snapshot"])
        else:
            df = delta_sharing.load_table_changes_as_pandas(url, **read["changes"])
        out[read["name"]] = rows_of(df)
    answer(out)


main()
done()
