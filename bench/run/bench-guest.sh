#!/bin/sh
# Runs in the guest, in the job directory that holds the benchmark's files:
#   sh bench-guest.sh N ROUNDS
# For each round: the bare loop, the hand-written kprobe module, and each
# stap module (ours: b_*.ko, SystemTap 4.8's: s48_*.ko when present), each
# driving N getppid() calls. Prints "NAME ROUND NS_PER_CALL [HITS]" lines.
N=$1
ROUNDS=$2
here=$(pwd)
chmod +x "$here"/hitloop
# SystemTap 4.8's staprun and stapio (and for i386 the libraries they need),
# unpacked from Debian's systemtap-runtime .deb by hand (README.md).
for t in "$here"/s48-*.tar; do
	[ -f "$t" ] && tar xf "$t"
done
case $(uname -m) in
x86_64) sym=__x64_sys_getppid ;;
*) sym=__ia32_sys_getppid ;;
esac

loop() { "$here/hitloop" "$N"; }

# A staprun session around the loop: prints "NAME ROUND NS HITS".
#   session NAME ROUND MODULE STAPRUN [ARGS...]
session() {
	name=$1; round=$2; module=$3; shift 3
	out=$("$@" -c "$here/hitloop $N" "$module" 2>"$here/err.$name") || {
		echo "$name $round failed: $(cat "$here/err.$name")"
		return
	}
	ns=$(echo "$out" | grep -E '^[0-9]+\.[0-9]+$' | head -1)
	hits=$(echo "$out" | sed -n 's/^hits //p' | head -1)
	echo "$name $round $ns $hits"
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	echo "base $r $(loop)"
	if insmod "$here/kprobe_min.ko" sym=$sym; then
		echo "kprobe_min $r $(loop)"
		rmmod kprobe_min
	fi
	for m in "$here"/b_*.ko; do
		[ -f "$m" ] || continue
		n=$(basename "$m" .ko)
		session "$n" "$r" "$m" staprun
	done
	for m in "$here"/s48_*.ko; do
		[ -f "$m" ] && [ -x "$here/staprun48" ] || continue
		n=$(basename "$m" .ko)
		session "$n" "$r" "$m" env SYSTEMTAP_STAPIO="$here/stapio48" \
			SYSTEMTAP_STAPRUN="$here/staprun48" LD_LIBRARY_PATH="$here/lib32" \
			"$here/staprun48"
	done
	r=$((r + 1))
done
