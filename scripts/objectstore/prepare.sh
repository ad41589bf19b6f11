#!/usr/bin/env bash
# Installs the S3-compatible server the object-store tests start (tests/support/s3_server.ts): Versity's S3 gateway,
# built by `go install` from the Go module proxy at a pinned version, into a cache folder outside the repository.
# Building takes about four minutes on two cores the first time; after that it is a file check.
#
#   eval "$(scripts/objectstore/prepare.sh)"   # sets SVC_VERSITYGW (the tests find the default path without it)
#
# SVC_OBJECTSTORE_CACHE (default /var/tmp/svc-objectstore) keeps the binary between runs; Go itself comes from Debian
# (golang-go) when it is missing and this runs as root, and fetches the toolchain the module asks for if it is older.
set -euo pipefail
VERSITYGW_VERSION=v1.8.0
SVC_OBJECTSTORE_CACHE=${SVC_OBJECTSTORE_CACHE:-/var/tmp/svc-objectstore}
bin="$SVC_OBJECTSTORE_CACHE/versitygw-$VERSITYGW_VERSION"

if [ ! -x "$bin/versitygw" ]; then
  if ! command -v go >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "error: Go is needed to build versitygw: install golang-go (or Go 1.25 or later)" >&2
      exit 1
    fi
    echo "installing Debian's golang-go" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends golang-go ca-certificates >/dev/null
  fi
  echo "building github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION with $(go version) (a few minutes)" >&2
  mkdir -p "$bin.partial"
  GOBIN="$bin.partial" GOTOOLCHAIN=${GOTOOLCHAIN:-auto} \
    go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" >&2
  rm -rf "$bin"
  mv "$bin.partial" "$bin"
fi
echo "versitygw $VERSITYGW_VERSION ready: $bin/versitygw" >&2
printf 'export SVC_VERSITYGW=%q\n' "$bin/versitygw"
