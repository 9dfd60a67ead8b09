#!/bin/sh
# The one guest side of the run-time benchmarks (bench/run, bench/uprobes,
# bench/run-all). Runs in the guest, in the job directory that holds the
# benchmark's files:
#   sh guest.sh ROUNDS PLAN
# PLAN has one measurement a line (blank lines and # comments skipped):
#   NAME LOADER MODULE COMMAND...
# and every round runs every line in order, so the tools alternate
# (A B A B ...) and share whatever else the host is doing. LOADER:
#   none       COMMAND alone (MODULE is -)
#   insmod     insmod MODULE (`file.ko,param=value,...`), COMMAND, rmmod; the
#              hit count is the module's "NAME: N hits" kernel log line
#   ours       our staprun -c COMMAND MODULE
#   s48        SystemTap 4.8's staprun48/stapio48 (from staprun-ARCH.tar)
#   ours-lines, s48-lines
#              staprun -c COMMAND MODULE; VALUE = the number of output lines
#              starting with " 0x" (backtrace frames) over the hits
#   ours-load, s48-load
#              load to first probe: staprun MODULE, whose begin probe prints
#              gettimeofday_ns() and exits; COMMAND is ignored
# COMMAND prints its measurement (ns per call) as its first number line; if
# it holds @OUT@, that is replaced by a file it writes the number to, and the
# session's output is discarded (a probe that prints a lot).
# Prints "NAME ROUND VALUE [HITS]" (a load line: VALUE = ms from starting
# staprun to the begin probe; plus "NAME.wall ROUND MS" for the whole run),
# or "NAME ROUND failed: REASON".
ROUNDS=$1
PLAN=$2
here=$(pwd)
out=/tmp/bench.out
val=/tmp/bench.val
for t in "$here"/staprun-*.tar; do
	[ -f "$t" ] && tar xf "$t"
done
chmod +x "$here"/* 2>/dev/null
PATH=$here:$PATH
s48() {
	SYSTEMTAP_STAPIO="$here/stapio48" SYSTEMTAP_STAPRUN="$here/staprun48" \
		LD_LIBRARY_PATH="$here/lib32" "$here/staprun48" "$@"
}
now_ns() { date +%s%N; }

# measure NAME ROUND LOADER MODULE COMMAND
measure() {
	name=$1 round=$2 loader=$3 module=$4 cmd=$5
	rm -f "$val" "$out"
	sink=$out
	case $cmd in *@OUT@*) cmd=$(echo "$cmd" | sed "s|@OUT@|$val|g"); sink=/dev/null ;; esac
	rc=0
	case $loader in
	none) sh -c "$cmd" > "$sink" 2> "$out.err" || rc=$? ;;
	insmod)
		ko=${module%%,*}; params=""
		[ "$ko" != "$module" ] && params=$(echo "${module#*,}" | tr ',' ' ')
		# shellcheck disable=SC2086
		insmod "$here/$ko" $params 2> "$out.err" || { echo "$name $round failed: $(cat "$out.err")"; return; }
		sh -c "$cmd" > "$sink" 2>> "$out.err" || rc=$?
		rmmod "${ko%.ko}"
		;;
	ours-lines | s48-lines)
		if [ "$loader" = ours-lines ]; then
			staprun -c "$cmd" "$here/$module" > "$out" 2> "$out.err" || rc=$?
		else
			s48 -c "$cmd" "$here/$module" > "$out" 2> "$out.err" || rc=$?
		fi
		frames=$(grep -c '^ 0x' "$out")
		calls=$(grep -c '^calls$' "$out")
		echo "$name $round $(awk -v f="$frames" -v c="$calls" 'BEGIN { printf "%.1f", c ? f / c : 0 }') $calls"
		return
		;;
	ours) staprun -c "$cmd" "$here/$module" > "$sink" 2> "$out.err" || rc=$? ;;
	s48) s48 -c "$cmd" "$here/$module" > "$sink" 2> "$out.err" || rc=$? ;;
	ours-load | s48-load)
		t0=$(now_ns)
		if [ "$loader" = ours-load ]; then
			staprun "$here/$module" > "$out" 2> "$out.err" || rc=$?
		else
			s48 "$here/$module" > "$out" 2> "$out.err" || rc=$?
		fi
		t1=$(now_ns)
		first=$(grep -E '^[0-9]+$' "$out" | head -1)
		if [ "$rc" != 0 ] || [ -z "$first" ]; then
			echo "$name $round failed: status $rc $(head -c 300 "$out.err")"
			return
		fi
		echo "$name $round $(awk -v a="$t0" -v b="$first" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')"
		echo "$name.wall $round $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')"
		return
		;;
	*) echo "$name $round failed: unknown loader $loader"; return ;;
	esac
	if [ "$rc" != 0 ]; then
		echo "$name $round failed: status $rc $(head -c 300 "$out.err")"
		return
	fi
	if [ -f "$val" ]; then v=$(head -1 "$val"); else v=$(grep -E '^[0-9]+(\.[0-9]+)?$' "$out" | head -1); fi
	hits=$(sed -n 's/^hits //p' "$out" 2>/dev/null | head -1)
	[ "$loader" = insmod ] && hits=$(dmesg | sed -n 's/.*_min: \([0-9]*\) hits.*/\1/p' | tail -1)
	echo "$name $round ${v:-?} $hits"
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	grep -v -e '^#' -e '^[[:space:]]*$' "$PLAN" | while read -r name loader module cmd; do
		measure "$name" "$r" "$loader" "$module" "$cmd" < /dev/null
	done
	r=$((r + 1))
done
