#!/bin/sh
# bare.sh: the README's second command on a Debian that has only what the
# README's Getting started asks for (make, gcc, libc6-dev, perl), as a user
# who is not root, in a fresh clone of the tree's HEAD: what a newcomer
# gets.  As root; needs debootstrap and the network to a Debian mirror.
#
#   tests/bench/bare.sh [-k] [-s SUITE] [DIR]
#	-k  keep DIR (the chroot) at the end (default: removed)
#	-s  the Debian suite (default: this machine's, from /etc/os-release)
#	DIR the chroot (default /var/tmp/clyde-bare; refused if it exists)
#
# The chroot gets /proc, /dev and a /dev/shm of its own, as a container
# has; its user is "tester".  Prints make check's log, its exit status, and
# the skip lines of a verbose run of the same cases, counted.
set -u
cd "$(dirname "$0")/../.." || exit 2
TREE=$(pwd)
keep=0
suite=
while getopts ks: opt; do
	case $opt in
	k) keep=1 ;;
	s) suite=$OPTARG ;;
	*) echo "usage: $0 [-k] [-s SUITE] [DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
root=${1:-/var/tmp/clyde-bare}
[ "$(id -u)" = 0 ] || { echo "bare.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null ||
    { echo "bare.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
[ -e "$root" ] && { echo "bare.sh: $root exists: give another DIR" >&2; exit 2; }
if [ -z "$suite" ]; then
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$suite" ] || { echo "bare.sh: no suite in /etc/os-release: give -s" >&2; exit 2; }
fi

mounted=
cleanup() {
	for m in $mounted; do umount -l "$root/$m" 2>/dev/null; done
	[ "$keep" = 1 ] && { echo "bare.sh: kept $root"; return; }
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

debootstrap --variant=minbase "$suite" "$root" >"$root.debootstrap.log" 2>&1 ||
    { tail -20 "$root.debootstrap.log" >&2; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
for m in proc dev; do
	mount --rbind "/$m" "$root/$m" && mounted="$m $mounted" || exit 1
done
mount -t tmpfs -o mode=1777,size=64m tmpfs "$root/dev/shm" 2>/dev/null &&
    mounted="dev/shm $mounted"
chroot "$root" sh -c 'apt-get -qq update && DEBIAN_FRONTEND=noninteractive \
    apt-get -qq install -y --no-install-recommends make gcc libc6-dev perl' \
    >/dev/null || { echo "bare.sh: installing make gcc libc6-dev perl failed" >&2; exit 1; }
chroot "$root" useradd -m -s /bin/sh tester || exit 1
git -C "$TREE" archive --prefix=clyde/ HEAD | tar -C "$root/home/tester" -xf - || exit 1
chroot "$root" chown -R tester: /home/tester/clyde || exit 1
echo "bare.sh: $(chroot "$root" dpkg-query -W -f '${binary:Package}\n' | wc -l) packages;" \
    "python3: $(chroot "$root" sh -c 'command -v python3 || echo none')"
chroot "$root" su - tester -c 'cd clyde && make check' 2>&1
rc=$?
echo "bare.sh: make check exited $rc"
# what was skipped and why: the cases again, verbose, their skip lines counted
echo "bare.sh: the skips (count, reason):"
chroot "$root" su - tester -c 'cd clyde && make check PROVE_FLAGS=-v' \
    2>/dev/null | sed -n 's/^ok [0-9]* *# skip */    /p' | sort | uniq -c | sort -rn
exit $rc
