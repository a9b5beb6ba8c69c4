#!/usr/bin/env bash
# The Redis store's tests (and the multi-instance e2e and bench) need a real redis-server. Install
# Debian's when missing and we may (root + apt-get); otherwise fail with the command to run: those
# tests are never skipped and never run against a mock.
set -euo pipefail
bin="${REDIS_SERVER_PATH:-/usr/bin/redis-server}"
[ -x "$bin" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "redis-server missing: installing Debian's redis-server via apt-get..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  [ -x "$bin" ] && exit 0
fi
echo "redis-server not found at $bin. Install it: apt-get update && apt-get install -y --no-install-recommends redis-server (or set REDIS_SERVER_PATH)." >&2
exit 1
