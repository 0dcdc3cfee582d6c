#!/bin/bash
# compilebench on a data set in compilebench's own listing format (four files written here):
# the trees follow it, --format compilebench prints compilebench's "run complete" block line
# for line, hostile listings are refused with FILE:LINE before anything runs, and the
# method's sync and dropped caches (root) or their absence (--cb-no-sync, not root) show in
# the note.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

# dataset DIR: a small kernel-like data set (clean, patched, compiled, patched compiled).
dataset() {
    mkdir -p "$1"
    local clean="Makefile 3000
README 9000
kernel/sched.c 52000
kernel/fork.c 31000
kernel/exit.c 24000
fs/ext3/inode.c 88000
fs/ext3/super.c 70000
fs/ext3/Makefile 400
include/linux/fs.h 61000
include/linux/sched.h 45000
arch/i386/kernel/head.S 13000
arch/i386/kernel/entry.S 21000
drivers/net/e100.c 77000
drivers/net/Makefile 9000"
    printf '%s\n' "$clean" >"$1/dataset-unpatched"
    printf '%s\n' "$clean" | sed -E 's/^(kernel\/fork.c|fs\/ext3\/inode.c|Makefile) ([0-9]+)/\1 \21/' >"$1/dataset-patched"
    printf 'kernel/new.c 5000\n' >>"$1/dataset-patched"
    local objs="kernel/sched.o 150000
kernel/fork.o 90000
kernel/built-in.o 300000
fs/ext3/inode.o 200000
fs/ext3/built-in.o 400000
arch/i386/kernel/head.o 20000
drivers/net/e100.o 180000
vmlinux 2000000"
    { printf '%s\n' "$clean"; printf '%s\n' "$objs"; } >"$1/dataset-unpatched-compiled"
    { cat "$1/dataset-patched"; printf '%s\n' "$objs" | sed -E 's/^(vmlinux|kernel\/fork.o) ([0-9]+)/\1 \23/'
      printf 'kernel/new.o 9000\n'; } >"$1/dataset-patched-compiled"
}
DS=$SCRATCH/ds
dataset "$DS"
KINDS="intial create|create|patch|compile|clean|read tree|read compiled tree|delete tree|delete compiled tree|stat tree|stat compiled tree"

# ---- a run on the data set, compilebench's own output ----
mkdir "$SCRATCH/w"
run_fsbench run compilebench -i 2 -r 20 --cb-dataset "$DS" --cb-no-sync --cb-buffer-size 16K \
    --format compilebench --dir "$SCRATCH/w" --no-save --json "$SCRATCH/a.json"
is "$RC" 0 "compilebench on a data set exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
is "$(printf '%s\n' "$OUT" | sed -n 2p)" "run complete:" "the block opens as compilebench's does"
is "$(printf '%s\n' "$OUT" | sed -n 3p)" "$(printf '=%.0s' $(seq 74))" "with its rule of 74 '='"
is "$(printf '%s\n' "$OUT" | sed -n 1p)" "" "after an empty line"
is "$(printf '%s\n' "$OUT" | wc -l)" 14 "and nothing else: 3 lines and 11 kinds"
labels=$(printf '%s\n' "$OUT" | sed -n '4,$p' | sed -E 's/^no runs for //; s/ total runs .*//' | paste -sd'|')
is "$labels" "$KINDS" "the kinds in compilebench's order and words (intial create too)"
bad=$(printf '%s\n' "$OUT" | sed -n '4,$p' | grep -Evc "^(($KINDS) total runs [0-9]+ avg [0-9]+\.[0-9]{2} (MB/s|seconds) \(user [0-9]+\.[0-9]{2}s sys [0-9]+\.[0-9]{2}s\)|no runs for ($KINDS))\$")
is "$bad" 0 "every line as compilebench prints it (two decimals, units, user and sys)"
like "$OUT" "intial create total runs 2 avg [0-9.]+ MB/s" "two initial trees"
is "$(printf '%s\n' "$OUT" | sed -n '5,$p' | sed -nE 's/.* total runs ([0-9]+) avg .*/\1/p' | awk '{s += $1} END {print s}')" \
    20 "20 random operations in all"
