# transport.sh MODULE SCALE: one CPU (so one buffer and one order), a
# writer for 5 s (30 s at full scale), staprun's output read by a consumer
# that stalls first, then drains.
. ./lib.sh
mod=$(pwd)/$1
secs=5
[ "$2" = full ] && secs=30
cd "$(mktemp -d)" # the job directory (9p) can hold no fifo
mkfifo pipe
# The reader opens the pipe at once but reads nothing for 3 s: staprun
# blocks on the full pipe and the module's buffer fills behind it.
# It checks the lines as they come (the full scale's 100+ MB would fill the
# guest's tmpfs): every line "SEQ 000...0", numbers strictly increasing,
# 100 bytes each; it keeps only the counts and staprun's "total" line.
(exec 3< pipe; sleep 3; awk '
  /^total / { print; next }
  length($0) != 99 || $1 !~ /^[0-9]+$/ { bad++; next }
  { n = $1 + 0; if (seen && n <= last) disorder++; last = n; seen = 1; got++ }
  END { printf "check %d %d %d\n", got, bad + 0, disorder + 0 }' <&3 > out) &
reader=$!
staprun -s 1 "$mod" > pipe 2> err &
sp=$!
sleep 1
"$BUILD/storm_writer" $secs > calls
sleep 2 # staprun drains what is buffered
kill -TERM $sp
wait $sp
status=$?
wait $reader
total=$(sed -n 's/^total //p' out)
[ -n "$total" ] || fail "no total line; stderr: $(head -5 err)"
drops=$(sed -n 's/^WARNING: \([0-9]*\) bytes of output in \([0-9]*\) records were dropped.*/\1/p' err)
records=$(sed -n 's/^WARNING: \([0-9]*\) bytes of output in \([0-9]*\) records were dropped.*/\2/p' err)
check=$(sed -n 's/^check //p' out)
set -- $check
got=$1 bad=$2 disorder=$3
missing=$((total - got))
echo "figure: seconds=$secs lines_printed=$total lines_arrived=$got lines_missing=$missing dropped_bytes=${drops:-0} dropped_records=${records:-0} staprun_status=$status"
[ "$bad" = 0 ] || fail "$bad malformed lines"
[ "$disorder" = 0 ] || fail "$disorder lines out of order"
[ $((missing * 100)) = "${drops:-0}" ] || fail "$missing lines (of 100 bytes) missing, staprun reported ${drops:-0} bytes dropped"
[ "${drops:-0}" -gt 0 ] || fail "nothing was dropped: the reader kept up, the test tested nothing"
echo ok
