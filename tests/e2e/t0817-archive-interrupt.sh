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
for sig in INT TERM QUIT; do
    set -m
    "$FSBENCH" run --tree tar:a.tgz --phases extract --no-save -q >/dev/null 2>"$SCRATCH/err" </dev/null &
    pid=$!
    set +m
    for _ in $(seq 1 500); do ls "$TMPDIR"/fsbench-tar.* >/dev/null 2>&1 && break; sleep 0.01; done
    copy=$(ls "$TMPDIR"/fsbench-tar.* 2>/dev/null)
    ok "$([ -n "$copy" ]; echo $?)" "SIG$sig: the decompressed copy was being written ($copy)"
    kill -s "$sig" "$pid"
    wait "$pid"
    is "$?" 1 "SIG$sig during decompression: exit 1"
    is "$(cat "$SCRATCH/err")" "fsbench: tar:a.tgz: decompression interrupted by SIG$sig (its copy removed)" \
        "SIG$sig: one line naming it"
    is "$(ls -A "$TMPDIR")" "" "SIG$sig: nothing left in TMPDIR"
done
done_testing
