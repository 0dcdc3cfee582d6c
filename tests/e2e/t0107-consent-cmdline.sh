#!/bin/bash
# Consent comes from this command line only (issue 30). Loop devices on small images stand
# in for disks, each with a file system labelled PRECIOUS that must survive every refusal:
# - --resume takes no consent from the store: a set's stored arguments edited by hand to
#   name a device with --destroy-data --force are refused (the consent words are left out,
#   said in a warning), and the device and consent must be given on the command line again;
# - the resumed plan must be the stored one: an image set resumed on a device, with fewer
#   runs, or with other phases, is refused naming what differs;
# - a device a job file names is not destroyed by bare --destroy-data --force: the command
#   line must name it (--device DEV or --destroy-data=DEV), and a job file's device that
#   differs from the command line's is refused at its line;
# - --device on a regular file is refused at once, with --dry-run too;
# - a set on a device resumes with the device and consent given again.
. "$(dirname "$0")/../lib/tap.sh"
tap_alone # edits a set's state by hand and runs on loop devices of its own
need_root
need_cmd losetup
need_cmd blkid
need_cmd mkfs.ext4
need_cmd sqlite3
. "$(dirname "$0")/../lib/target.sh"

cd "$SCRATCH" || exit 1
DB="$SCRATCH/r.db"
label_of() { blkid -p -o value -s LABEL "$1"; }
truncate -s 128M precious.img && mkfs.ext4 -q -L PRECIOUS precious.img &&
    DEV=$(losetup --show -f precious.img) && LOOPS="$LOOPS $DEV" || skip_all "cannot attach a loop device"
truncate -s 128M other.img && mkfs.ext4 -q -L PRECIOUS2 other.img &&
    OTHER=$(losetup --show -f other.img) && LOOPS="$LOOPS $OTHER" || skip_all "cannot attach a loop device"
# interrupted LABEL ARGS_JSON: the set LABEL as a kill -9 leaves it, its first run alone
# kept, with ARGS_JSON as its stored arguments (as someone who can write the store edits it)
interrupted() {
    sqlite3 "$DB" "pragma foreign_keys = on;
                   delete from runs where idx > 0 and set_id = (select id from run_sets
                   where label = '$1');
                   update run_sets set state = 'interrupted', args_json = '$2' where label = '$1'"
}

# ---- a set on an image, resumed with stored arguments edited to destroy a device
run_fsbench run --image 128M --fs ext4 --runs 3 --phases extract,sync,delete --tree tiny \
    --db "$DB" --label L -q
is "$RC" 0 "the image set: exit 0"
interrupted L "[\"--device\",\"$DEV\",\"--destroy-data\",\"--force\",\"--phases\",\"extract\"]"
run_fsbench run --resume L --db "$DB"
diag "$ERR"
is "$RC" 2 "--resume with consent only in the store: exit 2"
like "$ERR" "^fsbench: warning: --resume: the stored arguments hold '--destroy-data': left out \(consent comes from the command line alone\)$" \
    "the stored --destroy-data is left out, and said"
like "$ERR" "^fsbench: --resume: 'L' runs on the device $DEV, whose data mkfs destroys: name it and consent again on the command line \(--device $DEV --destroy-data\)$" \
    "the device and the consent are asked for on the command line, named"
is "$(label_of "$DEV")" PRECIOUS "the device's file system survives"
nothing_left "consent from the store"

# consent given, but the plan is not the stored one
run_fsbench run --resume L --db "$DB" --device "$DEV" --destroy-data --force
diag "$ERR"
is "$RC" 2 "--resume of an image set as a device set: exit 2"
like "$ERR" "^fsbench: --resume: 'L' ran on an image; these arguments run on a device: the plan changed, so it cannot be finished$" \
    "the target kind that differs is named"
is "$(label_of "$DEV")" PRECIOUS "the device's file system survives"
interrupted L '["--image","128M","--fs","ext4","--phases","extract","--tree","tiny"]'
run_fsbench run --resume L --db "$DB"
is "$RC" 2 "--resume with 1 run where 3 were planned: exit 2"
like "$ERR" "^fsbench: --resume: 'L' planned 3 runs; these arguments plan 1: the plan changed" \
    "the runs that differ are named"
interrupted L '["--image","128M","--fs","ext4","--runs","3","--phases","extract","--tree","tiny"]'
run_fsbench run --resume L --db "$DB"
is "$RC" 2 "--resume with other phases: exit 2"
like "$ERR" "^fsbench: --resume: 'L' ran the phases extract,sync,delete; these arguments run extract: the plan changed" \
    "the phases that differ are named"
