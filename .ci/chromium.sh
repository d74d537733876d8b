#!/usr/bin/env bash
# Chromium for the browser tests (tests/door/transports/test_web.py drive it with Playwright, pointed
# at the system's browser: nothing is downloaded by the tests themselves). Installs
# Debian's package when this is a root Debian machine without it; otherwise says why and
# the browser tests skip with that reason. Always exits 0.
set -uo pipefail
say() { echo "chromium.sh: $*" >&2; }
. "$(dirname "$0")/apt.sh"
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if ! can_apt; then
    say "no chromium and this is not a root Debian machine: the browser tests will skip"
    exit 0
fi
say "installing Debian's chromium package"
apt_install chromium chromium ||
    say "apt-get could not install chromium (see /tmp/cribbage-chromium-apt.log): the browser tests will skip"
exit 0
