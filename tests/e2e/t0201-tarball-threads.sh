#!/bin/bash
# Archives on threads (`run --tree tar:FILE -j N`): a GNU tar archive of a generated tree is
# extracted from its index by every thread; -j 2 and -j 3 report the same counts and the
# same operations by kind (-j 1, streamed in tar's order, the same counts and tar's calls),
# and make the same tree as GNU tar -xp (names, types, sizes, modes, mtimes, link targets,
# content, hard links); an archive with hard links likewise at -j 2;
# one with a name made twice falls back to one thread, says so once, and still matches GNU
# tar; a hostile archive is refused entry by entry at -j 2 exactly as at -j 1.
#
# `run` removes the tree it made when the run ends, so the trees compared with GNU tar's are
# made by `tree make tar:FILE DIR -j N`, which runs the same extraction (phase_extract_tree).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/treecmp.sh"
need_cmd tar
need_cmd jq
need_cmd python3
need_cmd sha256sum

S=$SCRATCH
export LC_ALL=C
mkdir "$S/tmp"
export TMPDIR="$S/tmp"

# The extract phase's status, counts and operations by kind.
summary() {
    jq -c '.runs[] | .phases[] | select(.name == "extract") |
           {status, files, dirs, symlinks, ops}' "$1"
}

# snapshot J ARCHIVE DEST: extracts ARCHIVE into DEST on J threads with `tree make`. Sets
# RC and ERR (fsbench's stderr).
snapshot() {
    run_fsbench tree make "tar:$2" "$3" -j "$1"
}

