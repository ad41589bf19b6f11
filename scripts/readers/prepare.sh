#!/usr/bin/env bash
# Installs the real Delta Sharing readers that the reader tests (tests/sharing/pandas_test.ts,
# tests/fleet/sharing_readers_test.ts, tests/sharing/spark/) and the spark_sharing benchmark drive, pinned, outside
# git, in two parts:
#
#   pandas  the protocol's Python connector delta-sharing with pandas and pyarrow, from PyPI into a venv, exactly as
#           scripts/readers/requirements.txt pins them;
#   spark   the Delta Sharing Spark connector made for Spark 4.0.1, io.delta:delta-sharing-spark_2.13:4.0.1, and Delta
#           Lake's io.delta:delta-spark_2.13:4.0.1 (responseFormat=delta reads through it), with what they need beyond
#           Spark, resolved from Maven Central by the machine's Maven: a pom naming them is written into the cache at
#           run time and `mvn dependency:copy-dependencies` fetches the published jars; then pyspark 4.0.1 (Spark 4.0.1
#           on Scala 2.13) into the venv, as scripts/readers/requirements-spark.txt pins it. Java 17 and Maven come
#           from Debian when missing (as root).
#
# When Maven Central does not serve the connector (as the registry this project's machines reach does not), the spark
# part says so in one line and is not installed; the pandas part is installed all the same.
#
#   scripts/readers/prepare.sh                 # installs what is missing; exit 0 when the pandas part is ready
#   scripts/readers/prepare.sh spark           # the same, but exit 1 unless the spark part is ready too
#   scripts/readers/prepare.sh --check [spark] # installs nothing: says how each part stands; exits as above
#
# All print the path of readers-KEY.json (python, packages; spark: javaHome, jars, connector, or null) on stdout.
# Installs live under SVC_READERS_HOME (default ~/.cache/svc-readers), each keyed by the hash of what it was made from:
# the pins and the Python interpreter python3 names here (its path and version: a pyenv shim and Debian's python3 are
# two installs, side by side, so that runs whose PATH differs never take each other's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
home=${SVC_READERS_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-readers}
check_only=0
need=pandas
for arg in "$@"; do
  case "$arg" in
    --check) check_only=1 ;;
    pandas | spark) need=$arg ;;
    *) echo "usage: scripts/readers/prepare.sh [--check] [pandas|spark]" >&2; exit 2 ;;
  esac
done

CONNECTOR=io.delta:delta-sharing-spark_2.13:4.0.1
DELTA=io.delta:delta-spark_2.13:4.0.1

say() { echo "readers: $*" >&2; }
fail() {
  echo "error: $*" >&2
  exit 1
}

# The pom the spark part resolves: it names the published artifacts and builds nothing.
connector_pom() {
  local coordinates group artifact version dependencies=""
  for coordinates in "$CONNECTOR" "$DELTA"; do
    IFS=: read -r group artifact version <<<"$coordinates"
    dependencies+="
    <dependency><groupId>$group</groupId><artifactId>$artifact</artifactId><version>$version</version></dependency>"
  done
  cat <<XML
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by scripts/readers/prepare.sh: the Delta Sharing Spark connector and Delta Lake as Maven Central
     publishes them, for mvn dependency:copy-dependencies. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.svc-readers</groupId>
  <artifactId>spark-connector</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>$dependencies
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-dependency-plugin</artifactId>
          <version>3.8.1</version>
        </plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
XML
}

# Keyed by the interpreter and the pins, not their comments.
interpreter=$(cd "$here" && python3 -c 'import sys; print(sys.executable, sys.version)' 2>&1)
python_key=$(cd "$here" && { echo "$interpreter"; grep -hv '^#' requirements.txt requirements-spark.txt; } |
  sha256sum | cut -c1-16)
spark_key=$(connector_pom | sha256sum | cut -c1-16)
venv="$home/python-$python_key"
spark="$home/spark-$spark_key"
# Why the last try could not install the spark part: one line.
spark_missing="$home/spark-missing.txt"
manifest="$home/readers-$python_key.json"

