#!/bin/bash
# The spool trusts nothing it did not write (issue 30): runs waiting in DB.spool/ join the
# store only when the directory is the user's own (not a symbolic link, owned by the
# effective user, writable by no one else) and each file is a regular file of the user's
# with one link; a planted directory or file is refused, named in a warning, and its run is
# not merged into the store. A run fsbench kept there still joins its set.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd sqlite3
need_cmd jq
cd "$SCRATCH" || exit 1
DB=$SCRATCH/r.db

run_fsbench run --tree tiny --phases extract,delete --db "$DB" --label N -q
is "$RC" 0 "a set of one run: exit 0"
id=$(sqlite3 "$DB" "SELECT id FROM run_sets WHERE label = 'N'")
# a second run of N, as a spooled file would hold it
"$FSBENCH" export N --json --db "$DB" | jq '.runs[0].index = 1 | .runs[0].round = 1 | .runs[0].started += 60' >"$SCRATCH/run1.json"
stored() { "$FSBENCH" export N --json --db "$DB" 2>/dev/null | jq -c '[.runs[].index] | sort'; }
flush() { run_fsbench forget NOPE --db "$DB"; }
NAME="set$id-run1.json"

# a spool directory writable by others
mkdir -m 0777 "$DB.spool" && chmod 0777 "$DB.spool" && cp run1.json "$DB.spool/$NAME"
flush
like "$ERR" "^fsbench: the spool $DB\.spool belongs to uid $(id -u) with mode 0777, not to this user alone \(uid $(id -u), not writable by others\): refused; remove it$" \
    "a spool writable by others: refused, named"
like "$ERR" "^fsbench: warning: the runs in $DB\.spool are not read$" "and its runs are not read"
is "$(stored N)" "[0]" "the planted run is not merged"
rm -r "$DB.spool"

# a symbolic link in the spool's place
mkdir -m 0700 elsewhere && cp run1.json "elsewhere/$NAME" && ln -s "$SCRATCH/elsewhere" "$DB.spool"
flush
like "$ERR" "^fsbench: the spool $DB\.spool is not a directory \(a symbolic link or a file\): refused; remove it$" \
    "a symbolic link as the spool: refused, named"
is "$(stored N)" "[0]" "the run behind the link is not merged"
rm "$DB.spool"

# the user's own spool, a symbolic link in it
mkdir -m 0700 "$DB.spool" && ln -s "$SCRATCH/elsewhere/$NAME" "$DB.spool/$NAME"
flush
like "$ERR" "^fsbench: warning: $DB\.spool/$NAME is not a run kept by fsbench \(a symbolic link or unreadable\): refused and left alone$" \
    "a symbolic link in the spool: refused, named"
is "$(stored N)" "[0]" "not merged"
rm "$DB.spool/$NAME"

# a hard link in it
ln "$SCRATCH/elsewhere/$NAME" "$DB.spool/$NAME"
flush
like "$ERR" "^fsbench: warning: $DB\.spool/$NAME is not a run kept by fsbench \(a hard link\): refused and left alone$" \
    "a hard link in the spool: refused, named"
is "$(stored N)" "[0]" "not merged"
rm "$DB.spool/$NAME"

if [ "$(id -u)" -eq 0 ]; then
    # a spool owned by another user, and a file of another user's in the user's spool
    rmdir "$DB.spool"
    mkdir -m 0700 "$DB.spool" && cp run1.json "$DB.spool/$NAME" && chown -R 65534 "$DB.spool"
    flush
    like "$ERR" "^fsbench: the spool $DB\.spool belongs to uid 65534 with mode 0700, not to this user alone" \
        "a spool of another user's: refused, named"
    is "$(stored N)" "[0]" "not merged"
    chown 0 "$DB.spool"
    flush
    like "$ERR" "^fsbench: warning: $DB\.spool/$NAME is not a run kept by fsbench \(owned by another user\): refused and left alone$" \
        "a file of another user's in the spool: refused, named"
    is "$(stored N)" "[0]" "not merged"
    rm "$DB.spool/$NAME"
else
    skip "not root: cannot make files of another user's" 4
fi

# the user's own file in the user's own spool: it joins the set, and the spool goes
cp run1.json "$DB.spool/$NAME"
flush
like "$ERR" "1 run that waited in $DB\.spool while the store was locked has joined its set" \
    "a run the user kept joins its set"
is "$(stored N)" "[0,1]" "merged"
ok "$([ ! -e "$DB.spool" ]; echo $?)" "the spool is gone"
done_testing
