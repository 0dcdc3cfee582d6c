# target.sh — helpers for end-to-end tests of managed targets (--image, --device); sourced
# after tap.sh. Points TMPDIR at the scratch directory so every image, mount point and run
# directory fsbench makes is ours to check, and detaches at exit any loop device fsbench
# might leave behind on one of its images (tap.sh detaches only the ones a test attached).

export TMPDIR="$SCRATCH/tmp"
mkdir -p "$TMPDIR"
PREFIX="$TMPDIR/fsbench-target."

rescue_loops() {
    LOOPS="$LOOPS $(losetup -a | awk -F: -v p="$PREFIX" 'index($0, p) { print $1 }')"
}
trap 'rescue_loops; tap_cleanup' EXIT

our_mounts() { awk -v p="$TMPDIR/" 'index($5, p) == 1 { print $5 }' /proc/self/mountinfo; }
# run_mounted: a file system is mounted under $TMPDIR with a run's directory in it (the
# pre-flight's mount of the same image, before the runs, holds none)
run_mounted() {
    local m
    for m in $(our_mounts); do
        [ -d "$m/fsbench" ] && return 0
    done
    return 1
}
our_loops() { losetup -a | grep -F "$PREFIX"; }

# nothing_left WHAT: no mount under $TMPDIR, no loop device on an fsbench-target image, and
# no fsbench-target directory (image, mount point) left in $TMPDIR (3 assertions).
nothing_left() {
    is "$(our_mounts)" "" "$1: nothing mounted under \$TMPDIR"
    is "$(our_loops)" "" "$1: no loop device backed by an fsbench-target image"
    is "$(cd "$TMPDIR" && ls -d fsbench-target.* 2>/dev/null)" "" \
        "$1: no fsbench-target directory left in \$TMPDIR"
}
