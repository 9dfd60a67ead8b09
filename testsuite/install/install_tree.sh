#!/usr/bin/env bash
# Installs the build into a scratch DESTDIR and checks that the installed
# stap finds its own tapsets and runtime (not the source tree's), that
# every installed man page renders cleanly, and that --help names every
# option the man page documents.
set -euo pipefail
build=$1 src=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
DESTDIR=$dest cmake --install "$build" --prefix /usr >/dev/null
bin=$dest/usr/bin share=$dest/usr/share
for f in stap staprun stap-vm; do
  [ -x "$bin/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
for d in runtime tapset unwind vm; do
  [ -d "$share/stap/$d" ] || { echo "FAIL: share/stap/$d not installed"; exit 1; }
done

# The installed stap must read the installed tapsets: a function that only
# exists in a tapset file planted there proves it.
cat > "$share/stap/tapset/install_probe.stp" <<'STP'
function installed_tapset_marker:long () { return 42 }
STP
out=$(env -u SYSTEMTAP_TAPSET "$bin/stap" -p2 -e 'probe begin { println(installed_tapset_marker()) }' 2>&1) ||
  { echo "FAIL: installed stap -p2: $out"; exit 1; }
grep -q installed_tapset_marker <<<"$out" || { echo "FAIL: installed tapsets not used: $out"; exit 1; }

for page in man1/stap.1 man8/staprun.8 man3/stapprobes.3stap man3/stapfuncs.3stap \
    man7/error::pass1.7stap man7/error::pass2.7stap man7/error::pass3.7stap \
    man7/error::pass4.7stap man7/error::pass5.7stap man7/error::dwarf.7stap; do
  [ -f "$share/man/$page" ] || { echo "FAIL: $page not installed"; exit 1; }
  warnings=$(MANWIDTH=80 man --warnings -l "$share/man/$page" 2>&1 >/dev/null || true)
  [ -z "$warnings" ] || { echo "FAIL: $page: $warnings"; exit 1; }
done

# Every long option of stap --help is in stap.1.
missing=$("$bin/stap" --help 2>&1 | grep -oE -- '--[a-z][a-z-]+' | sort -u | while read -r o; do
  grep -q -- "${o//-/\\\\-}" "$share/man/man1/stap.1" || echo "$o"; done)
[ -z "$missing" ] || { echo "FAIL: stap.1 lacks: $missing"; exit 1; }
# -V says the version, the language it follows and what the build can do.
"$bin/stap" -V | grep -q '^enabled features: .*BTF' || { echo "FAIL: stap -V lacks its features"; exit 1; }
echo "install tree OK"
