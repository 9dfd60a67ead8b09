#!/bin/sh
# In the guest: bench-guest.sh N ROUNDS. Prints "MODE VARIANT NS" lines.
N=$1 ROUNDS=$2
r=0
while [ $r -lt "$ROUNDS" ]; do
	for v in plain tracker; do
		staprun -c "for m in getppid anon exec; do echo \$m $v \$(./mapmix \$m $N); done" ./b_$v.ko
	done
	r=$((r + 1))
done