for k in "delete tree" "stat tree" "delete compiled tree" "stat compiled tree"; do
    printf '%s\n' "$OUT" | grep -q "^$k total runs" || continue
    like "$(printf '%s\n' "$OUT" | grep "^$k total runs")" " seconds " "$k in seconds"
done
init=$(jq -c '.runs[0].phases[] | select(.name == "cb_initial")' "$SCRATCH/a.json")
like "$(printf '%s\n' "$init" | jq -r .note)" '^no sync: initial create 2 runs [0-9.]+ MB/s; native unpatched 1 runs [0-9.]+ MB/s; native patched 1 runs [0-9.]+ MB/s; native patched compiled 1 runs [0-9.]+ MB/s$' \
    "cb_initial's note: the initial trees and the three reference figures, marked no sync"
is "$(printf '%s\n' "$init" | jq -r .files)" 28 "cb_initial made 2 trees of the listing's 14 files"
# the clean tree's bytes three times (two trees and the reference), the patch's changed and
# new files (30001 + 310001 + 880001 + 5000) and the patched objects that differ from the
# compiled ones (20000003 + 900003 + 9000)
is "$(printf '%s\n' "$init" | jq -r .bytes_written)" \
    "$(awk '{s += $2} END {print 3 * s + 1225003 + 20909006}' "$DS/dataset-unpatched")" \
    "cb_initial wrote the listings' bytes: 2 trees and the reference trees"
is "$(ls -A "$SCRATCH/w")" "" "workspace empty after the run"

# a job file takes the options as keys
cat >"$SCRATCH/cb.ini" <<EOF
[global]
phases = cb_initial,cb_random
cb-dataset = $DS
cb-no-sync = 1
phase.cb_initial.initial = 1
phase.cb_random.random = 4
EOF
run_fsbench run "$SCRATCH/cb.ini" --dir "$SCRATCH/w" --no-save --json "$SCRATCH/j.json"
is "$RC" 0 "a job file with cb-dataset and cb-no-sync runs"
[ "$RC" -eq 0 ] || diag "$ERR"
like "$(jq -r '.runs[0].phases[] | select(.name == "cb_initial") | .note' "$SCRATCH/j.json")" \
    '^no sync: initial create 1 runs' "the job's keys took effect"

# a relative cb-dataset is resolved against the job file's directory, like include and dir
sed "s|^cb-dataset = .*|cb-dataset = ds|" "$SCRATCH/cb.ini" >"$SCRATCH/rel.ini"
(cd / && "$FSBENCH" run "$SCRATCH/rel.ini" --dir "$SCRATCH/w" --no-save >/dev/null 2>"$SCRATCH/rel.err")
is "$?" 0 "a relative cb-dataset in a job file is found beside the job file"
[ -s "$SCRATCH/rel.err" ] && diag "$(cat "$SCRATCH/rel.err")"

# ---- hostile data sets: one line naming FILE:LINE, exit 2, nothing run ----
# bad_ds NAME FILE LINE-TEXT WANT: dataset with LINE-TEXT appended to FILE is refused.
bad_ds() {
    local name=$1 file=$2 text=$3 want=$4 d=$SCRATCH/bad.$RANDOM
    dataset "$d"
    printf '%s\n' "$text" >>"$d/$file"
    run_fsbench run compilebench -i 1 -r 1 --cb-dataset "$d" --dir "$SCRATCH/w" --no-save
    is "$RC" 2 "$name: exit 2"
    like "$ERR" "$want" "$name: says where and what"
    is "$(printf '%s\n' "$ERR" | grep -c .)" 1 "$name: in one line"
}
bad_ds "a path with .." dataset-patched "../../etc/evil 100" \
    "dataset-patched:16: '../../etc/evil' is not a relative path"