pandas_ready() { [ -f "$venv/.ready" ] && [ -f "$manifest" ] && grep -q "\"$python_key\"" "$manifest"; }
spark_ready() { pandas_ready && [ -f "$spark/.ready" ] && grep -q "\"$spark_key\"" "$manifest"; }

if [ "$check_only" = 1 ]; then
  if pandas_ready; then
    say "pandas: ready in $venv ($(tr -d '\n' < "$venv/.ready"))"
  else
    say "pandas: not installed for this tree under $home"
  fi
  # Under `--check spark` a missing spark part is the error below, said once.
  if spark_ready; then
    say "spark: ready in $spark ($CONNECTOR from Maven Central)"
  elif [ "$need" = pandas ] && [ -f "$spark_missing" ]; then
    say "spark: not installed: $(cat "$spark_missing")"
  elif [ "$need" = pandas ]; then
    say "spark: not installed for this tree under $home: run scripts/readers/prepare.sh spark"
  fi
  pandas_ready || fail "the Delta Sharing readers (pandas) are not installed: run scripts/readers/prepare.sh (PyPI, a \
few minutes the first time)"
  if [ "$need" = spark ] && ! spark_ready; then
    [ -f "$spark_missing" ] && fail "$(cat "$spark_missing")"
    fail "the Spark reader ($CONNECTOR) is not installed: run scripts/readers/prepare.sh spark"
  fi
  echo "$manifest"
  exit 0
fi

# A Java 17 or newer: SVC_READERS_JAVA_HOME, else Debian's 17, else the first JDK found.
find_java() {
  local candidate major
  for candidate in "${SVC_READERS_JAVA_HOME:-}" /usr/lib/jvm/java-17-openjdk-* /usr/lib/jvm/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$("$candidate/bin/java" -version 2>&1 | sed -nE 's/.*version "([0-9]+).*/\1/p' | head -n1)
    [ -n "$major" ] && [ "$major" -ge 17 ] && { echo "$candidate"; return 0; }
  done
  return 1
}

# Installs Debian's packages $@ (as root); on failure sets $problem and returns 1.
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    problem="$* is missing: apt-get install $* (as root), then run scripts/readers/prepare.sh again"
    return 1
  fi
  say "installing $* from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "$@" >/dev/null && return 0
  problem="apt-get could not install $*"
  return 1
}

# The spark part: Java, Maven, and the published connector's jars in $spark/jars. On failure sets $problem (one line)
# and returns 1.
install_spark() {
  java_home=$(find_java) || { apt_install openjdk-17-jdk-headless && java_home=$(find_java); } ||
    { problem=${problem:-"no Java 17 found for Spark"}; return 1; }
  [ -f "$spark/.ready" ] && return 0
  command -v mvn >/dev/null || apt_install maven || return 1
  rm -rf "$spark"
  mkdir -p "$spark"
  connector_pom >"$spark/pom.xml"
  # -U: a miss Maven remembered from an earlier try is asked again.
  if ! JAVA_HOME="$java_home" mvn -B -U -f "$spark/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$spark/jars" >"$spark/maven.log" 2>&1; then
    if grep -q "Could not find artifact ${CONNECTOR%:*}:jar:${CONNECTOR##*:}" "$spark/maven.log"; then
      problem="$CONNECTOR is not served by Maven Central as this machine reaches it, so Spark cannot read Delta \
Sharing here: the Spark tests (deno task test:readers) and deno task bench spark_sharing cannot run"
    else
      problem="Maven could not resolve $CONNECTOR from Maven Central: $(grep -m1 '^\[ERROR\]' "$spark/maven.log" |
        cut -c9-300) (log: $spark/maven.log)"
    fi
    return 1
  fi
  touch "$spark/.ready"
}

