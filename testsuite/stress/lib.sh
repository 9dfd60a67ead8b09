# Helpers the stress drivers source: failing, the kernel's own memory, and
# the modules' reference counts.
fail() { echo "FAIL: $*"; exit 1; }
# The kernel memory a module can leak: slab, vmalloc (module text, maps),
# per-CPU areas, kernel stacks, page tables; caches dropped first, in kB.
kernel_kb() {
  sync
  echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
  awk '/^(Slab|VmallocUsed|Percpu|KernelStack|PageTables):/ {s += $2} END {print s}' /proc/meminfo
}
# Every module's name and reference count, ours (t_*) left out.
refcounts() { awk '$1 !~ /^t_/ {print $1, $3}' /proc/modules; }
# Starts N processes writing to /dev/null as fast as they can; their pids
# are in $writers.
start_writers() {
  writers=""
  i=0
  while [ $i -lt "$1" ]; do
    (while :; do echo x > /dev/null; done) &
    writers="$writers $!"
    i=$((i + 1))
  done
}
stop_writers() { kill $writers 2>/dev/null; wait 2>/dev/null; }