bad_ds "an absolute path" dataset-unpatched-compiled "/etc/evil 100" \
    "dataset-unpatched-compiled:23: '/etc/evil' is not a relative path"
bad_ds "a size that is no number" dataset-unpatched "kernel/x.c many" \
    "dataset-unpatched:15: size 'many' is not a whole number"
bad_ds "a line of three fields" dataset-patched-compiled "a b c" \
    "dataset-patched-compiled:[0-9]+: expected 'path size'"
bad_ds "a file needed as a directory" dataset-patched-compiled "Makefile/x.o 10" \
    "'Makefile/x.o' lies below 'Makefile', which the data set has as a file"
mkdir -p "$SCRATCH/missing"
run_fsbench run compilebench --cb-dataset "$SCRATCH/missing" --dir "$SCRATCH/w" --no-save
is "$RC" 2 "a directory without the listings: exit 2"
like "$ERR" "missing/dataset-unpatched: " "names the missing listing"
dataset "$SCRATCH/fifo"
rm "$SCRATCH/fifo/dataset-patched" && mkfifo "$SCRATCH/fifo/dataset-patched"
run_fsbench run compilebench --cb-dataset "$SCRATCH/fifo" --dir "$SCRATCH/w" --no-save
is "$RC" 2 "a FIFO for a listing: refused, no hang"
like "$ERR" "dataset-patched: not a regular file" "says it is not a regular file"
run_fsbench run compilebench --cb-buffer-size 0 --dir "$SCRATCH/w" --no-save
is "$RC" 2 "--cb-buffer-size 0: exit 2"
like "$ERR" "--cb-buffer-size: '0' is not a size" "says what would do"
run_fsbench run compilebench --cb-program-cpu 16,x --dir "$SCRATCH/w" --no-save
is "$RC" 2 "--cb-program-cpu 16,x: exit 2"
like "$ERR" "--cb-program-cpu: '16,x' is not FILE or FILE,ENTRY, each a number of microseconds from 0 to 10000" \
    "says what would do"
run_fsbench run compilebench --cb-program-cpu 20000 --dir "$SCRATCH/w" --no-save
is "$RC" 2 "--cb-program-cpu 20000 (20 ms a file): exit 2"
is "$(ls -A "$SCRATCH/w")" "" "nothing made by the refused runs"

# ---- --cb-program-cpu: the interpreter's processor time spent in the operations, and said ----
run_fsbench run compilebench -i 1 -r 6 --cb-dataset "$DS" --cb-no-sync --cb-program-cpu 2000,500 \
    --dir "$SCRATCH/w" --no-save --json "$SCRATCH/p.json"
is "$RC" 0 "--cb-program-cpu 2000,500: exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
pinit=$(jq -c '.runs[0].phases[] | select(.name == "cb_initial")' "$SCRATCH/p.json")
like "$(printf '%s\n' "$pinit" | jq -r .note)" '^no sync: program cpu 2000/500 us: initial create 1 runs' \
    "the note says the program's time is in the figures"
# every file written (the tree and the reference trees) costs 2 ms of user time: at least half
# of that is seen (fsbench's own work on these few files takes well under a millisecond)
ok "$(printf '%s\n' "$pinit" | jq -e '.user_s >= 0.5 * 0.002 * .files' >/dev/null; echo $?)" \
    "cb_initial's user time holds the program's 2 ms a file ($(printf '%s\n' "$pinit" | jq -r '"\(.user_s) s, \(.files) files"'))"
like "$OUT" "\\(--cb-program-cpu: the program's own processor time included: 2000 us a file written or read, 500 us an entry stat'ed or removed\\)" \
    "the summary says so"

# ---- the method: sync and dropped caches (root), or not ----
if [ "$(id -u)" -ne 0 ]; then
    skip "needs root (drops caches)" 4
