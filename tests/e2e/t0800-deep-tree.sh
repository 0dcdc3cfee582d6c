#!/bin/bash
# A tree 10,000 levels deep (paths five times PATH_MAX) through every phase of `basic`, at
# -j1 and -j2, with `ulimit -n 64`; `tree make`, `tree capture` and `layout` of the real
# tree too
# (issue 11: copy -j1 used to overflow the stack at ~980 levels, every walker held one fd
# per level). FSBENCH_DEEP sets the depth (default 10000).
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd tar
need_cmd jq

DEPTH=${FSBENCH_DEEP:-10000}
T="$SCRATCH/t"
mount_tmpfs "$T" 1g || skip_all "cannot mount a tmpfs"

# The archive: file g at the top, file f under DEPTH nested directories d/d/.../d.
echo bottom >"$SCRATCH/f"
echo top >"$SCRATCH/g"
CHAIN=$(printf 'd/%.0s' $(seq "$DEPTH"))
tar -C "$SCRATCH" -cf "$SCRATCH/deep.tar" --transform "s,^f\$,${CHAIN}f," f g
LONG=$(tar -tf "$SCRATCH/deep.tar" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
ok $([ "$LONG" -gt 4096 ] && echo 0 || echo 1) "the archive's deepest name ($LONG bytes) is longer than PATH_MAX"

# counts FILE.json: "phase files dirs" per phase of run 1
counts() { jq -r '.runs[0].phases[] | "\(.name) \(.files) \(.dirs)"' "$1" | tr '\n' ';'; }
WANT="extract 2 $DEPTH;sync 0 0;dropcaches 0 0;walk 2 $DEPTH;statwalk 2 $DEPTH;read 2 $DEPTH;copy 2 $DEPTH;delete 4 $((2 * DEPTH));sync 0 0;"

for j in 1 2; do
    mkdir "$T/r$j"
    start=$(date +%s)
    (ulimit -n 64 && run_fsbench run --dir "$T/r$j" --tree "tar:$SCRATCH/deep.tar" -j "$j" \
        --no-save --json "$SCRATCH/j$j.json" && exit "$RC")
    rc=$?
    is "$rc" 0 "basic -j$j on the $DEPTH-level archive under ulimit -n 64 exits 0 ($(($(date +%s) - start)) s)"
    is "$(counts "$SCRATCH/j$j.json" 2>/dev/null)" "$WANT" "-j$j: every phase counts 2 files and $DEPTH directories (delete: tree and copy)"
    is "$(ls -A "$T/r$j")" "" "-j$j: the run directory is left empty"
done

# tree make writes the real tree (on ext4, for layout's FIEMAP); capture records its shape
# and layout measures it, each with 64 fds.
need_cmd mkfs.ext4
truncate -s 200M "$SCRATCH/ext4.img" && mkfs.ext4 -q -F -N 30000 "$SCRATCH/ext4.img" &&
    mkdir "$SCRATCH/ext4" && mount -o loop "$SCRATCH/ext4.img" "$SCRATCH/ext4"
REAL="$SCRATCH/ext4/real"
(ulimit -n 64 && run_fsbench tree make "tar:$SCRATCH/deep.tar" "$REAL" && exit "$RC")
is "$?" 0 "tree make writes the $DEPTH-level tree under ulimit -n 64"
(ulimit -n 64 && run_fsbench tree capture "$REAL" -o "$SCRATCH/shape.ini" && exit "$RC")
is "$?" 0 "tree capture of the real $DEPTH-level tree under ulimit -n 64 exits 0"
is "$(grep -E '^(files|dirs|max_depth) =' "$SCRATCH/shape.ini" 2>/dev/null | tr '\n' ';')" \
    "files = 2;dirs = $DEPTH;max_depth = $((DEPTH + 1));" "the captured shape holds 2 files, $DEPTH directories, depth $((DEPTH + 1))"
(ulimit -n 64 && run_fsbench layout "$REAL" && printf '%s\n' "$OUT" >"$SCRATCH/layout" && exit "$RC")
is "$?" 0 "layout of the real $DEPTH-level tree under ulimit -n 64 exits 0"
like "$(cat "$SCRATCH/layout")" "files +2 " "layout found both files"
umount "$SCRATCH/ext4"

done_testing
