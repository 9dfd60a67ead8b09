#!/bin/sh
# gdb_frames.sh SYSCALL PROGRAM [ARGS...]: a job of the accuracy suite, run
# in a guest. Starts PROGRAM under gdb, stops it at the first entry of
# SYSCALL (catch syscall) and prints its physical frames, innermost first,
# one a line:
#   GDBFRAME 0xPC FUNCTION
# then GDBEND (gdb_frames.py). testsuite/accuracy/accuracy_test.cpp parses it.
set -u
syscall=$1
shift
# The same layout in every run of this boot: gdb's, and staprun -c's in the
# print_ubacktrace job that follows (gdb alone would disable it for itself).
echo 0 > /proc/sys/kernel/randomize_va_space
exec gdb -nx -batch \
  -ex 'set pagination off' \
  -ex 'set backtrace past-main on' \
  -ex 'set backtrace past-entry on' \
  -ex 'handle all nostop noprint pass' \
  -ex "catch syscall $syscall" \
  -ex run \
  -x ./gdb_frames.py \
  -ex kill \
  --args "$@" < /dev/null
