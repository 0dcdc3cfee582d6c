# fault.sh — helpers for the fault-injection tests (t08xx); sourced after tap.sh.
#
# Every case checks the same four things after fsbench met a fault:
#  - exit status and exactly one line on stderr ("fsbench: ..."), matching what the fault
#    must say;
#  - the results store: `pragma integrity_check` says ok and the runs finished before the
#    fault are still there;
#  - nothing outside the run's own directory changed: a sentinel tree beside it is compared
#    by name, size, mode and mtime (sentinel_make / sentinel_check);
#  - no mount or loop device left behind (checked by the callers that make them).

# sentinel_make DIR: a few files and a subdirectory, and a listing of them in DIR.list.
sentinel_make() {
    mkdir -p "$1/sub"
    echo keep >"$1/a"
    head -c 5000 /dev/zero >"$1/sub/b"
    ln -sf a "$1/link"
    sentinel_list "$1" >"$1.list"
}
sentinel_list() { (cd "$1" && find . -printf '%p %y %s %m %T@\n' | sort); }
# sentinel_check DIR WHAT: one assertion that DIR is as sentinel_make left it.
sentinel_check() {
    is "$(sentinel_list "$1" 2>&1)" "$(cat "$1.list")" "$2: nothing outside the run directory changed"
}

# store_runs DB: runs saved in the store (0 when there is none yet). Read as $AS (a setpriv
# prefix, when the store belongs to another user: files root made beside it would lock
# that user out).
store_runs() {
    [ -s "$1" ] || { echo 0; return; }
    ${AS:-} sqlite3 "$1" 'select count(*) from runs' 2>/dev/null || echo 0
}
# store_check DB MIN WHAT: two assertions: integrity ok, and at least MIN runs saved.
store_check() {
    is "$(sqlite3 "$1" 'pragma integrity_check' 2>&1)" ok "$3: store integrity_check ok"
    local n
    n=$(store_runs "$1")
    ok $([ "$n" -ge "$2" ] && echo 0 || echo 1) "$3: the $2 run(s) finished before the fault are saved ($n)"
}

# one_line WHAT REGEX: two assertions on $ERR (from run_fsbench): exactly one line, and it
# matches REGEX. The line each finished run writes when stderr is no terminal ("fsbench:
# run 1/3 (round 1) done in 2.1s | set 33% ETA 4.2s") is progress, not a message: left out.
one_line() {
    diag "stderr: $ERR"
    ERR=$(printf '%s\n' "$ERR" | grep -Ev '^fsbench: (.* )?run [0-9]+/[0-9]+ \(round [0-9]+\) done in ')
    is "$(printf '%s\n' "$ERR" | grep -c .)" 1 "$1: exactly one line on stderr"
    like "$ERR" "$2" "$1: the line says what happened"
}

# wait_runs DB N SECONDS PID: waits until the store holds N runs, PID ended or time ran out.
wait_runs() {
    local i
    for i in $(seq 1 $(($3 * 20))); do
        [ "$(store_runs "$1")" -ge "$2" ] && return 0
        kill -0 "$4" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
