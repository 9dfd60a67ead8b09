#!/bin/sh
# In the guest: bench-guest.sh N ROUNDS UBENCH. Prints "VARIANT NS" lines.
# UBENCH is the program at its host path (the -d tables name that path).
N=$1 ROUNDS=$2 UBENCH=$3
echo 0 > /proc/sys/kernel/randomize_va_space
r=0
while [ $r -lt "$ROUNDS" ]; do
	echo "none $($UBENCH $N)"
	for v in plain walk ubt; do
		staprun -c "$UBENCH $N $PWD/ns" ./b_$v.ko >/dev/null
		echo "$v $(cat ns)"
	done
	r=$((r + 1))
done
