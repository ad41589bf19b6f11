"""What every reader script shares: its arguments (JSON on stdin) and its answer (one JSON line on stdout)."""
import json
import math
import os
import sys


def args() -> dict:
    """The arguments the test passed."""
    return json.load(sys.stdin)


def plain(value):
    """`value` as JSON takes it: numpy and pandas scalars unwrapped, NaN and NaT as null, timestamps in ms."""
    if value is None:
        return None
    if hasattr(value, "timestamp") and hasattr(value, "isoformat"):
        return int(round(value.timestamp() * 1000))
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def answer(result) -> None:
    """Writes `result` as the script's one line of output."""
    sys.stdout.write(json.dumps(result, default=plain) + "\n")
    sys.stdout.flush()


def done() -> None:
    """Ends a pandas reader once its answer is out, skipping the interpreter's teardown: under load the connector's
    native thread pool has aborted the process there ("terminate called without an active exception", exit 134)
    after every answer was written. A script that started Spark stops it first and returns normally instead."""
    sys.stderr.flush()
    os._exit(0)
