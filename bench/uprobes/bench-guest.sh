#!/bin/sh
# Runs in the guest: sh bench-guest.sh PROGRAM N ROUNDS
# For each round: the bare loop, then each module (ours: b_*.ko; SystemTap
# 4.8's: s48_*.ko with its staprun48/stapio48 when present) around the
# same loop. Prints "NAME ROUND NS_PER_CALL [HITS]" lines.
prog=$1
N=$2
ROUNDS=$3
here=$(pwd)
for t in "$here"/s48-*.tar; do
	[ -f "$t" ] && tar xf "$t"
done
session() {
	name=$1; round=$2; module=$3; shift 3
	out=$("$@" -c "$prog $N" "$module" 2>"$here/err.$name") || {
		echo "$name $round failed: $(cat "$here/err.$name")"
		return
	}
	ns=$(echo "$out" | grep -E '^[0-9]+\.[0-9]+$' | head -1)
	hits=$(echo "$out" | sed -n 's/^hits //p' | head -1)
	echo "$name $round $ns $hits"
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
	echo "base $r $("$prog" "$N")"
	for m in "$here"/b_*.ko; do
		[ -f "$m" ] || continue
		session "$(basename "$m" .ko)" "$r" "$m" staprun
	done
	for m in "$here"/s48_*.ko; do
		[ -f "$m" ] && [ -x "$here/staprun48" ] || continue
		session "$(basename "$m" .ko)" "$r" "$m" env SYSTEMTAP_STAPIO="$here/stapio48" \
			SYSTEMTAP_STAPRUN="$here/staprun48" LD_LIBRARY_PATH="$here/lib32" \
			"$here/staprun48"
	done
	r=$((r + 1))
done