else
    run_fsbench run compilebench -i 1 -r 3 --cb-dataset "$DS" --dir "$SCRATCH/w" --no-save \
        --json "$SCRATCH/s.json"
    is "$RC" 0 "root, by the method: exits 0"
    like "$(jq -r '.runs[0].phases[] | select(.name == "cb_random") | .note' "$SCRATCH/s.json")" \
        '^[a-z]' "root: no mark in the note (synced, caches dropped)"
    ok "$(jq -e '.runs[0].phases[] | select(.name == "cb_random") | .ops.syncfs >= 3' "$SCRATCH/s.json" >/dev/null; echo $?)" \
        "root: a sync in each of the 3 operations"
    if command -v setpriv >/dev/null; then
        mkdir -p "$SCRATCH/nobody" && chmod 0777 "$SCRATCH/nobody" && chmod 0755 "$SCRATCH"
        setpriv --reuid=65534 --regid=65534 --clear-groups --reset-env env XDG_DATA_HOME="$SCRATCH/nobody" \
            "$FSBENCH" run compilebench -i 1 -r 3 --cb-dataset "$DS" --dir "$SCRATCH/nobody" \
            --no-save >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
        is "$(grep -c "caches cannot be dropped" "$SCRATCH/err")" 1 \
            "not root: says once that caches cannot be dropped"
    else
        skip "needs setpriv" 1
    fi
