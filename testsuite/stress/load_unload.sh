# load_unload.sh MODULE SCALE: the same module loaded and unloaded N times
# (25, or 1,000 at full scale) while three writers fire its probes. Every
# session must end cleanly with its output, leave no module loaded, no
# debugfs directory behind, every other module's refcount as it was, and
# the kernel's memory where it was (within the bound below).
. ./lib.sh
mod=$1
n=25
[ "$2" = full ] && n=1000
name=$(basename "$mod" .ko)
start_writers 3
staprun "$mod" > /dev/null || fail "the first load failed"
refs_before=$(refcounts)
kb_before=$(kernel_kb)
i=0
writes=0
start=$(date +%s)
while [ $i -lt $n ]; do
  # All of staprun's output is read: a reader that stops early (head -1)
  # kills staprun with SIGPIPE before it has unloaded the module.
  out=$(staprun "$mod" 2>&1) || fail "session $i: $out"
  case $out in
  "writes "*" ticks 3") w=${out#writes }; writes=$((writes + ${w%% *})) ;;
  *) fail "session $i printed: $out" ;;
  esac
  grep -q "^$name " /proc/modules && fail "still loaded after session $i"
  i=$((i + 1))
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
echo "figure: loads=$n probe_hits=$writes seconds=$secs kernel_kb_before=$kb_before kernel_kb_after=$kb_after delta_kb=$delta"
[ "$writes" -gt 0 ] || fail "the probes never fired"
# A leak of a page per session shows as 4 kB x N; allocator noise (slab
# pages kept per CPU, vmalloc's lazy purge) stays under 1 MB here.
[ $delta -lt $((1024 + 2 * n)) ] || fail "kernel memory grew by $delta kB over $n sessions"
echo ok
