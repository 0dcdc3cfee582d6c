# tap.sh — a small TAP library for fsbench's end-to-end tests (sourced, not run).
#
# Each test script runs in its own scratch directory ($SCRATCH), removed on exit together
# with anything mounted below it or any loop device attached by the script, also when a
# test fails. Assertions print "ok N - name" / "not ok N - name"; done_testing prints the
# plan. What a failed is/like got goes to stderr, which prove shows also when not verbose,
# so a failure in a CI log says what was wrong. $FSBENCH is the binary under test (the
# Makefile sets it).

set -u
: "${FSBENCH:=$(cd "$(dirname "$0")/../.." && pwd)/build/fsbench}"
export FSBENCH
TAP_N=0
TAP_FAILED=0
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/fsbench-test.XXXXXX")
LOOPS=""
# Runs must not touch the user's own results store.
export XDG_DATA_HOME="$SCRATCH/xdg"

tap_cleanup() {
    tap_unlock
    # Unmount deepest first, then detach loop devices we attached, then remove.
    if [ -r /proc/self/mountinfo ]; then
        awk -v s="$SCRATCH" 'index($5, s) == 1 {print $5}' /proc/self/mountinfo |
            sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
    fi
    for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
    rm -rf "$SCRATCH"
}
trap tap_cleanup EXIT
trap 'exit 130' INT TERM

# Tests may run side by side (make check runs prove -j). Each holds the suite's lock shared
# for its whole run; tap_alone makes it exclusive, so that test runs with no other at once:
# a test that leaves on purpose what a killed run leaves (a mounted image, an attached loop
# device) and then looks at it needs that, because any run on an image releases such
# leftovers wherever it finds them, and they may be another test's. The lock is held by a
# process of its own, so that no program a test starts inherits it; it ends with the test.
TAP_LOCK="${TMPDIR:-/tmp}/fsbench-tests.lock"
TAP_HOLDER=""
tap_lock() { # tap_lock -s|-x
    command -v flock >/dev/null 2>&1 || return 0
    local ready="$TAP_LOCK.$$$1"
    # the holder ends with the test, whatever ends it
    (exec 9>>"$TAP_LOCK" && flock "$1" 9 && : >"$ready" &&
        while kill -0 $$ 2>/dev/null; do sleep 1; done) </dev/null >/dev/null 2>&1 &
    TAP_HOLDER=$!
    while [ ! -e "$ready" ] && kill -0 "$TAP_HOLDER" 2>/dev/null; do sleep 0.05; done
    rm -f "$ready"
}
tap_unlock() {
    [ -n "$TAP_HOLDER" ] || return 0
    kill "$TAP_HOLDER" 2>/dev/null
    wait "$TAP_HOLDER" 2>/dev/null
    TAP_HOLDER=""
}
tap_alone() { tap_unlock; tap_lock -x; }
tap_lock -s

ok() { # ok CONDITION-EXIT-STATUS NAME
    local status=$1; shift
    TAP_N=$((TAP_N + 1))
    if [ "$status" -eq 0 ]; then
        echo "ok $TAP_N - $*"
    else
        echo "not ok $TAP_N - $*"
        TAP_FAILED=$((TAP_FAILED + 1))
    fi
}

is() { # is GOT EXPECTED NAME
    local got=$1 want=$2; shift 2
    if [ "$got" = "$want" ]; then
        ok 0 "$*"
    else
        ok 1 "$*"
        echo "#   got:      '$got'" >&2
        echo "#   expected: '$want'" >&2
    fi
}

like() { # like TEXT REGEX NAME
    local text=$1 re=$2; shift 2
    if printf '%s\n' "$text" | grep -Eq -- "$re"; then
        ok 0 "$*"
    else
        ok 1 "$*"
        echo "#   '$text'" >&2
        echo "#   does not match /$re/" >&2
    fi
}

skip() { # skip REASON COUNT
    local reason=$1 n=${2:-1} i
    for i in $(seq 1 "$n"); do
        TAP_N=$((TAP_N + 1))
        echo "ok $TAP_N # skip $reason"
    done
}

skip_all() {
    echo "1..0 # skip $*"
    exit 0
}

diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

need_root() { [ "$(id -u)" -eq 0 ] || skip_all "needs root"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip_all "needs $1"; }

# mount_tmpfs DIR SIZE: a tmpfs of SIZE at DIR (created), removed by the cleanup.
mount_tmpfs() {
    mkdir -p "$1" && mount -t tmpfs -o "size=$2" fsbench-test "$1"
}

# run_fsbench ARGS...: runs fsbench; sets OUT, ERR and RC.
run_fsbench() {
    "$FSBENCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
    RC=$?
    OUT=$(cat "$SCRATCH/out")
    ERR=$(cat "$SCRATCH/err")
}

done_testing() {
    echo "1..$TAP_N"
    [ "$TAP_FAILED" -eq 0 ]
}
