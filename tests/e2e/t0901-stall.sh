#!/bin/bash
# Stalls listed, not one number: the process is stopped with SIGSTOP for 2 s in the middle
# of extract; the stall is listed with its offset and length within one sampling interval
# (100 ms; 50 ms more for the signals' own timing), in the JSON, in the store (export
# reads it back) and in the table; --stall above its length lists nothing.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

DB=$SCRATCH/s.db
J=$SCRATCH/s.json
mkdir "$SCRATCH/w"
"$FSBENCH" run --db "$DB" --label stall --phases extract --tree tiny --scale 40 \
    --dir "$SCRATCH/w" --json "$J" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
PID=$!
sleep 0.8
STOP=$(date +%s.%N)
kill -STOP $PID
sleep 2
CONT=$(date +%s.%N)
kill -CONT $PID
wait $PID
is "$?" 0 "run stopped for 2 s exits 0"
OUT=$(cat "$SCRATCH/out")
started=$(jq '.runs[0].started' "$J")
wall=$(jq '.runs[0].phases[0].wall_s' "$J")
n=$(jq '.runs[0].phases[0].stalls | length' "$J")
is "$n" 1 "JSON: one stall listed"
st=$(jq '.runs[0].phases[0].stalls[0].start_s' "$J")
len=$(jq '.runs[0].phases[0].stalls[0].length_s' "$J")
# The run's start is taken just before the phase's (an empty directory to clear).
want_st=$(awk -v s="$STOP" -v r="$started" 'BEGIN { printf "%.3f", s - r }')
want_len=$(awk -v a="$STOP" -v b="$CONT" 'BEGIN { printf "%.3f", b - a }')
diag "stopped at $want_st s for $want_len s; listed at $st s for $len s; phase wall $wall s"
ok $(awk -v a="$st" -v b="$want_st" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.15) }' && echo 0 || echo 1) \
    "the stall's offset is within one interval of the stop ($st s, stopped at $want_st s)"
ok $(awk -v a="$len" -v b="$want_len" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.15) }' && echo 0 || echo 1) \
    "the stall's length is within one interval of the stop's ($len s, stopped $want_len s)"
ok $(awk -v s="$st" -v l="$len" -v w="$wall" 'BEGIN { exit !(s > 0 && s + l < w) }' && echo 0 || echo 1) \
    "the stall lies inside the phase"
like "$(jq -c '.runs[0].phases[0].stalls[0].device' "$J")" '^(null|\{"sectors_read":[0-9]+,"sectors_written":[0-9]+,"busy_ms":[0-9]+,"in_flight_max":[0-9]+,"busy":(true|false)\})$' \
    "JSON: the device's activity during the stall (or null without a device)"
like "$OUT" '^  extract stalls in run 1: 1, longest [0-9.]+ s at [0-9.]+ s, (device busy|device idle|no device)$' \
    "table: the stall with its length, offset and the device's state"

# The store keeps the list: export gives it back.
"$FSBENCH" export stall --db "$DB" --json -o "$SCRATCH/e.json" </dev/null
is "$?" 0 "export from the store exits 0"
is "$(jq -c '.runs[0].phases[0].stalls' "$SCRATCH/e.json")" "$(jq -c '.runs[0].phases[0].stalls' "$J")" \
    "the store's stalls equal the JSON's"

# Time-line points carry the device counters when there is a device.
dev=$(jq -r '.runs[0].phases[0].device != null' "$J")
npt=$(jq '[.runs[0].phases[0].timeline[] | length] | unique | .[0]' "$J")
is "$npt" "$([ "$dev" = true ] && echo 7 || echo 3)" \
    "time-line points: [t, ops, bytes] plus sectors read, written, in flight, busy ms with a device"

# --stall longer than the stall: none listed.
"$FSBENCH" run --no-save --phases extract --tree tiny --scale 40 --stall 3 \
    --dir "$SCRATCH/w" --json "$SCRATCH/s3.json" >/dev/null 2>&1 </dev/null &
PID=$!
sleep 0.8
kill -STOP $PID
sleep 2
kill -CONT $PID
wait $PID
is "$?" 0 "run --stall 3 exits 0"
is "$(jq '.runs[0].phases[0].stalls | length' "$SCRATCH/s3.json")" 0 "--stall 3: a 2 s stall is not listed"

run_fsbench run --no-save --stall abc --dir "$SCRATCH/w"
is "$RC" 2 "--stall abc exits 2"
like "$ERR" "^fsbench: --stall: 'abc' is not a number of seconds" "--stall abc: one clear line"
done_testing
