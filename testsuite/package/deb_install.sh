#!/usr/bin/env bash
# deb_install.sh BUILD_DIR: packs BUILD_DIR with cpack, installs the .deb
# with apt into a fresh copy of a minimal Debian 12 root (apt fetches the
# declared dependencies from the mirror; an undeclared one fails later, when
# the installed stap runs), checks
# `man stap` there, builds hello with the installed stap against the
# host's kernel headers (bind-mounted read-only), and runs that module in
# the x86_64 guest with the installed staprun.
# The clean root is built once with debootstrap (about 2 minutes, Debian's
# mirror) and kept as $STAP_VM_CACHE/deb-root-vN.tar. Needs root; exits 77
# (skipped) without it.
set -euo pipefail
build=$(cd "$1" && pwd)
[ "$(id -u)" = 0 ] || { echo "deb_install: needs root"; exit 77; }
: "${STAP_VM_CACHE:=/var/cache/stap-vm}"
: "${STAP_VM_MIRROR:=http://deb.debian.org/debian}"
ROOT_VERSION=2
# Most of the package's dependencies, preinstalled so that each run fetches
# little; apt installs the rest from the package's Depends. man-db reads
# its pages.
INCLUDE=make,gcc,kmod,libelf1,libdw1,libstdc++6,zlib1g,man-db
tarball=$STAP_VM_CACHE/deb-root-v$ROOT_VERSION.tar

work=$(mktemp -d /tmp/deb-install.XXXXXX)
root=$work/root
kbuild_mounts=""
cleanup() {
  for m in proc dev lib/modules usr/src $kbuild_mounts; do
    mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"
  done
  rm -rf "$work"
}
trap cleanup EXIT

if [ ! -f "$tarball" ]; then
  mkdir -p "$STAP_VM_CACHE"
  exec 9>"$STAP_VM_CACHE/.deb-root.lock"
  flock 9
  if [ ! -f "$tarball" ]; then
    echo "deb_install: building a clean bookworm root with debootstrap" >&2
    debootstrap --variant=minbase --include="$INCLUDE" bookworm "$work/new" "$STAP_VM_MIRROR" \
      >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; exit 1; }
    rm -rf "$work/new"/var/cache/apt/archives/*.deb
    tar -C "$work/new" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$work/new"
  fi
fi

(cd "$build" && cpack -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$work"/pkg/stap_*.deb)

mkdir -p "$root"
tar -C "$root" -xf "$tarball"
cp "$deb" "$root/tmp/stap.deb"
cp /etc/resolv.conf "$root/etc/resolv.conf"
echo "deb $STAP_VM_MIRROR bookworm main" >"$root/etc/apt/sources.list"
{ chroot "$root" apt-get update -q && DEBIAN_FRONTEND=noninteractive chroot "$root" \
    apt-get install -y -q --no-install-recommends /tmp/stap.deb; } >"$work/apt.log" 2>&1 ||
  { tail -30 "$work/apt.log"; echo "FAIL: apt-get install ./stap.deb"; exit 1; }
chroot "$root" man -w stap >/dev/null || { echo "FAIL: man stap after install"; exit 1; }
chroot "$root" man -w error::pass2 >/dev/null || { echo "FAIL: man error::pass2 after install"; exit 1; }

# The newest installed x86_64 kernel, as the VM tests use.
rel=$(ls -d /lib/modules/*-amd64 2>/dev/null | sed 's|.*/||' | sort -V | tail -1)
[ -n "$rel" ] || { echo "deb_install: no amd64 kernel headers"; exit 77; }
mkdir -p "$root/proc" "$root/dev" "$root/lib/modules" "$root/usr/src"
mount --bind /proc "$root/proc"
mount --bind /dev "$root/dev"
mount --rbind -o ro /lib/modules "$root/lib/modules"
mount --rbind -o ro /usr/src "$root/usr/src"
# The headers' scripts/ and tools/ are links into linux-kbuild-VERSION.
for d in /usr/lib/linux-kbuild-*; do
  m=${d#/}
  mkdir -p "$root/$m"
  mount --rbind -o ro "$d" "$root/$m"
  kbuild_mounts="$kbuild_mounts $m"
done
chroot "$root" env HOME=/root sh -c "cd /tmp && stap -p4 -r $rel -m pkg_hello \
  -e 'probe begin { printf(\"hello from the package, %d\\n\", 6 * 7); exit() }'" \
  >"$work/stap.log" 2>&1 || { cat "$work/stap.log"; echo "FAIL: installed stap -p4"; exit 1; }

out=$("$build/bin/stap-vm" --release "$rel" --staprun "$root/usr/bin/staprun" \
        --file "$root/tmp/pkg_hello.ko" -- staprun pkg_hello.ko 2>&1) ||
  { echo "$out"; echo "FAIL: the package's module did not run"; exit 1; }
[ "$out" = "hello from the package, 42" ] || { echo "FAIL: unexpected output: $out"; exit 1; }
echo "deb_install: installed $(basename "$deb"), built and ran hello"
