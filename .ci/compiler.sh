#!/usr/bin/env bash
# A C compiler, for the door's compiled parts (door/term/*.c, door/ui/*.c, engine/*.c):
# installs Debian's gcc (and Python's headers, if missing) when this is a root Debian
# machine without them. Without them the install still works (the parts are optional,
# and the door uses the Python beside each), but CI checks that they were built, so
# that their tests run. Always exits 0.
set -uo pipefail
say() { echo "compiler.sh: $*" >&2; }
. "$(dirname "$0")/apt.sh"
headers="$(python -c 'import os, sysconfig; print(os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))')"
if command -v cc >/dev/null 2>&1 && [ "$headers" = True ]; then
    exit 0
fi
if ! can_apt; then
    say "no C compiler or no Python.h, and this is not a root Debian machine: the door's compiled parts will not be built"
    exit 0
fi
packages="gcc libc6-dev"
if [ "$headers" != True ]; then
    packages="$packages python3-dev"  # the headers of Debian's own Python
fi
say "installing Debian's $packages"
apt_install gcc $packages || say "apt-get could not install $packages (see /tmp/cribbage-gcc-apt.log)"
exit 0