nothing_left "plans that differ"

# ---- a device named by a job file alone
printf '[global]\ntree = tiny\nphases = extract\nfs = ext4\ndevice = %s\n' "$DEV" >j.ini
run_fsbench run j.ini --no-save --destroy-data --force
diag "$ERR"
is "$RC" 2 "bare --destroy-data --force with a job file's device: exit 2"
is "$ERR" "fsbench: j.ini:5: job j: --destroy-data: the command line does not name $DEV, the device the job file names: name it there (--device $DEV or --destroy-data=$DEV) to destroy its data" \
    "refused in one line naming the device and how to name it"
is "$(label_of "$DEV")" PRECIOUS "the job file's device survives"
run_fsbench run j.ini --no-save --dry-run --destroy-data --force
like "$OUT" "device: $DEV: mkfs overwrites everything on it; the run refuses: the command line does not name it" \
    "--dry-run says the run would refuse it"
run_fsbench run j.ini --no-save --device "$OTHER" --destroy-data --force
is "$RC" 2 "a job file's device other than the command line's: exit 2"
is "$ERR" "fsbench: j.ini:5: job j: device = $DEV, but the command line names $OTHER: refusing to destroy a device the job file and the command line do not agree on" \
    "refused in one line at the job file's line"
run_fsbench run j.ini --no-save --destroy-data="$OTHER" --force
is "$RC" 2 "--destroy-data=OTHER with a job file's device: exit 2"
like "$ERR" "device = $DEV, but the command line names $OTHER" "refused, naming both"
is "$(label_of "$DEV")" PRECIOUS "the job file's device survives"
is "$(label_of "$OTHER")" PRECIOUS2 "the command line's device survives"
run_fsbench run --device "$DEV" --destroy-data="$OTHER" --force --phases extract --no-save
is "$RC" 2 "--device and --destroy-data=DEV naming two devices: exit 2"
is "$ERR" "fsbench: --device $DEV and --destroy-data=$OTHER name two devices: name the one whose data mkfs may destroy" \
    "refused in one line"

# ---- --device on a regular file: refused at once, with --dry-run too
run_fsbench run --device "$SCRATCH/precious.img" --destroy-data --phases extract --dry-run
is "$RC" 2 "--device FILE --dry-run: exit 2"
is "$ERR" "fsbench: --device $SCRATCH/precious.img: a regular file, not a block device (--image SIZE makes an image fsbench owns)" \
    "--device FILE: refused, saying why"

# ---- a set on a device: resumed only with the device and consent on the command line
run_fsbench run --device "$OTHER" --destroy-data --force --fs ext4 --runs 2 --phases extract \
    --tree tiny --db "$DB" --label D -q
diag "$ERR"
is "$RC" 0 "a set on a device named on the command line: exit 0"
is "$(label_of "$OTHER")" "" "that device was mkfs'ed (consent given)"
mkfs.ext4 -q -L PRECIOUS2 "$OTHER"
ARGS=$(sqlite3 "$DB" "select args_json from run_sets where label = 'D'")
unlike=$(printf '%s' "$ARGS" | grep -c -e destroy -e force)
is "$unlike" 0 "the stored arguments hold no consent"
interrupted D "$ARGS"
run_fsbench run --resume D --db "$DB"
is "$RC" 2 "--resume of a device set without consent: exit 2"
like "$ERR" "^fsbench: --resume: 'D' runs on the device $OTHER, whose data mkfs destroys: name it and consent again on the command line \(--device $OTHER --destroy-data\)$" \
    "the device and consent are asked for"
run_fsbench run --resume D --db "$DB" --destroy-data --force
is "$RC" 2 "--resume with bare --destroy-data: exit 2"
is "$(label_of "$OTHER")" PRECIOUS2 "the device survives both"
run_fsbench run --resume D --db "$DB" --device "$DEV" --destroy-data --force
is "$RC" 2 "--resume naming another device: exit 2"
like "$ERR" "^fsbench: --resume: 'D' runs on the device $OTHER, not $DEV" "refused, naming both"
is "$(label_of "$DEV")" PRECIOUS "the other device survives"
run_fsbench run --resume D --db "$DB" --device "$OTHER" --destroy-data --force
diag "$ERR"
is "$RC" 0 "--resume with the device and consent given again: exit 0"
is "$(sqlite3 "$DB" "select count(*) from runs r join run_sets s on s.id = r.set_id where s.label = 'D'")" 2 \
    "the set is complete"
nothing_left "device set"
losetup -d "$DEV" "$OTHER"
LOOPS=""
done_testing
