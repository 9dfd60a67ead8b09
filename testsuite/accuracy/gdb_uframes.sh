#!/bin/sh
# gdb_uframes.sh entry|return FUNCTION CONDITION PROGRAM [ARGS...]: a job of
# the accuracy suite's user-probe contexts, run in a guest. Starts PROGRAM
# under gdb, stops it at FUNCTION's first instruction (its ELF symbol, where
# a uprobe fires) the first time CONDITION holds there; for `return`, then
# runs to the return into its caller (where a uretprobe fires), and prints
# the physical frames as gdb_frames.sh does.
set -u
mode=$1
func=$2
cond=$3
shift 3
echo 0 > /proc/sys/kernel/randomize_va_space
finish=
[ "$mode" = return ] && finish=finish
exec gdb -nx -batch \
  -ex 'set pagination off' \
  -ex 'set backtrace past-main on' \
  -ex 'set backtrace past-entry on' \
  -ex 'handle all nostop noprint pass' \
  -ex "break *$func if $cond" \
  -ex run \
  -ex "$finish" \
  -x ./gdb_frames.py \
  -ex kill \
  --args "$@" < /dev/null
