#!/usr/bin/env bash
# What `npm test` needs from the system, all from Debian's packages: the three browser engines
# (Chromium; Firefox ESR; WebKitGTK's WebKitWebDriver + MiniBrowser, shown on Xvfb) and
# redis-server, Prometheus (promtool tests ops/engage-alerts.yml; a real server scrapes a real
# proxy for the dashboard's test, test/ops/) and nginx-light (a plain reverse proxy in front of the
# emulator). Missing ones are installed with apt-get when we are root (one `apt-get update`,
# only then); otherwise this fails with the command to run. Browser tests are never skipped, and
# no browser is ever downloaded (no `playwright install`).
set -euo pipefail

# binary path:Debian package
checks=(
  "${CHROMIUM_PATH:-/usr/bin/chromium}:chromium"
  "${FIREFOX_PATH:-/usr/bin/firefox-esr}:firefox-esr"
  "${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}:webkit2gtk-driver"
  "/usr/bin/Xvfb:xvfb"
  "/usr/bin/redis-server:redis-server"
  "/usr/bin/promtool:prometheus"
  "/usr/bin/prometheus:prometheus"
  "${NGINX_PATH:-/usr/sbin/nginx}:nginx-light"
)

missing() {
  local out=() entry
  for entry in "${checks[@]}"; do
    [ -x "${entry%%:*}" ] || out+=("${entry##*:}")
  done
  echo "${out[*]:-}"
}

packages=$(missing)
[ -z "$packages" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian packages for the tests: $packages (a few minutes on a fresh machine)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $packages >/dev/null
  packages=$(missing)
  [ -z "$packages" ] && exit 0
fi
echo "Missing for the tests: $packages. Install them: apt-get update && apt-get install -y --no-install-recommends $packages" >&2
echo "(or set CHROMIUM_PATH / FIREFOX_PATH / WEBKIT_DRIVER_PATH to existing binaries)." >&2
exit 1
