#!/bin/bash
# The extract makes tar -x's calls on each entry (--extract-calls tar, the default): under
# strace, an archive's extract makes the same owner, mode and time calls as GNU tar -xf of
# the same archive, in the same order (files: times, owner, mode before the close;
# symlinks: times, owner; directories: times, owner, mode once the archive has left them),
# as root and as another user (times only); a synthetic tree gets them too; and
# --extract-calls create makes none of them.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd tar
need_cmd strace
strace -f -qq -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here"

S=$SCRATCH
export LC_ALL=C
chmod 755 "$S"
run_fsbench tree make tiny "$S/src" --seed 7
is "$RC" 0 "tree make tiny (the source tree) exits 0"
chmod 755 "$S/src"
first=$(cd "$S/src" && find . -type f -printf '%P\n' | sort | head -1)
ln -s "$first" "$S/src/symlink"
mkdir -m 0750 "$S/src/private"
echo secret >"$S/src/private/key"
chmod 0600 "$S/src/private/key"
echo shared >"$S/src/private/other"
chown -h 1234:2345 "$S/src/private/other" "$S/src/symlink"
tar -cf "$S/a.tar" -C "$S/src" .
chmod 644 "$S/a.tar"
NF=$(tar -tvf "$S/a.tar" | grep -c '^-')
ND=$(tar -tvf "$S/a.tar" | grep -c '^d')
NL=$(tar -tvf "$S/a.tar" | grep -c '^l')

TRACE=openat,mkdirat,symlinkat,fchown,fchownat,fchmod,chmod,utimensat
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# the entries' calls as letters, in order: C create, D mkdir, S symlink, T times, O owner,
# M mode (the extract's own: fsbench's from its "tree" on, up to the end of the phase)
letters() {
    awk -v from="$2" '
        from != "" && !on { if (index($0, from)) on = 1; next }
        / = -1 / || /resumed>/ { next }
        /openat\(.*O_CREAT/ { printf "C"; next }
        /mkdirat\(/ { printf "D"; next }
        /symlinkat\(/ { printf "S"; next }
        /utimensat\(/ { printf "T"; next }
        /fchown\(|fchownat\(/ { printf "O"; next }
        /fchmod\(|[^f]chmod\(/ { printf "M"; next }
        END { print "" }' "$1"
}
count() { printf '%s' "$1" | tr -cd "$2" | wc -c; }

# tar_vs_fsbench AS: GNU tar -xf and fsbench's extract of a.tar as user AS (root or nobody)
tar_vs_fsbench() {
    local as=$1 pre=() d=$S/$1
    [ "$as" = root ] || pre=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    mkdir -m 755 "$d" "$d/tar" "$d/fsb"
    [ "$as" = root ] || chown 65534:65534 "$d" "$d/tar" "$d/fsb"
    (cd "$d/tar" && strace -f -qq -o "$d/tar.log" -e trace=$TRACE "${pre[@]}" tar -xf "$S/a.tar")
    is "$?" 0 "$as: tar -xf under strace exits 0"
    strace -f -qq -o "$d/fsb.log" -e trace=$TRACE "${pre[@]}" "$FSBENCH" run --dir "$d/fsb" \
        --tree "tar:$S/a.tar" --phases extract --no-save --runs 1 -q >/dev/null 2>"$d/err"
    is "$?" 0 "$as: fsbench's extract under strace exits 0"
    TAR=$(letters "$d/tar.log" "")
    # fsbench's extract starts at its "tree" and ends at the phase's end (nothing after it
    # in these calls but the run's own cleanup, which makes none of them)
    FSB=$(letters "$d/fsb.log" 'mkdirat(' | sed 's/^D//')
}

tar_vs_fsbench root
is "$FSB" "$TAR" "root: fsbench's extract makes tar's calls in tar's order (${#TAR} calls)"
is "$(count "$TAR" O)" "$((NF + ND + NL))" "root: tar sets the owner of every file, directory and symlink (./ included)"
is "$(count "$FSB" T)" "$(count "$TAR" T)" "root: as many time calls as tar ($(count "$TAR" T))"
is "$(count "$FSB" M)" "$(count "$TAR" M)" "root: as many mode calls as tar ($(count "$TAR" M))"
like "$(grep -c 'fchown([0-9]*, 1234, 2345)' "$S/root/fsb.log")" '^1$' "root: a file gets its archived owner by fchown"
like "$(grep -c 'fchownat([0-9]*, "symlink", 1234, 2345, AT_SYMLINK_NOFOLLOW)' "$S/root/fsb.log")" '^1$' \
    "root: a symlink gets its archived owner by lchown"
# the directory's times after its last file: private's fix-up comes after its two files
ok "$(printf '%s' "$FSB" | grep -q 'DCTOM\?CTOM\?TOM'; echo $?)" \
    "root: private's times, owner and mode come after its two files' (D CTO[M] CTO[M] TOM)"
ok "$(grep -q 'private/key.*0600\|"key", .*0600' "$S/root/fsb.log"; echo $?)" "root: a file is created with its owner's bits only"

if command -v setpriv >/dev/null; then
    tar_vs_fsbench nobody
    is "$FSB" "$TAR" "another user: fsbench's extract makes tar's calls in tar's order (${#TAR} calls)"
    is "$(count "$FSB" OM)" 0 "another user: no owner or mode call, as tar makes none"
else
    skip "needs setpriv" 4
fi

# --extract-calls create: the entries alone
mkdir "$S/create"
strace -f -qq -o "$S/create.log" -e trace=$TRACE "$FSBENCH" run --dir "$S/create" \
    --tree "tar:$S/a.tar" --phases extract --no-save --runs 1 -q --extract-calls create >/dev/null 2>&1
is "$?" 0 "--extract-calls create under strace exits 0"
CR=$(letters "$S/create.log" 'mkdirat(')
is "$(count "$CR" TOM)" 0 "--extract-calls create: no owner, mode or time call ($(count "$CR" C) files created)"
is "$(count "$CR" C)" "$NF" "--extract-calls create: every file created"

# a synthetic tree: the same calls by default, none with create
mkdir "$S/syn" "$S/sync"
strace -f -qq -o "$S/syn.log" -e trace=$TRACE "$FSBENCH" run --dir "$S/syn" --tree tiny --seed 7 \
    --phases extract --no-save --runs 1 -q >/dev/null 2>&1
SY=$(letters "$S/syn.log" 'mkdirat(' | sed 's/^D//')
NC=$(count "$SY" C) NDS=$(count "$SY" D)
is "$(count "$SY" O)" "$((NC + NDS + $(count "$SY" S)))" "synthetic tree: an owner call for every entry (tar's calls)"
is "$(count "$SY" T)" "$((NC + NDS + $(count "$SY" S)))" "synthetic tree: a time call for every entry"
strace -f -qq -o "$S/sync.log" -e trace=$TRACE "$FSBENCH" run --dir "$S/sync" --tree tiny --seed 7 \
    --phases extract --no-save --runs 1 -q --extract-calls create >/dev/null 2>&1
SC=$(letters "$S/sync.log" 'mkdirat(')
is "$(count "$SC" TOM)" 0 "synthetic tree, --extract-calls create: no owner, mode or time call"

# bad value: one line naming the option
run_fsbench run --dir "$S/create" --tree tiny --phases extract --no-save --extract-calls both
is "$RC" 2 "--extract-calls both: a usage error"
is "$ERR" "fsbench: --extract-calls: 'both' is not tar or create" "the line names the option and the choices"

done_testing
