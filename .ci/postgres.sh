#!/usr/bin/env bash
# A throw-away PostgreSQL server for the storage tests.
#
#   url="$(bash .ci/postgres.sh)"    start one (installing Debian's package if need be) and
#                                    print its URL on stdout, e.g.
#                                    postgresql+asyncpg://postgres@127.0.0.1:40123/cribbage_test
#   bash .ci/postgres.sh stop        stop it again
#
# When PostgreSQL cannot be installed or started this says why on stderr, prints nothing
# on stdout and still exits 0: the tests then skip their PostgreSQL half with a message.
# The cluster lives in $CRIBBAGE_PG_DIR (default /tmp/cribbage-postgres), trusts local
# connections, listens only on 127.0.0.1 on a free port, and runs with fsync off: it is
# for tests, never for data anyone keeps. Starting it again while it runs reuses it.
set -uo pipefail

base="${CRIBBAGE_PG_DIR:-/tmp/cribbage-postgres}"
data="$base/data"
database="cribbage_test"

say() { echo "postgres.sh: $*" >&2; }
. "$(dirname "$0")/apt.sh"
give_up() { say "$* - the PostgreSQL tests will be skipped"; exit 0; }

# Run a PostgreSQL program as the cluster's owner: the postgres user when we are root
# (the server refuses to run as root), else ourselves.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

find_bin() {
    local found
    found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    if [ -n "$found" ] && [ -x "$found/initdb" ]; then
        echo "$found"
    elif command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    fi
}

bin="$(find_bin)"

if [ "${1:-}" = "stop" ]; then
    if [ -n "$bin" ] && [ -f "$data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >&2 || say "could not stop $data"
    fi
    exit 0
fi

if [ -z "$bin" ]; then
    if ! can_apt; then
        give_up "PostgreSQL is not installed and this is not a root Debian machine"
    fi
    say "installing Debian's postgresql package"
    apt_install postgres postgresql ||
        give_up "apt-get install postgresql failed (see /tmp/cribbage-postgres-apt.log)"
    bin="$(find_bin)"
    [ -n "$bin" ] || give_up "the postgresql package installed no initdb"
fi

if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    give_up "there is no postgres user to run the server as"
fi

mkdir -p "$base" || give_up "cannot create $base"
[ "$(id -u)" = 0 ] && chown postgres "$base"

# Already running from an earlier start: print its URL again.
if [ -f "$base/port" ] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    echo "postgresql+asyncpg://postgres@127.0.0.1:$(cat "$base/port")/$database"
    exit 0
fi

rm -rf "$data"
if ! as_owner "$bin/initdb" -D "$data" -U postgres -A trust -E UTF8 --no-sync \
    >"$base/initdb.log" 2>&1; then
    give_up "initdb failed (see $base/initdb.log)"
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')" ||
    give_up "could not find a free port"
echo "$port" >"$base/port"

if ! as_owner "$bin/pg_ctl" -D "$data" -l "$base/server.log" -w -t 60 \
    -o "-p $port -c listen_addresses=127.0.0.1 -k $base -c fsync=off -c full_page_writes=off" \
    start >&2; then
    give_up "the server did not start (see $base/server.log)"
fi

if ! as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres "$database" >&2; then
    give_up "createdb $database failed"
fi

say "PostgreSQL from $bin running on 127.0.0.1:$port (stop it with: bash .ci/postgres.sh stop)"
echo "postgresql+asyncpg://postgres@127.0.0.1:$port/$database"
