#!/usr/bin/env bash
# The demo search page's browser test (Tests/Browser/search_page_test.py) in a headless Chromium.
#
#   bash .ci/browser.sh install   # Debian's chromium and chromium-driver, and selenium from PyPI, when missing
#   bash .ci/browser.sh run       # installs what is missing, then runs the test against .build-server/debug/suggest
#
# selenium goes into the running python3 when pip may install there; where it may not (Debian's own python3 is
# "externally managed", PEP 668) into a virtual environment in .build-server/browser-venv.
# Settings: SUGGEST_BINARY (default .build-server/debug/suggest), SUGGEST_BROWSER_ARTEFACTS (default
# .build-server/browser-artefacts: screenshots, and the page's HTML on failure).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.build-server/browser-venv
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo

apt_install() {
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# Prints the python that has selenium, installing it first if none has.
python_with_selenium() {
  if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import selenium' 2>/dev/null; then echo "$VENV/bin/python"; return; fi
  if python3 -c 'import selenium' 2>/dev/null; then echo python3; return; fi
  if python3 -m pip install -q selenium >&2 2>/dev/null && python3 -c 'import selenium' 2>/dev/null; then
    echo python3; return
  fi
  python3 -m venv "$VENV" >&2 2>/dev/null || { apt_install python3-venv >&2; python3 -m venv "$VENV" >&2; }
  "$VENV/bin/python" -m pip install -q selenium >&2
  echo "$VENV/bin/python"
}

install() {
  local missing=()
  command -v python3 >/dev/null 2>&1 || missing+=(python3 python3-pip)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
  python_with_selenium >/dev/null
}

run() {
  install
  local python; python="$(python_with_selenium)"
  # timeout: a last guard (the test stops itself after --deadline 300 s).
  timeout --kill-after=10 360 "$python" Tests/Browser/search_page_test.py \
    --suggest "${SUGGEST_BINARY:-.build-server/debug/suggest}" \
    --artefacts "${SUGGEST_BROWSER_ARTEFACTS:-.build-server/browser-artefacts}"
}

case "${1:-}" in
  install) install ;;
  run) run ;;
  *) echo "usage: bash .ci/browser.sh install|run" >&2; exit 2 ;;
esac
