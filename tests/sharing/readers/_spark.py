"""A local Spark session with the Delta Sharing connector, as the reader tests and the spark_sharing benchmark start it.

scripts/readers/prepare.sh installs pyspark and resolves the connector's published jars from Maven Central with Maven;
the test harness (tests/support/readers.ts) passes those jars in SVC_READER_JARS and Java 17 in JAVA_HOME.
"""
import os

from pyspark.sql import SparkSession


def session(cores: int = 2) -> SparkSession:
    """Spark on this machine with `cores` task slots, the connector loaded and Delta's extension (for responseFormat=delta)."""
    jars = os.environ.get("SVC_READER_JARS", "")
    if not jars:
        raise SystemExit("SVC_READER_JARS names no jar: run this through tests/support/readers.ts")
    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("svc-readers")
        .config("spark.jars", jars)
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(cores))
        .config("spark.databricks.delta.snapshotPartitions", str(cores))
        .config("spark.driver.memory", os.environ.get("SVC_READER_SPARK_MEMORY", "1g"))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark
