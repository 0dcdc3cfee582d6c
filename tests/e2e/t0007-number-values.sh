#!/bin/bash
# Number options, on the command line and in a job file: a closed bound is a value like any
# other (--age-fullness 0, --age-written 0, --warmup 0), whatever strtod would also take
# (blanks, signs, hex, inf) is refused with one line that says what would do, and a scale
# past what a tree may hold is a usage error before anything runs, not a failed run.
. "$(dirname "$0")/../lib/tap.sh"

good() { # good NAME -- ARGS...
    local name=$1; shift 2
    run_fsbench "$@"
    is "$RC" 0 "$name: accepted"
    [ "$RC" -eq 0 ] || diag "$ERR"
}

bad() { # bad REGEX NAME -- ARGS...
    local re=$1 name=$2; shift 3
    run_fsbench "$@"
    is "$RC" 2 "$name: exit status 2"
    like "$ERR" "^fsbench: $re" "$name: the message names the option and what would do"
    is "$(printf '%s\n' "$ERR" | wc -l)" 1 "$name: one line on stderr"
}

mkdir "$SCRATCH/d"
PLAN=(run --dry-run --no-save --dir "$SCRATCH/d" --phases extract)

# 1. The closed lower bounds (the "0" the old parser read uninitialised).
good "--age-written 10 --age-fullness 0" -- "${PLAN[@]}" --age-written 10 --age-fullness 0
good "--age-fullness 0.0" -- "${PLAN[@]}" --age-fullness 0.0
good "--age-written 0" -- "${PLAN[@]}" --age-written 0
good "--warmup 0" -- "${PLAN[@]}" --warmup 0 --runs 2
good "--age-fullness 0.5" -- "${PLAN[@]}" --age-fullness 0.5

# 2. ... and the same in a job file, as a key and as a phase parameter.
printf '[global]\nphases = extract\nage-written = 10\nage-fullness = 0\n' >"$SCRATCH/a.ini"
good "job file: age-fullness = 0" -- run --dry-run --dir "$SCRATCH/d" "$SCRATCH/a.ini"
printf '[global]\nphases = extract\nphase.age.age-fullness = 0\n' >"$SCRATCH/b.ini"
good "job file: phase.age.age-fullness = 0" -- run --dry-run --dir "$SCRATCH/d" "$SCRATCH/b.ini"

# 3. Out of range or not a number: refused, naming the range.
bad "--age-fullness: '1' is not a number from 0 to below 1" "--age-fullness 1" -- \
    "${PLAN[@]}" --age-fullness 1
bad "--age-written: '51' is not a number from 0 to 50" "--age-written 51" -- \
    "${PLAN[@]}" --age-written 51
bad "--scale: '0x10' is not a positive number" "--scale 0x10" -- "${PLAN[@]}" --scale 0x10
bad "--scale: ' 2' is not a positive number" "--scale ' 2'" -- "${PLAN[@]}" --scale ' 2'
bad "--scale: 'inf' is not a positive number" "--scale inf" -- "${PLAN[@]}" --scale inf
bad "--stall: '-1' is not a number of seconds" "--stall -1" -- "${PLAN[@]}" --stall -1
bad "--interval: '\+5' is not a whole number of ms from 1 to 60000" "--interval +5" -- \
    "${PLAN[@]}" --interval +5
bad "--threads: '2.0' is not a whole number from 1 to 64" "-j 2.0" -- "${PLAN[@]}" -j 2.0
bad "--precision: '100' is not a percentage above 0 and below 100" "--precision 100" -- \
    "${PLAN[@]}" --precision 100
printf '[global]\nphases = extract\nage-fullness = -0.1\n' >"$SCRATCH/c.ini"
bad "$SCRATCH/c.ini:3: .*age-fullness: '-0.1' is not a number from 0 to below 1" \
    "job file: age-fullness = -0.1" -- run --dry-run --dir "$SCRATCH/d" "$SCRATCH/c.ini"

# 4. A scale past the largest tree: a usage error (exit 2) before anything runs, like --size,
#    not "Cannot allocate memory" from the first phase (exit 1).
bad "--scale: '1e300' would make the tree tiny .* files, more than" "--scale 1e300 (dry run)" -- \
    "${PLAN[@]}" --scale 1e300
bad "--scale: '1e300' would make" "--scale 1e300 (run)" -- \
    run --no-save --dir "$SCRATCH/d" --phases extract --scale 1e300
is "$(ls -A "$SCRATCH/d")" "" "--scale 1e300: nothing made in --dir"
bad "--scale: '2e9' would make" "tree stats --scale 2e9" -- tree stats tiny --scale 2e9
bad "tree tiny: scale .* exceeds" "--size 1000000T" -- "${PLAN[@]}" --size 1000000T
done_testing
