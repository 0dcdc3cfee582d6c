#!/bin/bash
# Job files are data, never orders (issue 19): a job file cannot consent to destroying data
# (destroy-data and force are refused at their line; a device it names is shown by --dry-run,
# announced by the run and refused without --destroy-data on the command line); the outputs
# it names are listed by --dry-run and never replace a file unless the command line says so;
# its relative paths are its own (dir, json, db resolved against its directory, like
# include); every file read is a regular file of at most 1 MiB (/dev/zero, /dev/urandom, a
# symlink to one, a FIFO, a directory: one line, at once), UTF-8 text without NUL or
# control characters (refused at FILE:LINE); a line may be as long as the file; a value is
# one line also after ${NAME}; and --tree SHAPE.ini and import FILE.json follow the same
# rule. Each case prints its message as a TAP diagnostic.
. "$(dirname "$0")/../lib/tap.sh"

cd "$SCRATCH" || exit 1
export TMPDIR="$SCRATCH/tmp"
mkdir -p "$TMPDIR" empty
DB="$SCRATCH/r.db"
lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }

# refused NAME REGEX ARGS...: fsbench ARGS exits 2 within 20 s with one line matching REGEX.
refused() {
    local name=$1 re=$2
    shift 2
    local t0=$SECONDS
    RC=0
    ERR=$(timeout 20 "$FSBENCH" "$@" 2>&1 >/dev/null </dev/null) || RC=$?
    is "$RC" 2 "$name: exit status 2"
    like "$ERR" "$re" "$name: the message"
    is "$(lines "$ERR")" 1 "$name: one line"
    ok $([ $((SECONDS - t0)) -lt 15 ] && echo 0 || echo 1) "$name: at once"
    diag "$name | $ERR"
}

# --- consent comes from the command line only ------------------------------------------
printf '[global]\ntree = tiny\nphases = extract\ndevice = /dev/loop123\ndestroy-data = 1\n' >consent.ini
refused "destroy-data in a job file" \
    "^fsbench: consent\.ini:5: destroy-data: a job file cannot consent to destroying data: give --destroy-data on the command line$" \
    run consent.ini --db "$DB"
printf '[global]\ntree = tiny\n[j]\nforce = yes\n' >force.ini
refused "force in a job file" "^fsbench: force\.ini:4: force: a job file cannot consent" \
    run force.ini --db "$DB"

if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null &&
    command -v blkid >/dev/null; then
    truncate -s 64M precious.img && mkfs.ext4 -q -L PRECIOUS precious.img &&
        DEV=$(losetup --show -f precious.img) && LOOPS="$LOOPS $DEV"
    printf '[global]\ntree = tiny\nphases = extract\nfs = ext4\ndevice = %s\ndestroy-data = 1\nforce = 1\n' \
        "$DEV" >wipe.ini
    run_fsbench run wipe.ini --no-save
    is "$RC" 2 "a job file naming a device with destroy-data and force: refused"
    is "$(blkid -p -o value -s LABEL "$DEV")" PRECIOUS "the device's file system is untouched"
    printf '[global]\ntree = tiny\nphases = extract\nfs = ext4\ndevice = %s\n' "$DEV" >named.ini
    run_fsbench run named.ini --no-save --dry-run
    is "$RC" 0 "--dry-run of a job naming a device: exit 0"
    like "$OUT" "device: $DEV: mkfs overwrites everything on it; the run refuses without --destroy-data on the command line" \
        "--dry-run says which device would be overwritten, and what the run needs"
    run_fsbench run named.ini --no-save
    is "$RC" 2 "the run without --destroy-data on the command line: refused"
    like "$ERR" "^fsbench: named\.ini:5: job named: --device $DEV: refusing to use it without --destroy-data" \
        "the refusal names the device's line"
    is "$(blkid -p -o value -s LABEL "$DEV")" PRECIOUS "still untouched"
    run_fsbench run named.ini --no-save --dry-run --destroy-data="$DEV" --force
    like "$OUT" "device: $DEV: mkfs overwrites everything on it \(--destroy-data given on the command line\)" \
        "--dry-run with --destroy-data: says so"
    run_fsbench run named.ini --no-save --destroy-data="$DEV" --force
    is "$RC" 0 "with --destroy-data=DEV --force on the command line: it runs"
    like "$ERR" "^fsbench: mkfs will overwrite $DEV: everything on it is lost" \
        "the run says which device it overwrites"
    losetup -d "$DEV"
    LOOPS=""
else
    skip "needs root, losetup, mkfs.ext4 and blkid" 13
fi

# --- outputs a job file names ------------------------------------------------------------
mkdir -p sub/work
printf '[global]\ntree = tiny\nphases = extract,delete\nruns = 1\ndir = work\njson = out.json\ndb = r.db\n' \
    >sub/out.ini
echo precious >sub/out.json
run_fsbench run sub/out.ini --dry-run
is "$RC" 0 "--dry-run of a job naming outputs: exit 0"
like "$OUT" "results: saved in sub/r\.db \(named by the job file\)" "--dry-run lists the job's db (resolved beside the job)"
like "$OUT" "json: sub/out\.json \(named by the job file\)" "--dry-run lists the job's json"
like "$OUT" "REFUSED when run: json = sub/out\.json: the file exists" "--dry-run says the existing file would not be replaced"
like "$OUT" "in sub/work" "--dry-run: the job's dir is beside the job file"
run_fsbench run sub/out.ini
is "$RC" 2 "a job's json naming an existing file: refused"
like "$ERR" "^fsbench: sub/out\.ini:6: job out: json = sub/out\.json: the file exists, and a job file does not replace a file" \
    "the refusal names the json key's line"
