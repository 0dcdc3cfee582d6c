#!/bin/bash
# Progress (issues 10, 22): on a terminal (a pseudo-terminal made by script(1)) fsbench
# rewrites one line in place on stderr while phases run, with a percentage, operations done
# of those the phase will make and an ETA from the first run on (the tree's counts say
# how many), and the set's percentage and ETA; on a managed target the line names the
# configuration. With stderr a file, one plain line per finished run instead; with --quiet,
# none. The results table is the same either way.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd script

mkdir "$SCRATCH/w"
ARGS="run --no-save --phases extract,statwalk,delete --tree tiny --scale 4 --runs 2 --interval 20 --dir $SCRATCH/w"
N='[0-9][0-9,]*'
D='[0-9][0-9.hms]*'

# On a terminal: script runs the command with stdin, stdout and stderr on a pty and
# copies what the terminal saw to its own stdout (200 columns: the line is cut to the
# terminal's width).
script -qfec "stty cols 200; $FSBENCH $ARGS" /dev/null >"$SCRATCH/tty" 2>&1 </dev/null
is "$?" 0 "run on a terminal exits 0"
TTY=$(tr '\r' '\n' <"$SCRATCH/tty" | sed 's/\x1b\[K$//')
like "$TTY" "^run 1/2 extract [0-9]+% $N/$N ops $N ops/s ETA $D \| set [0-9]+% ETA (\?|~?$D)$" \
    "first run: phase, percentage, operations done of its total, rate and a numeric ETA"
like "$TTY" "^run 1/2 delete [0-9]+% $N/$N ops $N ops/s ETA $D \|" \
    "first run: a later phase's total is known too"
like "$TTY" "^run 2/2 (extract|statwalk|delete) [0-9]+% $N/$N ops $N ops/s ETA $D \| set [0-9]+% ETA $D$" \
    "second run: the set's ETA from the first run"
script -qfec "stty cols 40; $FSBENCH $ARGS" /dev/null >"$SCRATCH/tty40" 2>&1 </dev/null
is "$(tr '\r' '\n' <"$SCRATCH/tty40" | grep 'run [12]/2' | sed 's/\x1b\[K$//' | awk '{ if (length($0) > m) m = length($0) } END { print m }')" 39 \
    "on a 40-column terminal the line is cut to 39 columns"
ok $(grep -q $'\r' "$SCRATCH/tty" && grep -q $'\033\\[K' "$SCRATCH/tty" && echo 0 || echo 1) \
    "the line is rewritten in place (carriage return, erase to end of line)"
like "$TTY" '^extract +2 ' "the results table follows on the terminal"
# the table's lines carry no progress text: the line is erased before anything else
ok $(tr '\r' '\n' <"$SCRATCH/tty" | grep -E '^(extract|statwalk|delete) +2 ' | grep -q ETA && echo 1 || echo 0) \
    "no table row is mixed with the progress line"

# stderr to a file: a plain line per finished run, nothing rewritten.
"$FSBENCH" $ARGS >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
is "$?" 0 "run with stderr to a file exits 0"
like "$(sed -n 1p "$SCRATCH/err")" "^fsbench: run 1/2 \(round 1\) done in $D \| set 50% ETA $D$" \
    "stderr a file: a plain line for the first run"
like "$(sed -n 2p "$SCRATCH/err")" "^fsbench: run 2/2 \(round 2\) done in $D \| set 100% ETA 0.0s$" \
    "stderr a file: and for the second"
is "$(wc -l <"$SCRATCH/err")" 2 "stderr a file: nothing else"
ok $(grep -q $'\r' "$SCRATCH/err" && echo 1 || echo 0) "stderr a file: no carriage return"
like "$(cat "$SCRATCH/out")" '^extract +2 ' "stderr a file: the table on stdout"

# --quiet on a terminal: none either.
script -qfec "$FSBENCH $ARGS --quiet" /dev/null >"$SCRATCH/tty2" 2>&1 </dev/null
is "$?" 0 "run --quiet on a terminal exits 0"
ok $(grep -q 'ETA' "$SCRATCH/tty2" && echo 1 || echo 0) "--quiet: no progress line on the terminal"
like "$(tr '\r' '\n' <"$SCRATCH/tty2")" '^extract +2 ' "--quiet: the table is still printed"

# A managed target on a loop image: the configuration leads the line.
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null && command -v losetup >/dev/null; then
    . "$(dirname "$0")/../lib/target.sh"
    script -qfec "stty cols 200; $FSBENCH run testdisk --image 128M --fs ext4 --mount-opts defaults --mount-opts noatime --tree tiny --scale 4 --interval 20 --no-save" \
        /dev/null >"$SCRATCH/tty3" 2>&1 </dev/null
    is "$?" 0 "testdisk on a loop image on a terminal exits 0"
    TTY=$(tr '\r' '\n' <"$SCRATCH/tty3" | sed 's/\x1b\[K$//')
    like "$TTY" "^ext4:(defaults|noatime) run 1/2 extract [0-9]+% $N/$N ops $N ops/s ETA $D \| set [0-9]+% ETA" \
        "loop image: configuration, run of the set, extract's percentage and ETA on the first run"
    like "$TTY" "^ext4:(defaults|noatime) run 2/2 (extract|delete) [0-9]+% .* \| set [0-9]+% ETA $D$" \
        "loop image: the second run has the set's ETA"
    nothing_left "progress on a loop image"
else
    skip "needs root, losetup and mkfs.ext4 for a loop image" 5
fi
done_testing
