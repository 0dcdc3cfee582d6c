#!/bin/bash
# fsbench cmd: any command timed like a phase; several --cmd are configurations run
# interleaved in rounds, which compare pairs by round; a failing command fails the run
# with its status and the last line of its stderr; --prepare runs before each run.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }

run_fsbench cmd --runs 3 --no-save -- true
is "$RC" 0 "cmd --runs 3 --no-save -- true exits 0"
like "$OUT" '^cmd +3 +[0-9.]+ \[' "table has a cmd row over 3 runs"
like "$OUT" 'scenario cmd, .*3 runs' "report header: scenario cmd, 3 runs"
ok $([ -e "$XDG_DATA_HOME/fsbench/results.db" ] && echo 1 || echo 0) "--no-save saved nothing"

# Two commands, interleaved in rounds.
DB=$SCRATCH/cmd.db
J=$SCRATCH/fast.json
run_fsbench cmd --runs 3 --db "$DB" --label fast --cmd 'sleep 0.05' --cmd 'sleep 0.2' --json "$J"
is "$RC" 0 "cmd with two --cmd exits 0"
like "$OUT" "^saved as 'fast' \(6 runs\)$" "saved 3 rounds x 2 commands as 'fast'"
is "$(jq '.runs | length' "$J")" 6 "JSON: 6 runs"
is "$(jq -c '[.runs[].round] | unique' "$J")" '[0,1,2]' "JSON: rounds 0..2"
is "$(jq -c '[.runs | group_by(.round)[] | [.[].config] | sort] | unique' "$J")" \
    '[["sleep 0.05","sleep 0.2"]]' "JSON: every round holds both commands once"
is "$(jq -c '[.runs[].round] as $r | $r == ($r | sort)' "$J")" true \
    "JSON: runs in round order (interleaved, not batched)"
is "$(jq -r '[.runs[].phases[] | select(.name == "cmd" and .status == "ok")] | length' "$J")" 6 \
    "JSON: each run has an ok cmd phase"
short=$(jq '[.runs[] | select(.config == "sleep 0.05") | .phases[0].wall_s] | max' "$J")
long=$(jq '[.runs[] | select(.config == "sleep 0.2") | .phases[0].wall_s] | min' "$J")
ok $(awk -v s="$short" -v l="$long" 'BEGIN {exit !(s >= 0.05 && l >= 0.2 && s < l)}' && echo 0 || echo 1) \
    "measured wall times fit the commands (sleep 0.05 max $short, sleep 0.2 min $long)"

run_fsbench compare --verbose --db "$DB" fast
is "$RC" 0 "compare fast (one label, two configurations) exits 0"
like "$OUT" '^  sleep 0\.2 vs sleep 0\.05: sleep 0\.2 is [0-9.]+x slower than sleep 0\.05 ' \
    "compare: the second command is slower"
like "$OUT" '^  sleep 0\.2 vs sleep 0\.05: .*paired by round \(3 pairs\)$' "compare: paired by round, 3 pairs"
ok $(printf '%s\n' "$OUT" | grep -q 'not interleaved' && echo 1 || echo 0) \
    "compare does not call interleaved runs batches"

# A failing command.
run_fsbench cmd --runs 2 --no-save --cmd 'echo boom >&2; exit 3'
is "$RC" 1 "a failing command exits 1"
LASTERR=$(printf '%s\n' "$ERR" | tail -n 1)
like "$LASTERR" '^fsbench: .*status 3.*boom' "final stderr line names status 3 and 'boom'"
is "$(printf '%s\n' "$ERR" | grep -c '^fsbench: ')" 1 "one fsbench error line"

# --prepare runs before each run.
P=$SCRATCH/prepared
run_fsbench cmd --runs 3 --no-save --prepare "touch $P; echo x >>$SCRATCH/prep.log" -- test -e "$P"
is "$RC" 0 "cmd with --prepare exits 0 (the command found the prepared file)"
ok $([ -e "$P" ] && echo 0 || echo 1) "--prepare created the file"
is "$(wc -l <"$SCRATCH/prep.log" 2>/dev/null)" 3 "--prepare ran once per run"

# No command.
run_fsbench cmd --no-save
is "$RC" 2 "cmd without a command exits 2"
like "$(printf '%s\n' "$ERR" | tail -n 1)" '^fsbench: cmd: no command' "no command: the message says so"
is "$(lines "$ERR")" 1 "no command: one line on stderr (README: every error is one line)"

# A program that cannot run at all: one line before anything runs, no table.
run_fsbench cmd --runs 2 --no-save -- /nonexistent/binary
is "$RC:$OUT" "1:" "cmd -- /nonexistent/binary: exit 1, nothing on stdout"
is "$ERR" "fsbench: cmd: cannot run /nonexistent/binary: No such file or directory" "and one line saying why"
run_fsbench cmd --runs 2 --no-save -- no-such-program-here arg
is "$ERR" "fsbench: cmd: cannot run no-such-program-here: no such program in PATH" "a bare name not in PATH: one line"
# A command that fails: its name as typed, quoted once (never ''doubled'')
run_fsbench cmd --runs 1 --no-save -- sh -c 'exit 3'
like "$ERR" "phase cmd: sh -c 'exit 3' exited with status 3" "a failing command: named as typed"
done_testing