fi
# ---- the calls of compilebench's Python file objects, made on every file ----
# compilebench writes through a file opened "a+" (read-write, appending; fstat, a seek to the
# end, a terminal check, three tells and a seek to the start; two tells before the close)
# and reads through one opened "r" (fstat, terminal check, a tell; reads until one returns
# nothing, and one more): the file system serves those calls, so fsbench makes them too.
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
    mkdir "$SCRATCH/calls"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -qq -o "$SCRATCH/calls.log" -e trace=openat,openat2,newfstatat,fstat,lseek,ioctl,read,write,close,ftruncate \
        "$FSBENCH" run compilebench -i 1 -r 20 --cb-dataset "$DS" --cb-no-sync --cb-buffer-size 16K \
        --dir "$SCRATCH/calls" --no-save -q >/dev/null 2>&1
    is "$?" 0 "compilebench under strace exits 0"
    # calls_of NAME FLAG: the calls on the descriptor of the first open of NAME with FLAG,
    # from its open to its close, counted by kind (fsbench's compilebench runs on one thread)
    calls_of() {
        awk -v f="$1" -v fl="$2" '
            !on && index($0, "\"" f "\", " fl) && /openat/ && / = [0-9]+$/ { on = 1; fd = $NF; pid = $1; next }
            on && $1 == pid { split($2, c, "("); k = c[1]
                if (k == "close" && index($0, "(" fd ")")) { print "close"; exit }
                if (index($0, "(" fd ",") || index($0, "(" fd ")")) {
                    if (k == "lseek") { match($0, /SEEK_[A-Z]+/); k = k " " substr($0, RSTART, RLENGTH) }
                    if (k == "read") k = k ($NF == "0" ? " 0" : " n")
                    print k } }' "$SCRATCH/calls.log" | sort | uniq -c | awk '{ $1 = $1; print }' | paste -sd,
    }
    # kernel/sched.c (52000 bytes: four writes of 16K), opened in its directory, as the first
    # tree (the native one) is written
    is "$(calls_of sched.c O_RDWR)" \
        "1 close,1 ioctl,5 lseek SEEK_CUR,1 lseek SEEK_END,1 lseek SEEK_SET,1 newfstatat,4 write" \
        "a file written: fstat, seek to the end, terminal check, five tells, seek to the start, its writes"
    # read by a "read tree" of the 20 random operations: four reads with data, two empty
    is "$(calls_of sched.c O_RDONLY)" "1 close,1 ioctl,1 lseek SEEK_CUR,1 newfstatat,2 read 0,4 read n" \
        "a file read: fstat, terminal check, a tell, reads until one is empty, and one more"
    # stat tree goes bottom up (os.walk(topdown=False)): kernel/sched.c is stat'ed before the
    # tree's own Makefile (the only file of 3000 bytes), which comes before its directories
    first() { grep -n -m1 -E "$1" "$SCRATCH/calls.log" | cut -d: -f1; }
    SCHED=$(first 'newfstatat\([0-9]+, "sched.c", ')
    TOPMK=$(first 'newfstatat\([0-9]+, "Makefile", \{st_mode=S_IFREG\|0644, st_size=3000,')
    ok "$([ -n "$SCHED" ] && [ -n "$TOPMK" ] && [ "$SCHED" -lt "$TOPMK" ]; echo $?)" \
        "stat tree: a file in a subdirectory is stat'ed before the top directory's own (lines $SCHED, $TOPMK)"
    ok "$([ "$(grep -c 'O_RDWR|O_CREAT|O_APPEND' "$SCRATCH/calls.log")" -ge 14 ]; echo $?)" \
        "files are opened read-write for appending, as Python's \"a+\" opens them"
    # a patched file: its read at the end returns nothing, two tells, the truncate, then two
    # tells and the seek to the start, as a file object's read(), truncate(0) and seek(0)
    PATCHED=$(awk '{ pid = $1; line[pid, ++n[pid]] = $0 }
        /O_RDWR\|O_CREAT\|O_APPEND/ { cb = 1 }  # from the first a+ open on (not the workspace files)
        cb && / ftruncate\([0-9]+, 0\) += 0$/ {
            t++; k = n[pid]
            if (line[pid, k - 3] ~ / read\([0-9]+, "", [0-9]+\) += 0$/ && line[pid, k - 2] ~ /SEEK_CUR/ && line[pid, k - 1] ~ /SEEK_CUR/) m++ }
        END { printf "%d %d", t, m }' "$SCRATCH/calls.log")
    ok "$(set -- $PATCHED; [ "$1" -gt 0 ] && [ "$1" -eq "$2" ]; echo $?)" \
        "every patched file is read at its end (nothing) and told twice before its truncate (truncates, after such a read: $PATCHED)"
else
    skip "strace cannot trace here" 6
fi

# ---- the space a data set needs comes from its listings (issue 30): 64 files of 16 GiB
# are refused up front, in a directory and on an image, with nothing written
mkdir -p "$SCRATCH/huge" "$SCRATCH/hw"
for f in dataset-unpatched dataset-patched dataset-unpatched-compiled dataset-patched-compiled; do
    { echo "Makefile 3000"; for i in $(seq 1 64); do echo "kernel/h$i.c 17179869184"; done; } \
        >"$SCRATCH/huge/$f"
done
run_fsbench run compilebench --cb-dataset "$SCRATCH/huge" --dir "$SCRATCH/hw" --no-save --dry-run
like "$OUT" "space: about 3.00 TiB needed \(compilebench's trees, from the listings\) in .*: NOT ENOUGH$" \
    "--dry-run sizes the need from the listings"
run_fsbench run compilebench --cb-dataset "$SCRATCH/huge" --dir "$SCRATCH/hw" --no-save
is "$RC" 1 "a data set larger than the free space: exit 1"
like "$ERR" "^fsbench: pre-flight: needs about 3.0 TiB free in .*hw, and [0-9.]+ [KMGT]iB are \(see --dry-run\)$" \
    "refused up front, the need sized from the listings"
is "$(ls -A "$SCRATCH/hw")" "" "nothing was written"
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
    run_fsbench run compilebench --cb-dataset "$SCRATCH/huge" --image 256M --no-save
    is "$RC" 1 "a data set larger than the image: exit 1"
    is "$ERR" "fsbench: pre-flight: compilebench's trees from the listings in $SCRATCH/huge need about 3.0 TiB, and the image holds 256.0 MiB: not enough space (see --dry-run)" \
        "refused up front, naming the need and the image"
else
    skip "not root: no image" 2
fi
done_testing
