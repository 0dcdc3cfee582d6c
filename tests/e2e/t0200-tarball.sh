#!/bin/bash
# Real archives as the tree (`tree make tar:FILE DIR`, `run --tree tar:FILE`): fsbench's
# extraction of a .tar.xz, a pax .tar.gz and a sparse GNU tar is identical to GNU tar's
# (names, types, sizes, modes, mtimes, link targets, content hashes, hard links); hostile
# archives are refused entry by entry with a warning each and nothing written outside the
# target; truncated archives and non-archives fail with one line naming the file.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/treecmp.sh"
need_cmd tar
need_cmd xz
need_cmd python3
need_cmd sha256sum
need_cmd jq

S=$SCRATCH
export LC_ALL=C
# Decompressed copies go to $TMPDIR; it must be empty again at the end.
mkdir "$S/tmp"
export TMPDIR="$S/tmp"

# ---- a source tree with every kind of entry ------------------------------------------
run_fsbench tree make tiny "$S/src" --seed 5
is "$RC" 0 "tree make tiny (the source tree) exits 0"
first=$(cd "$S/src" && find . -type f -printf '%P\n' | sort | head -1)
ln "$S/src/$first" "$S/src/hardlink"
ln -s "$first" "$S/src/symlink"
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
touch -h -d '2003-04-05 06:07:08' "$S/src/symlink"
touch -d '2002-03-04 05:06:07.5' "$S/src/private" "$S/src/readonly-empty"

tar -C "$S/src" -cJf "$S/t.tar.xz" .
ok $? "GNU tar made t.tar.xz"
tar -C "$S/src" --format=pax -czf "$S/t.tar.gz" .
ok $? "GNU tar made t.tar.gz (pax: nanosecond mtimes)"
tar -C "$S/src" -S -cf "$S/sparse.tar" .
ok $? "GNU tar made sparse.tar (-S)"

