#!/usr/bin/env bash
# Headless Chromium for FleetKit's browser tests (the HTML simulation report is rendered in a real browser).
#
#   scripts/chromium.sh install   install Debian's chromium and chromium-driver when missing (~40 s on a fresh machine)
#   scripts/chromium.sh env       print the setting the tests need (FLEETKIT_CHROMIUM, the browser binary)
#   scripts/chromium.sh status    print the browser version; exit 1 when there is none
#
# Nothing is started: each test runs `chromium --headless` itself and the browser exits with it. When
# -Dfleetkit.chromium is set the browser tests must run (they fail rather than skip); when unset they skip.
set -euo pipefail

log() { echo "chromium: $*" >&2; }

binary() {
  command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null || true
}

case "${1:-}" in
  install)
    if [ -z "$(binary)" ]; then
      start=$(date +%s)
      log "installing Debian packages chromium chromium-driver"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver \
        fonts-dejavu-core >/dev/null
      log "installed in $(( $(date +%s) - start )) s"
    fi
    "$(binary)" --version >&2
    ;;
  env)
    b=$(binary)
    [ -n "$b" ] || { log "not installed; run: scripts/chromium.sh install"; exit 1; }
    echo "FLEETKIT_CHROMIUM=$b"
    ;;
  status)
    b=$(binary)
    [ -n "$b" ] || { log "not installed"; exit 1; }
    "$b" --version
    ;;
  *)
    echo "usage: $0 install|env|status" >&2
    exit 2
    ;;
esac
