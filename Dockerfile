# syntax=docker/dockerfile:1
# The svc node. BASE is any Debian-based image, Deno's own by default; Deno
# itself is always taken from its npm package (pinned version, checked hash),
# so the same file builds from a bare Debian base too:
#   podman build --format docker --build-arg BASE=localhost/svc-localbase:bookworm -t svc .
# (scripts/container/prepare.sh builds that base from Debian's packages with debootstrap.)
ARG BASE=docker.io/denoland/deno:debian-2.9.6

FROM ${BASE} AS build
ARG DENO_VERSION=2.9.6
ARG NPM_REGISTRY=https://registry.npmjs.org
# sha512 of the npm tarballs @deno/linux-{x64,arm64}-glibc@DENO_VERSION (empty: the registry's own integrity)
ARG DENO_SHA512_AMD64=de67784ca2c2bb3b0b0e67cea02e4a37b34065ac525643209bae2f83a7e80f4d090400c2a584b6ff942a5dfce09cfe59433de22cff6f05026d120735d7a380a1
ARG DENO_SHA512_ARM64=
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*
# A TLS-intercepting proxy's CA, when the build needs one: --secret id=ca_bundle,src=/etc/ssl/certs/ca-certificates.crt
RUN --mount=type=secret,id=ca_bundle,required=false set -eu; \
    if [ -f /run/secrets/ca_bundle ]; then export CURL_CA_BUNDLE=/run/secrets/ca_bundle; fi; \
    case "$(dpkg --print-architecture)" in \
      amd64) arch=x64; want="$DENO_SHA512_AMD64" ;; \
      arm64) arch=arm64; want="$DENO_SHA512_ARM64" ;; \
      *) echo "no Deno build for $(dpkg --print-architecture)" >&2; exit 1 ;; \
    esac; \
    pkg="@deno/linux-$arch-glibc"; \
    curl -fsSL "$NPM_REGISTRY/$pkg/-/linux-$arch-glibc-$DENO_VERSION.tgz" -o /tmp/deno.tgz; \
    if [ -z "$want" ]; then \
      want=$(curl -fsSL "$NPM_REGISTRY/$pkg/$DENO_VERSION" | grep -o '"integrity":"sha512-[^"]*"' | head -n1 \
        | cut -d'"' -f4 | cut -d- -f2- | base64 -d | od -An -v -tx1 | tr -d ' \n'); \
    fi; \
    echo "$want  /tmp/deno.tgz" | sha512sum -c -; \
    tar -xzf /tmp/deno.tgz -C /tmp; \
    install -m 0755 /tmp/package/deno /usr/local/bin/deno; \
    rm -rf /tmp/deno.tgz /tmp/package; \
    /usr/local/bin/deno --version
ENV DENO_DIR=/app/.deno DENO_NO_UPDATE_CHECK=1 NO_COLOR=1
WORKDIR /app
COPY deno.json deno.lock cli.ts mod.ts server.ts ./
COPY src ./src
# Everything the node, its SQL workers, the entrypoint and the health check load, fetched now: the
# container needs no network to start. deno.lock holds what the node runs and nothing of the tests, benchmarks
# or builds (deno.dev.lock has those), nor DuckDB's musl build (Deno would install it beside the glibc one, not
# reading npm's libc field: denoland/deno#35038; scripts/trim_locks.ts) nor the payment packages (a purchase
# loads them on first use).
RUN --mount=type=secret,id=ca_bundle,required=false \
    if [ -f /run/secrets/ca_bundle ]; then export DENO_CERT=/run/secrets/ca_bundle; fi; \
    /usr/local/bin/deno install --frozen --entrypoint cli.ts src/sql/worker_main.ts \
      src/container/entrypoint.ts src/container/healthcheck.ts \
 && chmod -R a+rX /app

FROM ${BASE}
USER root
COPY --from=build /usr/local/bin/deno /usr/local/bin/deno
COPY --from=build /app /app
RUN mkdir -p /data && chown 10001:10001 /data && chmod 0750 /data
ENV DENO_DIR=/app/.deno DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
    SVC_NODE_PORT=8686 SVC_TRUST_FILE=/data/trust.json
USER 10001:10001
WORKDIR /data
VOLUME /data
EXPOSE 8686
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/deno", "run", "--quiet", "--no-prompt", "--cached-only", "--config", "/app/deno.json", \
       "--allow-net=127.0.0.1", "--allow-env=SVC_NODE_PORT", "/app/src/container/healthcheck.ts"]
# PID 1: plans the run, pins keys if asked, starts the node under narrowed permissions, forwards SIGTERM.
ENTRYPOINT ["/usr/local/bin/deno", "run", "--quiet", "--no-prompt", "--cached-only", "--config", "/app/deno.json", \
            "--allow-read", "--allow-env", "--allow-sys=systemMemoryInfo", "--allow-run=/usr/local/bin/deno", \
            "/app/src/container/entrypoint.ts"]
