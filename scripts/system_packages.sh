#!/usr/bin/env bash
# The Debian packages `make test` needs, installed when missing: as root directly, else through
# `sudo -n` when that is allowed, else stop at once with the one line to run. Nothing to do (and
# nothing asked) when they are all there, or on a system without dpkg. Given package names
# (`scripts/system_packages.sh redis-server`, as `make run` does), only those.
set -euo pipefail

PACKAGES=(
    postgresql         # the concurrency tests run on a throw-away cluster (scripts/postgres.sh)
    redis-server       # the email integration tests run a real broker (tests/integration)
    chromium           # browser tests (Playwright drives Debian's chromium)
    gettext            # msgfmt: the translation catalogue tests (tests/test_translations.py)
    fonts-dejavu-core  # the browser tests' screenshots and contrast checks
    haproxy            # the several-node rehearsal (bench/cluster.py, tests/integration)
    prometheus         # its real scraper
)

command -v dpkg-query >/dev/null 2>&1 || exit 0
((${#} > 0)) && PACKAGES=("$@")
missing=()
for package in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
        missing+=("$package")
    fi
done
# The W3C HTML checker (vnu.jar, tests/web/test_html_valid.py) needs a Java runtime: any will do.
((${#} > 0)) || command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) -eq 0 ]]; then
    as_root=()
elif sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    echo "These Debian packages are needed; install them, then run make again:" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
fi
echo "Installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
