#!/usr/bin/env bash
# What the browser tests need beyond `npm ci`: Debian's Chromium (never a browser a
# package downloads itself) and the example app built into examples/web/dist.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "The browser tests need Debian's Chromium at /usr/bin/chromium: sudo apt-get install chromium" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update </dev/null
  apt-get install -y --no-install-recommends chromium </dev/null
fi

# The example app is its own package with its own lockfile; its build also type-checks it.
(cd examples/web && npm ci --no-audit --no-fund && npm run build)
