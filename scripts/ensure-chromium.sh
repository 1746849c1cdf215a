#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; install it when it is missing (needs root, as on CI).
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ -x "$chromium_path" ]]; then exit 0; fi
if [[ $(id -u) -ne 0 ]]; then
  echo "Chromium is missing at $chromium_path. Install it with: sudo apt-get install -y chromium" >&2
  exit 1
fi
echo "Installing Debian's chromium for the browser tests…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
