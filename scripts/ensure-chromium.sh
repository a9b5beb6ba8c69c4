#!/usr/bin/env bash
# The browser suites need Debian's Chromium. Install it when missing and we may (root + apt-get);
# otherwise fail with the command to run: browser tests are never skipped.
set -euo pipefail
bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$bin" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Chromium missing: installing Debian's chromium via apt-get (about a minute)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
  [ -x "$bin" ] && exit 0
fi
echo "Chromium not found at $bin. Install it: apt-get update && apt-get install -y --no-install-recommends chromium (or set CHROMIUM_PATH)." >&2
exit 1