# compare_gnu WHAT GNU FSB [nodirtimes]: the fsbench tree is GNU tar's (directory mtimes
# left out with nodirtimes).
compare_gnu() {
    local want got
    want=$(listing "$2")
    got=$(listing "$3")
    if [ "${4:-}" = nodirtimes ]; then
        want=$(echo "$want" | awk '$2 == "d" { $5 = "-" } { print }')
        got=$(echo "$got" | awk '$2 == "d" { $5 = "-" } { print }')
    fi
    is "$got" "$want" "$1: same names, types, sizes, modes, mtimes, link targets as GNU tar"
    [ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | head -20 | sed 's/^/# /'
    is "$(hashes "$3")" "$(hashes "$2")" "$1: same content (sha256 of every file)"
    is "$(linkgroups "$3")" "$(linkgroups "$2")" "$1: same hard links"
}

# ---- the source tree: generated, plus every kind of entry ------------------------------
run_fsbench tree make pkgsrc "$S/src" --scale 0.05 --seed 3
is "$RC" 0 "tree make pkgsrc --scale 0.05 (the source tree) exits 0"
first=$(cd "$S/src" && find . -type f -printf '%P\n' | sort | head -1)
ln -s "$(basename "$first")" "$S/src/$(dirname "$first")/symlink"
ln -s /nonexistent/elsewhere "$S/src/abs-symlink"
mkdir -m 0700 "$S/src/private"
echo secret >"$S/src/private/key"
chmod 0600 "$S/src/private/key"
touch -d '2001-02-03 04:05:06.123456789' "$S/src/private/key"
mkdir -m 0555 "$S/src/readonly-empty"
: >"$S/src/empty-file"
chmod 0751 "$S/src/empty-file"
truncate -s 1M "$S/src/sparse"
printf 'middle' | dd of="$S/src/sparse" bs=1 seek=500000 conv=notrunc status=none
mkdir -p "$S/src/deep/a/b/c/d/e"
head -c 300000 /dev/urandom >"$S/src/deep/a/b/c/d/e/big"
touch -d '2002-03-04 05:06:07.5' "$S/src/private" "$S/src/readonly-empty" "$S/src/deep/a"
tar -C "$S/src" --format=pax -cf "$S/t.tar" .
ok $? "GNU tar made t.tar"
mkdir "$S/gnu"
tar -C "$S/gnu" -xpf "$S/t.tar"
nfiles=$(find "$S/gnu" -type f | wc -l)
ndirs=$(find "$S/gnu" -mindepth 1 -type d | wc -l)
nsyms=$(find "$S/gnu" -type l | wc -l)

# ---- -j 1, 2 and 3: the same counts and tar's calls; -j 2 and 3 the same operations -----
# (-j 1 makes tar's calls in tar's order: it streams the archive, so its opens and writes
# differ from the threaded extraction's; every entry's owner, mode and time calls do not)
for j in 1 2 3; do
    mkdir "$S/w$j"
    run_fsbench run --dir "$S/w$j" --tree "tar:$S/t.tar" --phases extract --no-save \
        --json "$S/j$j.json" -j $j -q
    is "$RC" 0 "-j $j: run --tree tar:t.tar exits 0"
    is "$ERR" "" "-j $j: nothing on stderr (extracted from the index, nothing refused)"
    is "$(ls -A "$S/w$j")" "" "-j $j: work directory empty afterwards"
done
is "$(summary "$S/j1.json" | jq -c '[.files, .dirs, .symlinks]')" "[$nfiles,$ndirs,$nsyms]" \
    "-j 1: $nfiles files, $ndirs dirs, $nsyms symlinks, as GNU tar made"
is "$(summary "$S/j3.json")" "$(summary "$S/j2.json")" \
    "-j 3 and -j 2: same status, counts and operations by kind"
is "$(summary "$S/j3.json" | jq -c '[.status, .files, .dirs, .symlinks, .ops.setattr]')" \
    "$(summary "$S/j1.json" | jq -c '[.status, .files, .dirs, .symlinks, .ops.setattr]')" \
    "-j 3 and -j 1: same status, counts and owner, mode and time calls"
like "$(summary "$S/j3.json")" '"create":'"$nfiles"'[,}]' "-j 3: one create per file"

# ---- hard links (made after every file), and a name made twice (one thread) -----------
cp -a "$S/src" "$S/src-h"
ln "$S/src-h/$first" "$S/src-h/hardlink"
ln "$S/src-h/private/key" "$S/src-h/deep/a/b/key-link"
ln "$S/src-h/deep/a/b/c/d/e/big" "$S/src-h/private/big-link"
tar -C "$S/src-h" --format=pax -cf "$S/h.tar" .
mkdir "$S/gnu-h"
tar -C "$S/gnu-h" -xpf "$S/h.tar"
cp "$S/t.tar" "$S/dup.tar"
mkdir -p "$S/src2/private"
echo "the second key" >"$S/src2/private/key"
chmod 0640 "$S/src2/private/key"
tar -C "$S/src2" --format=pax -rf "$S/dup.tar" ./private/key
mkdir "$S/gnu-dup"
tar -C "$S/gnu-dup" -xpf "$S/dup.tar"

mkdir "$S/wd"
run_fsbench run --dir "$S/wd" --tree "tar:$S/h.tar" --phases extract --no-save -j 2 --runs 2 \
    --json "$S/h.json" -q
is "$RC" 0 "hard links: -j 2 --runs 2 exits 0"
is "$ERR" "" "hard links: nothing on stderr (extracted from the index)"
is "$(jq -r '.runs[1].phases[0].files' "$S/h.json")" "$((nfiles + 3))" \
    "hard links: files made include the 3 links"
run_fsbench run --dir "$S/wd" --tree "tar:$S/dup.tar" --phases extract --no-save -j 2 \
    --runs 2 --json "$S/dup.json" -q
is "$RC" 0 "duplicate names: -j 2 --runs 2 exits 0"
is "$ERR" "fsbench: warning: tar:$S/dup.tar: archive extracted by one thread: it has duplicate names" \
    "duplicate names: one warning line, for two runs, says the archive is extracted by one thread"
is "$(jq -r '.runs[1].phases[0].files' "$S/dup.json")" "$((nfiles + 1))" \
    "duplicate names: both versions of the name are counted as files made"

for j in 1 3; do
    snapshot $j "$S/t.tar" "$S/fsb-j$j"
    is "$RC" 0 "-j $j: tree make exits 0"
    compare_gnu "-j $j" "$S/gnu" "$S/fsb-j$j"
done
snapshot 2 "$S/h.tar" "$S/fsb-h"
is "$RC" 0 "hard links: tree make -j 2 exits 0"
compare_gnu "hard links -j 2" "$S/gnu-h" "$S/fsb-h"
like "$(linkgroups "$S/fsb-h")" "big-link" "hard links: private/big-link is one"
snapshot 2 "$S/dup.tar" "$S/fsb-dup"
is "$RC" 0 "duplicate names: tree make -j 2 exits 0"
like "$ERR" "by one thread" "duplicate names: tree make -j 2 says it used one thread"
# GNU tar sets private/'s mtime when it leaves the directory, before the appended entry
# changes it again; fsbench (like the streaming extraction) sets it at the end.
compare_gnu "duplicate names -j 2" "$S/gnu-dup" "$S/fsb-dup" nodirtimes
is "$(stat -c %Y "$S/fsb-dup/private")" "$(stat -c %Y "$S/src/private")" \
    "duplicate names: private/ keeps the archive's mtime"
is "$(cat "$S/fsb-dup/private/key")" "the second key" "duplicate names: the later entry wins"

# ---- hostile archive at -j 2: refused as at -j 1 --------------------------------------
mkdir "$S/outside"
python3 - "$S/evil.tar" "$S/outside" <<'EOF'
import io, sys, tarfile
out, outside = sys.argv[1], sys.argv[2]
t = tarfile.open(out, "w", format=tarfile.PAX_FORMAT)
def add(name, kind=tarfile.REGTYPE, link="", data=b"x\n"):
    ti = tarfile.TarInfo(name)
    ti.type, ti.linkname, ti.mode, ti.mtime = kind, link, 0o644, 1600000000
    if kind == tarfile.REGTYPE:
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
    else:
        t.addfile(ti)
add("good/", tarfile.DIRTYPE)
add("good/file", data=b"fine\n")
add(outside + "/absolute")                       # absolute path
add("../escape")                                 # '..'
add("good/../../escape2")                        # '..' inside
add("s", tarfile.SYMTYPE, link=outside)          # a symlink out (made, never followed)
add("s/through-symlink")                         # through it
add("s/deeper/through")                          # deeper through it
add("h", tarfile.LNKTYPE, link="../escape")      # hard link outside
add("h2", tarfile.LNKTYPE, link="/etc/passwd")   # hard link absolute
add("h3", tarfile.LNKTYPE, link="s/through-symlink")  # hard link through the symlink
add("fifo", tarfile.FIFOTYPE)                    # not a file, directory or link
add("good/file/under-a-file")                    # through a regular file
add("good/more", data=b"more\n")
t.close()
EOF
ok $? "python3 made evil.tar"
passwd_links=$(stat -c %h /etc/passwd)
for j in 1 2; do
    mkdir "$S/we$j"
    run_fsbench run --dir "$S/we$j" --tree "tar:$S/evil.tar" --phases extract --no-save \
        --json "$S/e$j.json" -j $j
    is "$RC" 0 "hostile archive -j $j: exit 0 (entries refused, the rest extracted)"
    eval "err$j=\$ERR"
done
is "$(printf '%s\n' "$err2" | grep -c 'refused')" 10 "hostile archive -j 2: one warning per refusal"
is "$err2" "$err1" "hostile archive: -j 2 warns exactly as -j 1 (same lines, same order)"
for n in "$S/outside/absolute" "../escape" "good/../../escape2" "s/through-symlink" \
    "s/deeper/through" "'h'" "'h2'" "'h3'" "'fifo'" "good/file/under-a-file"; do
    like "$err2" "warning: tar:.*evil.tar: refused .*$n" "hostile archive -j 2: warns about $n"
done
is "$(summary "$S/e2.json" | jq -c '[.status, .files, .dirs, .symlinks]')" \
    "$(summary "$S/e1.json" | jq -c '[.status, .files, .dirs, .symlinks]')" \
    "hostile archive: -j 2 and -j 1 make the same (-j 1 streams it, trying what -j 2's index refused first)"
is "$(summary "$S/e2.json" | jq -c '[.files, .dirs, .symlinks]')" "[2,1,1]" \
    "hostile archive -j 2: 2 files, 1 dir, 1 symlink made"
is "$(ls -A "$S/outside")" "" "hostile archive: nothing written in the symlink's target"
ok $([ ! -e "$S/escape" ] && [ ! -e "$S/escape2" ] && echo 0 || echo 1) \
    "hostile archive: nothing written beside the target"
is "$(stat -c %h /etc/passwd)" "$passwd_links" "hostile archive: no hard link made to /etc/passwd"
snapshot 2 "$S/evil.tar" "$S/fsb-evil"
is "$(cd "$S/fsb-evil" && find . -mindepth 1 | sort | tr '\n' ' ')" \
    "./good ./good/file ./good/more ./s " \
    "hostile archive -j 2: the target holds the good entries and the symlink, nothing else"
is "$(ls -A "$S/tmp")" "" "no decompressed copy left in \$TMPDIR"
done_testing
