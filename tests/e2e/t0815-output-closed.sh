#!/bin/bash
# Standard output that cannot be written (issue 18): a pipe whose reader ended, a full
# device. fsbench ignores SIGPIPE, so `fsbench run JOB.ini | head -1` no longer dies
# silently before the file's later jobs, and `fsbench cmd --runs 5 ... | head -1` no
# longer stops after one run: the set finishes, every run is saved, one line on stderr says
# what happened and what is kept, exit 1. Every command checks its output: `> full` is one
# line and exit 1 (run, compare, tree stats and list said success; runs and show failed
# without a word).
. "$(dirname "$0")/../lib/tap.sh"
need_cmd python3
need_cmd jq
cd "$SCRATCH" || exit 1
DB=$SCRATCH/r.db

# closed CMD...: runs CMD with its standard output a pipe whose read end is already closed
# (python restores SIGPIPE's default for the child, as a shell does); sets RC and ERR.
closed() {
    python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stdout=w, stdin=subprocess.DEVNULL))' "$@" 2>"$SCRATCH/err"
    RC=$?
    ERR=$(cat "$SCRATCH/err")
}
# lines of stderr but the plain progress line of each finished run (stderr is no terminal)
lines() { printf '%s\n' "$1" | grep -Ev '^fsbench: (.* )?run [0-9]+/[0-9]+ .*done in ' | grep -c .; }

cat >two.ini <<'INI'
[global]
tree = tiny
phases = extract,delete
label = pj
[a]
[b]
INI
closed "$FSBENCH" run two.ini --db "$DB"
is "$RC" 1 "run JOB.ini into a closed pipe: exit 1 (not killed by SIGPIPE)"
like "$ERR" "^fsbench: standard output was closed before the end \(the reader of the pipe ended\): the 1 run is saved as 'pj-a'$" \
    "one line saying so, and what is saved"
is "$(lines "$ERR")" 1 "only that line"
run_fsbench runs --db "$DB"
is "$(printf '%s\n' "$OUT" | grep -cE ' pj-[ab] ')" 2 "both jobs ran and are stored (a label names one set: pj-a, pj-b)"

closed "$FSBENCH" cmd --runs 3 --label cc --db "$DB" -- true
is "$RC" 1 "cmd --runs 3 into a closed pipe: exit 1"
like "$ERR" "the 3 runs are saved as 'cc'\$" "the line says all 3 runs are saved"
is "$(lines "$ERR")" 1 "in one line"
run_fsbench export cc --json --db "$DB"
is "$(printf '%s\n' "$OUT" | jq '.runs | length')" 3 "the store holds the 3 runs"

# fsbench list | head -1: the man page's promise (one line, exit 1), not a death by SIGPIPE
# (141): every command ignores SIGPIPE, not only run and cmd
for c in list runs "list --names phases" "--help" "run --help"; do
    closed "$FSBENCH" $c
    is "$RC" 1 "$c into a closed pipe: exit 1 (not 141)"
    is "$ERR" "fsbench: standard output was closed before the end (the reader of the pipe ended)" \
        "$c into a closed pipe: one line on stderr"
done

# a full device of our own (the null device's sibling: major 1, minor 7)
mknod "$SCRATCH/full" c 1 7 || skip_all "cannot make a full device"
full_is() { # full_is NAME ARGS...: fsbench ARGS > full: exit 1 and one line
    local name=$1
    shift
    "$FSBENCH" "$@" >"$SCRATCH/full" 2>"$SCRATCH/err" </dev/null
    RC=$?
    ERR=$(cat "$SCRATCH/err")
    is "$RC" 1 "$name > full: exit 1"
    like "$ERR" "^fsbench: cannot write to standard output: No space left on device" "$name > full: says so"
    is "$(lines "$ERR")" 1 "$name > full: in one line"
}
full_is "run" run --tree tiny --phases extract,delete -q --db "$DB" --label f1
like "$ERR" "the 1 run is saved as 'f1'" "run > full: the run is saved all the same"
full_is "runs" runs --db "$DB"
full_is "show" show pj-a --db "$DB"
full_is "compare" compare pj-a pj-b --db "$DB"
full_is "export --json" export pj-a --json --db "$DB"
full_is "tree stats" tree stats pkgsrc
full_is "list" list
full_is "--help" --help
done_testing