for a in t.tar.xz t.tar.gz sparse.tar; do
    mkdir "$S/gnu-$a"
    tar -C "$S/gnu-$a" -xpf "$S/$a"
    run_fsbench tree make "tar:$S/$a" "$S/fsb-$a"
    is "$RC" 0 "$a: tree make tar: exits 0"
    is "$ERR" "" "$a: nothing on stderr"
    nfiles=$(find "$S/gnu-$a" -type f | wc -l)
    like "$OUT" "^wrote $nfiles files" "$a: reports the $nfiles files (hard link included)"
    want=$(listing "$S/gnu-$a")
    got=$(listing "$S/fsb-$a")
    is "$got" "$want" "$a: same names, types, sizes, modes, mtimes, link targets as GNU tar"
    [ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | head -20 | sed 's/^/# /'
    is "$(hashes "$S/fsb-$a")" "$(hashes "$S/gnu-$a")" "$a: same content (sha256 of every file)"
    got=$(linkgroups "$S/fsb-$a")
    is "$got" "$(linkgroups "$S/gnu-$a")" "$a: same hard links"
    like "$got" "hardlink" "$a: the hard link is one"
done
blocks=$(stat -c %b "$S/fsb-sparse.tar/sparse")
ok $([ "$blocks" -lt 1024 ] && echo 0 || echo 1) "sparse file keeps its holes ($blocks blocks)"

# Into a non-empty directory: refused as for profiles.
run_fsbench tree make "tar:$S/t.tar.xz" "$S/fsb-t.tar.xz"
is "$RC" 2 "tree make tar: into a non-empty directory is refused"

# ---- hostile archive --------------------------------------------------------------------
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
add("h", tarfile.LNKTYPE, link="../escape")      # hard link outside
add("h2", tarfile.LNKTYPE, link="/etc/passwd")   # hard link absolute
add("fifo", tarfile.FIFOTYPE)                    # not a file, directory or link
add("good/more", data=b"more\n")
t.close()
EOF
ok $? "python3 made evil.tar"
passwd_links=$(stat -c %h /etc/passwd)
run_fsbench tree make "tar:$S/evil.tar" "$S/evil"
is "$RC" 0 "hostile archive: exit 0 (entries refused, the rest extracted)"
for n in "$S/outside/absolute" "../escape" "good/../../escape2" "s/through-symlink" "'h'" \
    "'h2'" "'fifo'"; do
    like "$ERR" "warning: tar:.*evil.tar: refused .*$n" "hostile archive: warns about $n"
done
is "$(printf '%s\n' "$ERR" | grep -c 'refused')" 7 "hostile archive: one warning per refusal"
like "$ERR" "fifo.*not a file, directory or link" "the fifo is 'not a file, directory or link'"
is "$(ls -A "$S/outside")" "" "nothing written in the symlink's target"
ok $([ ! -e "$S/escape" ] && [ ! -e "$S/escape2" ] && echo 0 || echo 1) \
    "nothing written beside the target"
is "$(stat -c %h /etc/passwd)" "$passwd_links" "no hard link made to /etc/passwd"
is "$(cat "$S/evil/good/file" "$S/evil/good/more")" "$(printf 'fine\nmore')" \
    "the good entries are extracted"
is "$(cd "$S/evil" && find . -mindepth 1 | sort | tr '\n' ' ')" \
    "./good ./good/file ./good/more ./s " \
    "the target holds the good entries and the symlink, nothing else"

# ---- truncated archive, not an archive ----------------------------------------------------
size=$(stat -c %s "$S/t.tar.gz")
head -c $((size / 2)) "$S/t.tar.gz" >"$S/cut.tar.gz"
run_fsbench tree make "tar:$S/cut.tar.gz" "$S/cut"
is "$RC" 1 "truncated .tar.gz: exit 1"
is "$(printf '%s\n' "$ERR" | wc -l)" 1 "truncated .tar.gz: one line"
like "$ERR" "^fsbench: tar:$S/cut.tar.gz: " "truncated .tar.gz: the line names the file"
ok $([ ! -e "$S/cut" ] || [ -z "$(ls -A "$S/cut")" ] && echo 0 || echo 1) \
    "truncated .tar.gz: target left absent or empty"
printf 'just some text\nnot an archive\n' >"$S/notes.txt"
run_fsbench tree make "tar:$S/notes.txt" "$S/notes"
ok $([ "$RC" -eq 1 ] || [ "$RC" -eq 2 ] && echo 0 || echo 1) "not an archive: exit 1 or 2"
like "$ERR" "^fsbench: tar:$S/notes.txt: Unrecognized archive format" "not an archive: says so"
run_fsbench tree make "tar:$S/missing.tar" "$S/missing"
ok $([ "$RC" -eq 1 ] || [ "$RC" -eq 2 ] && echo 0 || echo 1) "missing archive: exit 1 or 2"
like "$ERR" "tar:$S/missing.tar: No such file" "missing archive: says so"
is "$(ls -A "$S/tmp")" "" "no decompressed copy left in \$TMPDIR"

# ---- a run on the archive -----------------------------------------------------------------
mkdir "$S/work"
run_fsbench run --dir "$S/work" --tree "tar:$S/t.tar.xz" --no-save --json "$S/r.json"
is "$RC" 0 "run --tree tar:t.tar.xz exits 0"
count() { jq -r --arg p "$1" --arg f "$2" '.runs[0].phases[] | select(.name == $p) | .[$f]' \
    "$S/r.json" 2>/dev/null; }
nfiles=$(find "$S/gnu-t.tar.xz" -type f | wc -l)
is "$(count extract files)" "$nfiles" "run: extract created every file"
is "$(count walk files)" "$nfiles" "run: walk saw every file"
is "$(count read files)" "$nfiles" "run: read read every file"
ndirs=$(find "$S/gnu-t.tar.xz" -mindepth 1 -type d | wc -l)
is "$(count extract dirs)" "$ndirs" "run: extract made every directory"
is "$(count walk dirs)" "$ndirs" "run: walk saw every directory"
is "$(ls -A "$S/work")" "" "run: work directory is empty afterwards"
done_testing
