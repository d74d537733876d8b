#!/usr/bin/env bash
# Redis for the cluster tests (tests/door/cluster start their own redis-server on a free
# port, keeping nothing on disk). Installs Debian's package when this is a root Debian
# machine without it; otherwise says why and the cluster tests skip. Always exits 0.
set -uo pipefail
say() { echo "redis.sh: $*" >&2; }
if command -v redis-server >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say "no redis-server and this is not a root Debian machine: the cluster tests will skip"
    exit 0
fi
say "installing Debian's redis-server package"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q redis-server </dev/null >/tmp/cribbage-redis-apt.log 2>&1; then
    apt-get update -q </dev/null >>/tmp/cribbage-redis-apt.log 2>&1
    apt-get install -y -q redis-server </dev/null >>/tmp/cribbage-redis-apt.log 2>&1 ||
        say "apt-get could not install redis-server (see /tmp/cribbage-redis-apt.log): the cluster tests will skip"
fi
# Debian's package starts a server on port 6379 as a service; the tests run their own.
exit 0
