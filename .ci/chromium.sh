#!/usr/bin/env bash
# Chromium for the browser tests (tests/door/transports/test_web.py drive it with Playwright, pointed
# at the system's browser: nothing is downloaded by the tests themselves). Installs
# Debian's package when this is a root Debian machine without it; otherwise says why and
# the browser tests skip with that reason. Always exits 0.
set -uo pipefail
say() { echo "chromium.sh: $*" >&2; }
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say "no chromium and this is not a root Debian machine: the browser tests will skip"
    exit 0
fi
say "installing Debian's chromium package"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q chromium </dev/null >/tmp/cribbage-chromium-apt.log 2>&1; then
    apt-get update -q </dev/null >>/tmp/cribbage-chromium-apt.log 2>&1
    apt-get install -y -q chromium </dev/null >>/tmp/cribbage-chromium-apt.log 2>&1 ||
        say "apt-get could not install chromium (see /tmp/cribbage-chromium-apt.log): the browser tests will skip"
fi
exit 0
