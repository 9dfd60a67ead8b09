# storm.sh MODULE SCALE: storm.stp under four writers for 10 s (60 s).
. ./lib.sh
mod=$(pwd)/$1
secs=10
[ "$2" = full ] && secs=60
# The guest's tmpfs, not the 9p job directory (it can hold no fifo).
# staprun writes millions of backtrace lines and as many ERROR lines (60 s
# of them would fill the tmpfs): line_tally keeps only their counts and
# every other line; staprun writes into fifos, so its status is its own.
cd "$(mktemp -d)"
mkfifo out.pipe err.pipe
"$BUILD/line_tally" ' 0x' out < out.pipe &
tally_out=$!
"$BUILD/line_tally" 'ERROR: ' err < err.pipe &
tally_err=$!
staprun "$mod" > out.pipe 2> err.pipe &
sp=$!
# The module is loaded and its probes armed once the begin probe ran (a
# load can take seconds on a busy host: calls before it are not probed).
j=0
while ! grep -q '^ready' out && [ $j -lt 600 ]; do sleep 0.1; j=$((j + 1)); done
grep -q '^ready' out || fail "no begin probe output after 60 s; stderr: $(head -5 err)"
i=0
while [ $i -lt 4 ]; do
  "$BUILD/storm_writer" $secs > "calls.$i" &
  i=$((i + 1))
done
# The writers end on their own clock; a bound so a stuck guest fails here.
wait_writers() {
  for f in calls.0 calls.1 calls.2 calls.3; do
    j=0
    while [ ! -s $f ] && [ $j -lt $((secs * 20)) ]; do sleep 0.5; j=$((j + 1)); done
    [ -s $f ] || fail "writer $f gave no count after $((secs * 10)) s"
  done
}
wait_writers
kill -TERM $sp
wait $sp
status=$?
wait $tally_out $tally_err
calls=$(cat calls.* | awk '{s += $2} END {print s}')
last=$(grep '^hits ' out)
set -- $last
hits=$2 long=$4 deep=$6 others=$8
errors=$(sed -n 's/^WARNING: Number of errors: \([0-9]*\), skipped probes: \([0-9]*\)$/\1/p' err)
skipped=$(sed -n 's/^WARNING: Number of errors: \([0-9]*\), skipped probes: \([0-9]*\)$/\2/p' err)
drops=$(sed -n 's/^WARNING: \([0-9]*\) bytes of output in \([0-9]*\) records were dropped.*/\1/p' err)
backtraces=$(sed -n 's/^tally //p' out)
error_lines=$(sed -n 's/^tally //p' err)
lost=$(sed -n 's/^WARNING: \([0-9]*\) error and warning messages were lost.*/\1/p' err)
echo "figure: seconds=$secs writer_calls=$calls probe_hits=$hits errors=${errors:-0} skipped=${skipped:-0} error_lines=$error_lines messages_lost=${lost:-0} dropped_bytes=${drops:-0} backtrace_lines=$backtraces staprun_status=$status"
[ -n "$hits" ] || fail "no end probe output; stderr: $(cat err)"
[ "$hits" -gt 2048 ] || fail "only $hits hits: the array never filled"
[ "$long" = "$hits" ] || fail "$long of $hits strings had MAXSTRINGLEN - 1 characters"
[ "$deep" = "$hits" ] || fail "$deep of $hits recursions came back"
[ "${errors:-0}" = $((hits - 2048)) ] || fail "staprun reported ${errors:-0} errors, expected $((hits - 2048)) (inserts past MAXMAPENTRIES); stderr: $(grep -v '^WARNING: Number' err | head -5)"
[ $((hits + ${skipped:-0})) = "$calls" ] || fail "hits $hits + skipped ${skipped:-0} != the writers' $calls calls"
[ "$backtraces" -gt 0 ] || fail "no backtrace printed"
# Every error either printed its line or was counted as lost: none vanish.
[ $((error_lines + ${lost:-0})) -ge "${errors:-0}" ] || fail "$error_lines ERROR lines + ${lost:-0} lost < ${errors:-0} errors"
[ "$status" = 1 ] || fail "staprun exited $status after run-time errors (expected 1)"
grep -q "^$(basename "$mod" .ko) " /proc/modules && fail "the module is still loaded"
echo ok
