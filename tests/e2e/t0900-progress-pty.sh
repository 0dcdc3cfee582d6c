#!/bin/bash
# The live progress line: on a terminal (a pseudo-terminal made by script(1)) fsbench
# rewrites one line in place on stderr while phases run; with stderr a file, or with
# --quiet, none of it appears, and the results table is the same either way.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd script

mkdir "$SCRATCH/w"
ARGS="run --no-save --phases extract,statwalk,delete --tree tiny --scale 4 --runs 2 --interval 20 --dir $SCRATCH/w"

# On a terminal: script runs the command with stdin, stdout and stderr on a pty and
# copies what the terminal saw to its own stdout (200 columns: the line is cut to the
# terminal's width).
script -qfec "stty cols 200; $FSBENCH $ARGS" /dev/null >"$SCRATCH/tty" 2>&1 </dev/null
is "$?" 0 "run on a terminal exits 0"
TTY=$(tr '\r' '\n' <"$SCRATCH/tty")
like "$TTY" 'run 1/2 \(round 1\) extract [0-9]+ ops [0-9.k]+ ops/s [0-9.:]+s ETA \?' \
    "first run: the line names run, round, phase, operations, rate and an unknown ETA"
like "$TTY" 'run 2/2 \(round 2\) (extract|statwalk|delete) ~[0-9]+/[0-9]+ entries .* ETA [0-9.:]+s? \| set [0-9.:]+s? ETA [0-9.:]+' \
    "second run: entries done of expected, phase and set ETA from the first run"
script -qfec "stty cols 40; $FSBENCH $ARGS" /dev/null >"$SCRATCH/tty40" 2>&1 </dev/null
is "$(tr '\r' '\n' <"$SCRATCH/tty40" | grep 'run [12]/2' | sed 's/\x1b\[K$//' | awk '{ if (length($0) > m) m = length($0) } END { print m }')" 39 \
    "on a 40-column terminal the line is cut to 39 columns"
ok $(grep -q $'\r' "$SCRATCH/tty" && grep -q $'\033\\[K' "$SCRATCH/tty" && echo 0 || echo 1) \
    "the line is rewritten in place (carriage return, erase to end of line)"
like "$TTY" '^extract +2 ' "the results table follows on the terminal"
# the table's lines carry no progress text: the line is erased before anything else
ok $(tr '\r' '\n' <"$SCRATCH/tty" | grep -E '^(extract|statwalk|delete) +2 ' | grep -q ETA && echo 1 || echo 0) \
    "no table row is mixed with the progress line"

# stderr to a file: no progress at all.
"$FSBENCH" $ARGS >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
is "$?" 0 "run with stderr to a file exits 0"
ok $(grep -q 'ETA' "$SCRATCH/err" "$SCRATCH/out" && echo 1 || echo 0) "stderr a file: no progress line"
ok $(grep -q $'\r' "$SCRATCH/err" && echo 1 || echo 0) "stderr a file: no carriage return"
like "$(cat "$SCRATCH/out")" '^extract +2 ' "stderr a file: the table on stdout"

# --quiet on a terminal: none either.
script -qfec "$FSBENCH $ARGS --quiet" /dev/null >"$SCRATCH/tty2" 2>&1 </dev/null
is "$?" 0 "run --quiet on a terminal exits 0"
ok $(grep -q 'ETA' "$SCRATCH/tty2" && echo 1 || echo 0) "--quiet: no progress line on the terminal"
like "$(tr '\r' '\n' <"$SCRATCH/tty2")" '^extract +2 ' "--quiet: the table is still printed"
done_testing
