#!/usr/bin/env bash
# Install what the test suite needs on a fresh Debian machine (`npm test` runs it first): the
# Docker engine and its tools (scripts/engine.sh), Podman (scripts/podman.sh), Prometheus, which
# scrapes `serve` in the metrics test (and its promtool, which checks examples/prometheus), its
# Alertmanager, which the alert tests deliver to, nats-server, which nodes over NATS dial out to,
# and Debian's Chromium, which the browser tests drive (test/integration/browser; never a
# downloaded browser), with Noto's colour emoji, so that the page's cluster icons (🐳, 🦭) are
# drawn as a user's browser draws them, not as empty boxes (the README's screenshots too). What
# is already there is left alone, and with everything there it returns at once; a missing
# package needs root: anyone else is told what to install, and the tests do not start.
set -euo pipefail
. "$(dirname "$0")/engine-lib.sh"
need_packages "${ENGINE_PACKAGES[@]}" podman=podman prometheus=prometheus prometheus-alertmanager=prometheus-alertmanager nats-server=nats-server chromium=chromium \
  /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf=fonts-noto-color-emoji