# The pandas part: the pinned Python packages in $venv.
install_pandas() {
  [ -f "$venv/.ready" ] && return 0
  say "Python packages from PyPI into $venv (a minute or two)"
  rm -rf "$venv"
  python3 -m venv "$venv" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$venv"; } ||
    fail "${problem:-python3 -m venv failed}"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$here/requirements.txt" >&2 ||
    fail "pip could not install scripts/readers/requirements.txt"
  "$venv/bin/python" -c 'from importlib.metadata import version
print(", ".join(f"{n} {version(n)}" for n in ["delta-sharing", "pandas", "pyarrow"]))' >"$venv/.ready"
}

# Spark itself, once its connector could be had: pyspark into the venv (430 MB: a few minutes).
install_pyspark() {
  "$venv/bin/python" -c 'import pyspark' 2>/dev/null && return 0
  say "pyspark from PyPI into $venv (430 MB: a few minutes)"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$here/requirements-spark.txt" >&2 ||
    fail "pip could not install scripts/readers/requirements-spark.txt"
}

if spark_ready; then
  echo "$manifest"
  exit 0
fi
mkdir -p "$home"
# The spark part goes first: `prepare.sh spark` stops at once when the connector cannot be had.
problem=""
if install_spark; then
  rm -f "$spark_missing"
else
  echo "$problem" >"$spark_missing"
  [ "$need" = spark ] && fail "$problem"
fi
install_pandas
[ -f "$spark/.ready" ] && install_pyspark

# What Spark ships already (pyspark's jars/, e.g. antlr4-runtime) stays off the list: one copy of a class on the path.
SVC_MANIFEST="$manifest" SVC_VENV="$venv" SVC_PYTHON_KEY="$python_key" SVC_SPARK="$spark" SVC_SPARK_KEY="$spark_key" \
  SVC_JAVA_HOME="${java_home:-}" SVC_CONNECTOR="$CONNECTOR" "$venv/bin/python" - <<'PY'
import json, os, re
from importlib.metadata import version

env = os.environ
spark_dir = env["SVC_SPARK"]
spark = None
if os.path.exists(os.path.join(spark_dir, ".ready")):
    import pyspark
    shipped = {re.sub(r"-[0-9][^-]*\.jar$", "", j) for j in os.listdir(os.path.join(os.path.dirname(pyspark.__file__), "jars"))}
    jars = sorted(j for j in os.listdir(os.path.join(spark_dir, "jars")) if re.sub(r"-[0-9][^-]*\.jar$", "", j) not in shipped)
    spark = {
        "javaHome": env["SVC_JAVA_HOME"],
        "jars": [os.path.join(spark_dir, "jars", j) for j in jars],
        "key": env["SVC_SPARK_KEY"],
        "connector": f"{env['SVC_CONNECTOR']} from Maven Central",
    }
manifest = {
    "python": os.path.join(env["SVC_VENV"], "bin", "python"),
    "pythonKey": env["SVC_PYTHON_KEY"],
    "packages": {name: version(name) for name in ["delta-sharing", "pandas", "pyarrow"] + (["pyspark"] if spark else [])},
    "spark": spark,
}
tmp = f"{env['SVC_MANIFEST']}.{os.getpid()}"
with open(tmp, "w") as f:
    json.dump(manifest, f, indent=2)
    f.write("\n")
os.replace(tmp, env["SVC_MANIFEST"])
PY
# Installs of other pins or interpreters are kept while they are used (a run whose PATH names another python3 may be
# using one now) and removed after 30 days unused; connector-* folders, which earlier versions of this script built
# from sources, go at once, and so does the readers.json of earlier versions.
touch "$venv" "$manifest"
find "$home" -maxdepth 1 \( -name 'python-*' -o -name 'spark-*' -o -name 'readers-*.json' \) -mtime +30 \
  -exec rm -rf {} + 2>/dev/null || true
rm -rf "$home"/connector-* "$home/readers.json"
if [ -f "$spark/.ready" ]; then
  say "ready: pandas ($(tr -d '\n' < "$venv/.ready")) and spark ($CONNECTOR, Java at $java_home)"
else
  say "pandas ready ($(tr -d '\n' < "$venv/.ready")); spark not installed: $problem"
fi
echo "$manifest"
