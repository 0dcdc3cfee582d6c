#!/bin/bash
# The command-line conventions a newcomer expects (issue 32): every command answers --help
# (and -h, and `fsbench help CMD`) on standard output with exit 0, and explains every option
# its usage line names; -V is --version; --format compilebench is in run --help and is
# refused where the phases cannot fill it; a run stopped by SIGINT exits 130 (128 + 2);
# sizes in messages in the unit that fits (TiB, not 501953696.9 MiB).
. "$(dirname "$0")/../lib/tap.sh"

lines() { printf "%s\n" "$1" | grep -c .; }
COMMANDS=$("$FSBENCH" --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
ok $([ "$(printf '%s\n' "$COMMANDS" | wc -l)" -ge 15 ] && echo 0 || echo 1) \
    "fsbench --help lists the commands ($(printf '%s' "$COMMANDS" | tr '\n' ' '))"

for c in $COMMANDS; do
    run_fsbench "$c" --help
    is "$RC:$ERR" "0:" "$c --help: exit 0, nothing on stderr"
    like "$OUT" "^usage: fsbench $c" "$c --help: starts with its usage"
    ok $([ "$(lines "$OUT")" -ge 3 ] && echo 0 || echo 1) "$c --help: more than a usage line ($(lines "$OUT") lines)"
    # every --option of the usage lines is explained on a line of its own
    usage=$(printf '%s\n' "$OUT" | grep -E '^(usage: | {5,}(fsbench|\[))')
    missing=""
    for o in $(printf '%s\n' "$usage" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
        printf '%s\n' "$OUT" | grep -qE -- "^ +(-[a-zA-Z][ ,] *[A-Z]*,? *)?$o\\b|;  $o\\b" ||
            missing="$missing $o"
    done
    is "$missing" "" "$c --help: every option of the usage line is explained"
    HELP=$OUT
    run_fsbench help "$c"
    is "$RC:$OUT" "0:$HELP" "help $c is $c --help"
    run_fsbench "$c" -h
    is "$RC:$OUT" "0:$HELP" "$c -h is $c --help"
done

run_fsbench help nosuch
is "$RC" 2 "help of an unknown command: exit 2"
is "$ERR" "fsbench: unknown command 'nosuch' (see 'fsbench --help')" "help nosuch: one line"
run_fsbench help
is "$RC" 0 "help alone: exit 0"
like "$OUT" "fsbench help COMMAND" "help alone: the top-level help, which names help COMMAND"

run_fsbench -V
V=$OUT
like "$V" "^fsbench [0-9]+\.[0-9]+" "-V: the version"
run_fsbench --version
is "$OUT" "$V" "-V is --version"

run_fsbench list --names
is "$RC" 2 "list --names without a kind: exit 2"
run_fsbench list --names=engines
like "$OUT" "^posix" "list --names=engines: the engines"

# --format compilebench: in run --help, and refused where no phase fills it
run_fsbench run --help
like "$OUT" "--format F +table \(default\); seeds" "run --help: --format names table and seeds"
like "$OUT" "compilebench \(compilebench's own" "run --help: and compilebench"
run_fsbench run --format compilebench --phases extract --no-save
is "$RC" 2 "run --format compilebench --phases extract: exit 2"
like "$ERR" "^fsbench: --format compilebench: the phases \(extract\) hold none of compilebench's" \
    "run --format compilebench --phases extract: says why"
is "$(lines "$ERR")" 1 "in one line"
is "$OUT" "" "and nothing on stdout"
run_fsbench run compilebench --format compilebench --dry-run --no-save
is "$RC" 0 "run compilebench --format compilebench --dry-run: accepted"

# sizes in the unit that fits
mkdir -p "$SCRATCH/e" && run_fsbench run --size 100T --no-save --dir "$SCRATCH/e"
is "$RC" 1 "--size 100T on a small disk: refused by the pre-flight, exit 1"
like "$ERR" "^fsbench: pre-flight: needs about [0-9]+\.[0-9] TiB free in $SCRATCH/e \(the tree and its copy\), and [0-9.]+ [KMGT]iB are" \
    "--size 100T: the space in TiB, what is free in its unit"
run_fsbench run --image 2000G --dry-run --no-save
like "$OUT" "a sparse image of 2\.0 TiB\)" "--image 2000G --dry-run: a sparse image of 2.0 TiB (not 2048000.0 MiB)"
run_fsbench list
like "$OUT" "pkgsrc +52000 files, [0-9]+ dirs, [0-9.]+ MiB, depth" "list: profile sizes in MiB"

# SIGINT: 130, as a shell reports an interrupted command (the run stops, one line names it)
if env --default-signal=INT true 2>/dev/null; then
    env --default-signal=INT "$FSBENCH" cmd --runs 3 --no-save -- sleep 30 \
        >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
    PID=$!
    for _ in $(seq 1 100); do pgrep -P "$PID" >/dev/null && break; sleep 0.05; done
    kill -INT "$PID"
    wait "$PID"
    is "$?" 130 "cmd interrupted by SIGINT: exit 130"
    is "$(lines "$(cat "$SCRATCH/err")")" 1 "one line on stderr says what stopped"
else
    skip "env --default-signal (coreutils 8.31)" 2
fi
done_testing
