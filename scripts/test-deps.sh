#!/usr/bin/env bash
# Install what the test suite needs on a fresh Debian machine: the Docker engine and its tools
# (scripts/engine.sh), Podman (scripts/podman.sh), Prometheus, which scrapes `serve` in the
# metrics test, and Debian's Chromium, which the dashboard's browser tests drive
# (test/integration/browser; never a downloaded browser). Run as root; what is already there is
# left alone.
set -euo pipefail
cd "$(dirname "$0")"
bash engine.sh install
bash podman.sh install
if ! command -v prometheus >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq prometheus >&2
fi
if ! command -v chromium >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq chromium >&2
fi
