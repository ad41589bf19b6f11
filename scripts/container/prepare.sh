#!/usr/bin/env bash
# Prepares this machine to build and run the svc image with podman, as
# docs/operations.md and ../shared/design/container-testing.md describe: podman,
# runc, debootstrap, podman-compose, catatonit and the CNI dnsname plugin from Debian, a base image built from Debian's packages
# (no registry is needed), and a podman configuration of its own.
#
#   eval "$(scripts/container/prepare.sh)"   # sets CONTAINERS_CONF, CONTAINERS_STORAGE_CONF, SVC_IMAGE_BASE
#
# SVC_PODMAN_WORK (default /var/tmp/svc-podman) keeps the base and podman's storage between runs.
set -euo pipefail
SVC_PODMAN_WORK=${SVC_PODMAN_WORK:-/var/tmp/svc-podman}
mkdir -p "$SVC_PODMAN_WORK"

# catatonit: podman builds its pause image from it (kube play); the dnsname plugin: pods find each other by name on a
# network of their own (tests/image/kube_test.ts).
missing=()
for tool in podman runc debootstrap podman-compose; do command -v "$tool" >/dev/null || missing+=("$tool"); done
[ -x /usr/bin/catatonit ] || missing+=(catatonit)
[ -x /usr/lib/cni/dnsname ] || missing+=(golang-github-containernetworking-plugin-dnsname)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]} from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq podman runc debootstrap podman-compose catatonit \
    golang-github-containernetworking-plugin-dnsname >/dev/null
fi

cat >"$SVC_PODMAN_WORK/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
driver=overlay
if ! grep -qw overlay /proc/filesystems && ! modprobe overlay 2>/dev/null; then driver=vfs; fi
printf '[storage]\ndriver="%s"\ngraphroot="%s/podstore"\nrunroot="%s/podrun"\n' \
  "$driver" "$SVC_PODMAN_WORK" "$SVC_PODMAN_WORK" >"$SVC_PODMAN_WORK/storage.conf"
export CONTAINERS_CONF="$SVC_PODMAN_WORK/containers.conf"
export CONTAINERS_STORAGE_CONF="$SVC_PODMAN_WORK/storage.conf"

export SVC_IMAGE_BASE=localhost/svc-localbase:bookworm
if ! podman image exists "$SVC_IMAGE_BASE"; then
  mirror=$(grep -hoE '^URIs: *http[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | sed -E 's/^URIs: *//')
  mirror=${mirror:-$(grep -hoE '^deb +http[^ ]+' /etc/apt/sources.list 2>/dev/null | head -n1 | awk '{print $2}')}
  mirror=${mirror:-http://deb.debian.org/debian}
  rootfs="$SVC_PODMAN_WORK/rootfs"
  if [ ! -x "$rootfs/bin/sh" ]; then
    echo "debootstrap bookworm from $mirror" >&2
    rm -rf "$rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$SVC_PODMAN_WORK/debootstrap.log" 2>&1 ||
      { tail -n 20 "$SVC_PODMAN_WORK/debootstrap.log" >&2; exit 1; }
  fi
  tar -C "$rootfs" -c . | podman import - "$SVC_IMAGE_BASE" >/dev/null 2>&1
fi
echo "podman ready: base $SVC_IMAGE_BASE, storage $SVC_PODMAN_WORK ($driver)" >&2
printf 'export CONTAINERS_CONF=%q CONTAINERS_STORAGE_CONF=%q SVC_IMAGE_BASE=%q\n' \
  "$CONTAINERS_CONF" "$CONTAINERS_STORAGE_CONF" "$SVC_IMAGE_BASE"
