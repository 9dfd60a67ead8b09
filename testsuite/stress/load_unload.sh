# load_unload.sh MODULE SCALE: the same module loaded and unloaded N times
# (20, or 1,000 at full scale) while three writers fire its probes. Every
# session must end cleanly with its output, leave no module loaded, no
# debugfs directory behind, every other module's refcount as it was, and
# the kernel's memory where it was (within the bound below). Probe hits
# that came through a breakpoint ftrace's patching did not claim (the oops
# of issue 16 before kprobes.c resumed them) are counted: int3_resumed.
. ./lib.sh
mod=$1
n=20
[ "$2" = full ] && n=1000
name=$(basename "$mod" .ko)
start_writers 3
staprun "$mod" > /dev/null || fail "the first load failed"
refs_before=$(refcounts)
kb_before=$(kernel_kb)
i=0
hits=0
resumed=0
start=$(date +%s)
while [ $i -lt $n ]; do
  # All of staprun's output is read: a reader that stops early (head -1)
  # kills staprun with SIGPIPE before it has unloaded the module.
  out=$(staprun "$mod" 2>&1) || fail "session $i: $out"
  # "hits N ticks 3", and the runtime's warning when some hits came
  # through a breakpoint (kprobes.c), in either order.
  warn=" kprobe hit(s) on ftrace sites came through a breakpoint"
  h=$(echo "$out" | sed -n 's/^hits \([0-9]*\) ticks 3$/\1/p')
  r=$(echo "$out" | sed -n "s/^WARNING: \([0-9]*\)$warn.*/\1/p")
  rest=$(echo "$out" | grep -v -e '^hits [0-9]* ticks 3$' -e "^WARNING: [0-9]*$warn")
  [ -n "$h" ] && [ -z "$rest" ] || fail "session $i printed: $out"
  hits=$((hits + h))
  resumed=$((resumed + ${r:-0}))
  grep -q "^$name " /proc/modules && fail "still loaded after session $i"
  i=$((i + 1))
  # Progress, readable on the host in the job's directory during a long run.
  [ $((i % 50)) = 0 ] && echo "$i of $n loads, $hits hits" > progress
done
secs=$(( $(date +%s) - start ))
stop_writers
[ -e "/sys/kernel/debug/stap/$name" ] && fail "its debugfs directory is left"
kb_after=$(kernel_kb)
refs_after=$(refcounts)
[ "$refs_before" = "$refs_after" ] || fail "module refcounts changed: before
$refs_before
after
$refs_after"
delta=$((kb_after - kb_before))
echo "figure: loads=$n probe_hits=$hits int3_resumed=$resumed seconds=$secs kernel_kb_before=$kb_before kernel_kb_after=$kb_after delta_kb=$delta"
[ "$hits" -gt 0 ] || fail "the probes never fired"
# A leak of a page per session shows as 4 kB x N; allocator noise (slab
# pages kept per CPU, vmalloc's lazy purge) stays under 1 MB here.
[ $delta -lt $((1024 + 2 * n)) ] || fail "kernel memory grew by $delta kB over $n sessions"
echo ok