is "$(cat sub/out.json)" precious "the existing file is untouched"
ok $([ ! -e sub/r.db ] && echo 0 || echo 1) "nothing ran: no store made"
run_fsbench run sub/out.ini --force
is "$RC" 0 "--force on the command line: it runs"
is "$(jq -r .schema_version sub/out.json 2>/dev/null)" 1 "and replaces the file with the JSON"
ok $([ -s sub/r.db ] && echo 0 || echo 1) "db = r.db is beside the job file"
is "$(ls -A sub/work)" "" "dir = work was the job's directory (used and left empty)"
echo precious >sub/out.json
run_fsbench run sub/out.ini --json "$SCRATCH/cl.json"
is "$RC" 0 "--json on the command line overrides the job's json"
is "$(cat sub/out.json)" precious "the job's json file is left alone"

# --- input files: regular, at most 1 MiB ---------------------------------------------------
mkfifo fifo.ini
mkdir dir.ini
ln -s /dev/zero zero.ini
ln -s /dev/urandom random.ini
printf '[global]\ninclude = /dev/zero\n' >inc-zero.ini
printf '[global]\ninclude = random.ini\n' >inc-random.ini
printf '[global]\ninclude = fifo.ini\n' >inc-fifo.ini
refused "include = /dev/zero" "^fsbench: inc-zero\.ini:2: include /dev/zero: not a regular file \(a character device\)$" \
    run inc-zero.ini --db "$DB"
refused "include of a symlink to /dev/urandom" "^fsbench: inc-random\.ini:2: include random\.ini: not a regular file \(a character device\)$" \
    run inc-random.ini --db "$DB"
refused "include of a FIFO" "^fsbench: inc-fifo\.ini:2: include fifo\.ini: not a regular file \(a FIFO\)$" \
    run inc-fifo.ini --db "$DB"
refused "--job /dev/zero" "^fsbench: /dev/zero: not a regular file \(a character device\)$" run --job /dev/zero --db "$DB"
refused "a FIFO as the job file" "^fsbench: fifo\.ini: not a regular file \(a FIFO\)$" run fifo.ini --db "$DB"
refused "a directory as the job file" "^fsbench: dir\.ini: not a regular file \(a directory\)$" run dir.ini --db "$DB"
head -c $((1024 * 1024 + 10)) /dev/zero | tr '\0' '#' >huge.ini
refused "a job file over 1 MiB" "^fsbench: huge\.ini: larger than 1 MiB$" run huge.ini --db "$DB"
refused "--tree SHAPE.ini that is /dev/zero" "zero\.ini: not a regular file \(a character device\)" \
    run --tree zero.ini --phases extract --db "$DB"
mkfifo fifo.json
RC=0
ERR=$(timeout 20 "$FSBENCH" import fifo.json --db "$DB" 2>&1) || RC=$?
is "$RC" 1 "import of a FIFO: exit 1, not a hang"
like "$ERR" "^fsbench: fifo\.json: not a regular file \(a FIFO\)$" "import of a FIFO: the message"

# --- text, not bytes ---------------------------------------------------------------------------
printf '[global]\ntree = tiny\nphases = extract\nruns = 1\n\0runs = 3\n' >nul.ini
refused "a NUL byte" "^fsbench: nul\.ini:5: a NUL byte: a job file is UTF-8 text without control characters$" \
    run nul.ini --db "$DB" --dir "$SCRATCH/empty"
printf '[global]\ntree = tiny\nlabel = caf\xe9\n' >latin1.ini
refused "invalid UTF-8" "^fsbench: latin1\.ini:3: a byte that is not UTF-8 \(0xe9\)" run latin1.ini --db "$DB"
printf '[global]\ntree = tiny\ndescription = safe \xe2\x80\xaeexe.txt\n' >bidi.ini
refused "U+202E" "^fsbench: bidi\.ini:3: a bidirectional-text control \(U\+202E\)" run bidi.ini --db "$DB"
printf '[global]\n# \033]0;owned\007\ntree = tiny\n' >esc.ini
refused "an escape sequence" "^fsbench: esc\.ini:2: a control character \(0x1b\)" run esc.ini --db "$DB"
export FSBENCH_T1105=$'1\nfsbench: a forged second line'
printf '[global]\ntree = tiny\nthreads = ${FSBENCH_T1105}\n' >nl.ini
refused "a newline through \${NAME}" "^fsbench: nl\.ini:3: threads: the value holds a line break after expansion$" \
    run nl.ini --db "$DB"
unset FSBENCH_T1105

# --- long lines ---------------------------------------------------------------------------------
comment=$(printf 'why this runs as it does. %.0s' $(seq 120))
desc=$(printf 'a long description, %.0s' $(seq 200))
printf '[global]\ntree = tiny\nphases = extract\n# %s\n[j]\ndescription = %s\n' \
    "$comment" "$desc" >long.ini
run_fsbench run long.ini --dry-run --db "$DB"
is "$RC" 0 "lines of 3,000 and 4,000 characters: accepted"
like "$OUT" "job j" "the long job is planned"
ok $([ ! -e "$DB" ] && echo 0 || echo 1) "no results store was made by any refused file"
done_testing
