# faults.sh MODULE SCALE
. ./lib.sh
mod=$1
name=$(basename "$mod" .ko)
prog="$BUILD/faults"
rounds=3
[ "$2" = full ] && rounds=20
kb_before=$(kernel_kb)
refs_before=$(refcounts)

# 1. staprun SIGKILLed mid-session, -c target with probes firing: the
# target is never left stopped and runs to its end; the module, still
# loaded, unloads with rmmod.
i=0
while [ $i -lt $rounds ]; do
  staprun -c "$prog loop 1500" "$mod" > /dev/null 2>&1 &
  sp=$!
  # The target is forked once the module is loaded, which can take many
  # seconds on a loaded host: wait for it, then let its probes fire.
  t="" j=0
  while [ -z "$t" ] && [ $j -lt 600 ]; do
    sleep 0.1
    t=$(cat /proc/$sp/task/$sp/children 2>/dev/null)
    j=$((j + 1))
  done
  sleep 1
  kill -9 $sp
  wait $sp 2>/dev/null
  [ -n "$t" ] || fail "round $i: no -c target found"
  case $(cut -d' ' -f3 /proc/$t/stat 2>/dev/null) in
  T|t) fail "round $i: the -c target is left stopped" ;;
  esac
  rmmod "$name" || fail "round $i: the module does not unload after SIGKILL"
  j=0
  while [ -d /proc/$t ] && [ "$(cut -d' ' -f3 /proc/$t/stat 2>/dev/null)" != Z ] && [ $j -lt 100 ]; do
    sleep 0.1
    j=$((j + 1))
  done
  [ $j -lt 100 ] || fail "round $i: the target did not run to its end"
  i=$((i + 1))
done
echo "figure: sigkill_rounds=$rounds target_left_stopped=0 module_unloadable=$rounds"

# 2. The target exits (exit_group) while four threads are in its probes.
staprun "$mod" > race.out 2> race.err &
sp=$!
sleep 2
i=0
while [ $i -lt $((rounds * 5)) ]; do
  "$prog" race 100 || fail "race $i: the target exited $?"
  i=$((i + 1))
done
kill -TERM $sp
wait $sp || fail "the session of the exit races ended with $?: $(head -5 race.err)"
hits=$(sed -n 's/^hits \([0-9]*\) .*/\1/p' race.out)
[ "${hits:-0}" -gt 0 ] || fail "no probe hits in the exit races: $(cat race.out race.err)"
echo "figure: exit_races=$((rounds * 5)) probe_hits=$hits"

# 3. The module unloaded while a uretprobe is pending on a live process:
# the function must still return to its caller with its value.
fifo=$(mktemp -d)/fifo # the job directory (9p) can hold no fifo
mkfifo "$fifo"
staprun "$mod" > ret.out 2> ret.err &
sp=$!
sleep 2
"$prog" block "$fifo" > block.out &
bp=$!
j=0
while ! grep -q "entered wait_here" ret.out && [ $j -lt 100 ]; do sleep 0.1; j=$((j + 1)); done
[ $j -lt 100 ] || fail "wait_here was never entered: $(cat ret.out ret.err)"
kill -TERM $sp
wait $sp
grep -q "^$name " /proc/modules && fail "the module is still loaded with a uretprobe pending"
printf A > "$fifo"
wait $bp || fail "the process whose uretprobe was pending exited $?: $(cat block.out)"
[ "$(cat block.out)" = "returned 66" ] || fail "wait_here returned wrong: $(cat block.out)"
grep -q "wait_here returned" ret.out && fail "the return probe ran after the session ended"
echo "figure: uretprobe_pending_at_unload=1 returned_right=1"

# 4. Limits too large to allocate at load (-D MAXMAPENTRIES=200000000):
# a clear error, nothing loaded, nothing leaked.
out=$(staprun "$(dirname "$mod")/${name}_huge.ko" 2>&1) && fail "the huge module loaded"
echo "$out" | grep -q "Cannot allocate memory" || fail "unclear error at load: $out"
grep -q "^${name}_huge " /proc/modules && fail "the huge module is left loaded"
echo "figure: huge_limits_error=\"$out\""

kb_after=$(kernel_kb)
[ "$(refcounts)" = "$refs_before" ] || fail "module refcounts changed"
delta=$((kb_after - kb_before))
echo "figure: kernel_kb_before=$kb_before kernel_kb_after=$kb_after delta_kb=$delta"
[ $delta -lt 2048 ] || fail "kernel memory grew by $delta kB"
echo ok
