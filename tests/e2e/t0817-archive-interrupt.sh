#!/bin/bash
# A signal while an archive is decompressed, before the first phase (issue 18): the
# handlers are installed first thing, so SIGINT, SIGTERM or SIGQUIT there stop fsbench with
# one line naming the signal, exit 1, and the decompressed copy (hundreds of MB in TMPDIR)
# is removed. Before, every such signal left it behind.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd gzip
cd "$SCRATCH" || exit 1
# 400 MB of zeros, compressed to under 2 MB: its decompression takes a second or two
head -c 400M /dev/zero >big && tar -cf - big | gzip -1 >a.tgz && rm -f big
export TMPDIR=$SCRATCH/t
mkdir "$TMPDIR"
# start: fsbench decompressing a.tgz in the background, its pid in $pid, its copy in $copy
# and the copy's size when it was seen in $seen
start() {
    set -m
    "$FSBENCH" run --tree tar:a.tgz --phases extract --no-save -q >/dev/null 2>"$SCRATCH/err" </dev/null &
    pid=$!
    set +m
    copy="" seen=0
    for _ in $(seq 1 500); do
        copy=$(ls "$TMPDIR"/fsbench-tar.* 2>/dev/null) && break
        sleep 0.01
    done
    [ -n "$copy" ] && seen=$(stat -c %s "$copy" 2>/dev/null || echo 0)
}
FULL=$((400 * 1024 * 1024))
for sig in INT TERM QUIT; do
    # on a busy machine the copy may be whole before the signal is sent: then the run is
    # ended and tried again (the signal must come while the copy is written)
    for try in 1 2 3 4 5; do
        start
        [ -z "$copy" ] || [ "$seen" -lt "$FULL" ] && break
        diag "SIG$sig: the copy was whole ($seen bytes) before the signal; try $try again"
        kill -s KILL "$pid"
        wait "$pid"
        rm -rf "${TMPDIR:?}"/*
    done
    ok "$([ -n "$copy" ] && [ "$seen" -lt "$FULL" ]; echo $?)" \
        "SIG$sig: the decompressed copy was being written ($copy, $seen bytes)"
    kill -s "$sig" "$pid"
    wait "$pid"
    is "$?" $((128 + $(kill -l $sig))) "SIG$sig during decompression: exit 128 + its number"
    is "$(cat "$SCRATCH/err")" "fsbench: tar:a.tgz: decompression interrupted by SIG$sig (its copy removed)" \
        "SIG$sig: one line naming it"
    is "$(ls -A "$TMPDIR")" "" "SIG$sig: nothing left in TMPDIR"
done
done_testing
