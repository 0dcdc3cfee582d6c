#!/bin/bash
# Mount points inside the tree (issue 18): delete must not cross them the way rm -rf does
# (--one-file-system), and no other phase may read or write through one. While a run is
# held at its first unlinkat of delete (strace delays that call), a decoy directory is
# mounted inside the tree: a tmpfs of its own, or a bind mount of a directory on the run's
# own file system (only openat2's RESOLVE_NO_XDEV can tell that one); then copy the same
# way (held at its first copy_file_range); and the cleanup of an interrupted run's
# leftovers with a mount inside. Each: exit 1, the line naming the mount point ("tree/X: a
# mount point (another file system); fsbench does not cross it"), the decoy's files all
# still there. Everything mounted is unmounted by a trap (tap.sh), also when a test fails.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd strace
need_cmd pgrep

W=$SCRATCH/w
mount_tmpfs "$W" 512M || skip_all "cannot mount a tmpfs"
mkdir "$W/outside"
mount_tmpfs "$W/outside" 16M || skip_all "cannot mount a tmpfs"
SCALE=0.05
TOTAL=$("$FSBENCH" tree stats pkgsrc --scale "$SCALE" |
    awk '$1 == "files" || $1 == "dirs" || $1 == "symlinks" { n += $2 } END { print n }')

# make_decoy DIR: a few files and a directory; decoy_sum DIR: their names, sizes, mtimes
# and content hashes.
make_decoy() {
    mkdir -p "$1/sub"
    echo "decoy a" >"$1/a"
    head -c 5000 /dev/urandom >"$1/sub/b"
    ln -s a "$1/link"
}
decoy_sum() {
    (cd "$1" && find . -printf '%p %y %s %T@\n' | LC_ALL=C sort &&
        find . -type f -exec sha256sum {} + | LC_ALL=C sort) | sha256sum | cut -d' ' -f1
}

# held_run SYSCALL MOUNT_KIND PHASES J NAME: runs fsbench with SYSCALL's first call held
# for 4 s, mounts a decoy on the tree's last top directory (in readdir order: the one
# delete and copy reach last) once the tree is complete, and checks what happened.
held_run() {
    local call=$1 kind=$2 phases=$3 j=$4 name=$5
    local run=$W/run decoy
    rm -rf "$run" && mkdir "$run"
    if [ "$kind" = tmpfs ]; then
        decoy=$W/outside/decoy
    else
        decoy=$W/samefs-decoy
    fi
    rm -rf "$decoy" && make_decoy "$decoy"
    local before
    before=$(decoy_sum "$decoy")
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -o /dev/null -e trace="$call" -e inject="$call:delay_enter=4000000:when=1" \
        "$FSBENCH" run --dir "$run" --tree pkgsrc --scale "$SCALE" --phases "$phases" -j "$j" \
        --no-save -q >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
    local pid=$! n=0
    for _ in $(seq 1 1000); do
        n=$(find "$run/tree" -mindepth 1 2>/dev/null | wc -l)
        [ "$n" -ge "$TOTAL" ] && break
        sleep 0.01
    done
    local target mounted=1
    target=$(find "$run/tree" -mindepth 1 -maxdepth 1 -type d -printf "%f\n" 2>/dev/null | tail -n 1)
    # a bind mount of the decoy: from the other tmpfs (another file system), or from the
    # run's own
    if [ -n "$target" ] && [ -d "$run/tree/$target" ]; then
        mount --bind "$decoy" "$run/tree/$target" || mounted=0
    else
        mounted=0
    fi
    wait "$pid"
    RC=$?
    ERR=$(cat "$SCRATCH/err")
    diag "$name: stderr: $ERR"
    is "$mounted" 1 "$name: the decoy was mounted on tree/$target (the tree had $n of $TOTAL entries)"
    is "$RC" 1 "$name: the run fails"
    like "$ERR" "tree/$target: a mount point \(another file system\); fsbench does not cross it" \
        "$name: the line names the mount point"
    is "$(decoy_sum "$decoy")" "$before" "$name: the decoy is as it was (nothing removed or added)"
    umount "$run/tree/$target" 2>/dev/null
    rm -rf "$run"
}

held_run unlinkat tmpfs extract,delete 1 "delete -j1, a tmpfs inside the tree"
held_run unlinkat tmpfs extract,delete 4 "delete -j4, a tmpfs inside the tree"
held_run unlinkat bind extract,delete 1 "delete -j1, a bind mount of the same file system"
held_run unlinkat bind extract,delete 4 "delete -j4, a bind mount of the same file system"
held_run copy_file_range tmpfs extract,copy 1 "copy -j1, a tmpfs inside the tree"

# The leftovers of a killed run, with a mount inside: the next run refuses to clean them.
# The run is held at its first unlinkat (delete) once the tree is complete, and killed
# there with SIGKILL (its own pid, strace's child), so the tree is whole every time.
run=$W/run
rm -rf "$run" && mkdir "$run"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -o /dev/null -e trace=unlinkat -e inject=unlinkat:delay_enter=4000000:when=1 \
    "$FSBENCH" run --dir "$run" --tree pkgsrc --scale "$SCALE" --phases extract,delete \
    --no-save -q >/dev/null 2>&1 </dev/null &
spid=$!
for _ in $(seq 1 1000); do
    n=$(find "$run/tree" -mindepth 1 2>/dev/null | wc -l)
    [ "$n" -ge "$TOTAL" ] && break
    sleep 0.01
done
kill -9 "$(pgrep -P "$spid" | head -n 1)" 2>/dev/null
wait "$spid" 2>/dev/null
decoy=$W/outside/decoy
rm -rf "$decoy" && make_decoy "$decoy"
before=$(decoy_sum "$decoy")
target=$(find "$run/tree" -mindepth 1 -maxdepth 1 -type d -printf "%f\n" | tail -n 1)
mount --bind "$decoy" "$run/tree/$target"
run_fsbench run --dir "$run" --tree tiny --phases sync --no-save -q
diag "leftovers: stderr: $ERR"
is "$RC" 1 "leftovers with a mount inside: the run refuses"
like "$ERR" "tree/$target: a mount point \(another file system\); fsbench does not cross it" \
    "leftovers with a mount inside: the line names the mount point"
is "$(decoy_sum "$decoy")" "$before" "leftovers with a mount inside: the decoy's files are all still there"
umount "$run/tree/$target"

done_testing
