# Sourced by the .ci scripts that install a Debian package a test needs when it is
# missing (chromium.sh, compiler.sh, postgres.sh, redis.sh).

# Whether packages can be installed here: a root Debian machine.
can_apt() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1
}

# apt_install NAME PACKAGE...: install the packages, updating the package lists and
# trying again if the first try fails; apt-get's output goes to
# /tmp/cribbage-NAME-apt.log. Returns apt-get's status.
apt_install() {
    local log="/tmp/cribbage-$1-apt.log"
    shift
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$@" </dev/null >"$log" 2>&1 && return 0
    apt-get update -q </dev/null >>"$log" 2>&1
    apt-get install -y -q "$@" </dev/null >>"$log" 2>&1
}
