#!/usr/bin/env bash
# Redis for the cluster tests (tests/door/cluster start their own redis-server on a free
# port, keeping nothing on disk). Installs Debian's package when this is a root Debian
# machine without it; otherwise says why and the cluster tests skip. Always exits 0.
set -uo pipefail
say() { echo "redis.sh: $*" >&2; }
. "$(dirname "$0")/apt.sh"
if command -v redis-server >/dev/null 2>&1; then
    exit 0
fi
if ! can_apt; then
    say "no redis-server and this is not a root Debian machine: the cluster tests will skip"
    exit 0
fi
say "installing Debian's redis-server package"
apt_install redis redis-server ||
    say "apt-get could not install redis-server (see /tmp/cribbage-redis-apt.log): the cluster tests will skip"
# Debian's package starts a server on port 6379 as a service; the tests run their own.
exit 0
