#!/bin/bash
# run.sh — `make fuzz`: replays the kept crash inputs, then runs every libFuzzer target for
# a fixed time on its seed corpus and prints one line per target (executions, exec/s, new
# coverage). Fails when a target crashes; the input is kept under $BUILD/fuzz-crashes/ and
# belongs in tests/fuzz/regress/TARGET/ once fixed.
#   tests/fuzz/run.sh BUILD SECONDS
# Seeds: tests/fuzz/corpus/TARGET/ (text, committed) plus archives and SQLite stores made
# here with tar, gzip and sqlite3 (binary: never committed); tests/fuzz/TARGET.dict, where
# there is one, gives libFuzzer the format's keywords.
set -u
BUILD=$1
SECONDS_EACH=${2:-20}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK="$BUILD/fuzz-work"
CRASH="$BUILD/fuzz-crashes"
rm -rf "$WORK"
mkdir -p "$WORK" "$CRASH"
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"

# Binary seeds.
mk_seeds() {
    local t="$WORK/seeds/tar" s="$WORK/seeds/store" src="$WORK/seedsrc"
    mkdir -p "$t" "$s" "$src/a/b"
    echo hello >"$src/a/f"
    printf 'x%.0s' $(seq 3000) >"$src/a/b/big"
    ln -s f "$src/a/sym"
    ln "$src/a/f" "$src/a/hard"
    tar -C "$src" -cf "$t/plain.tar" a
    tar -C "$src" --format=pax -cf "$t/pax.tar" a
    tar -C "$src" --format=gnu -cf "$t/long.tar" --transform "s,^a/f\$,$(printf 'n%.0s' $(seq 300))/f," a
    tar -C "$src" -czf "$t/gz.tar.gz" a
    tar -C "$src" --format=v7 -cf "$t/v7.tar" a
    sqlite3 "$s/foreign.db" 'create table runs(id integer primary key, x text); insert into runs(x) values ("a");'
    sqlite3 "$s/empty.db" 'pragma user_version = 1;'
    if [ -x "$BUILD/../build/fsbench" ]; then
        "$BUILD/../build/fsbench" run --engine null --tree tiny --phases extract,delete \
            --label basic --db "$s/fsbench.db" >/dev/null 2>&1
    fi
    sqlite3 "$s/fsbench.db" 'pragma journal_mode=delete;' >/dev/null 2>&1
    rm -f "$s"/*-wal "$s"/*-shm "$s"/*-journal
    # traces: a real one (when strace can trace here), and one record and info block
    # given as fuzz_trace's wrapped form (first byte odd: sections compressed by the target)
    local tr="$WORK/seeds/trace"
    mkdir -p "$tr" "$src/rec"
    if [ -x "$BUILD/../build/fsbench" ] && command -v strace >/dev/null 2>&1; then
        (cd "$src/rec" && "$BUILD/../build/fsbench" record -o "$tr/real.fsbt" -- \
            sh -c 'mkdir d; echo x >d/f; cat d/f; mv d/f d/g; rm -r d' >/dev/null 2>&1)
    fi
    # mode 1, 5 bytes of calls (a sync), then the info block: three empty strings, twenty-six
    # numbers (1 thread, 1 at once, 1 call, 1 record), 38 kinds with sync (22) counted once,
    # no state
    printf '\x01\x05\x00\x16\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x01\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x26' >"$tr/sync.bin"
    for i in $(seq 0 37); do
        if [ "$i" -eq 22 ]; then printf '\x01'; else printf '\x00'; fi
    done >>"$tr/sync.bin"
    printf '\x00\x00' >>"$tr/sync.bin"
}
mk_seeds

fail=0
printf '%-10s %8s %10s %8s %s\n' target seconds execs exec/s "coverage (edges) / outcome"
for bin in "$BUILD"/fuzz_*; do
    name=${bin##*/fuzz_}
    corpus="$WORK/corpus-$name"
    mkdir -p "$corpus"
    for d in "$HERE/corpus/$name" "$WORK/seeds/$name"; do
        [ -d "$d" ] && cp "$d"/* "$corpus"/ 2>/dev/null
    done
    # kept crash inputs first: each must run clean now
    if [ -d "$HERE/regress/$name" ] && [ -n "$(ls -A "$HERE/regress/$name")" ]; then
        if ! "$bin" "$HERE/regress/$name"/* >"$WORK/$name.regress.log" 2>&1; then
            echo "fuzz: $name: a kept regression input crashes again (see $WORK/$name.regress.log)"
            fail=1
            continue
        fi
    fi
    dict=()
    [ -f "$HERE/$name.dict" ] && dict=(-dict="$HERE/$name.dict")
    "$bin" "$corpus" "${dict[@]}" -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$CRASH/$name-" \
        >"$WORK/$name.log" 2>&1
    rc=$?
    execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$WORK/$name.log")
    rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$WORK/$name.log")
    cov=$(grep -Eo 'cov: [0-9]+' "$WORK/$name.log" | tail -1 | awk '{print $2}')
    if [ "$rc" -ne 0 ]; then
        printf '%-10s %8s %10s %8s %s\n' "$name" "$SECONDS_EACH" "${execs:-?}" "${rate:-?}" \
            "CRASH: $(ls "$CRASH"/"$name"-* 2>/dev/null | head -1) (log $WORK/$name.log)"
        grep -m1 -E 'ERROR|runtime error' "$WORK/$name.log" | sed 's/^/    /'
        fail=1
    else
        printf '%-10s %8s %10s %8s %s\n' "$name" "$SECONDS_EACH" "$execs" "$rate" "${cov:-?} edges, no crash"
    fi
done
exit $fail
