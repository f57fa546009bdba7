#!/bin/sh
# guest.sh: a shell script run against a real Linux NFS mount (the kernel's
# nfsd and NFS client) inside a guest, for hosts whose own kernel cannot
# mount NFS.  Used by tests/root/nfs.sh (make check-nfs); tests/root/nfs/README
# tells how the guest is chosen and how to run a case by hand.
#
#   guest.sh probe
#	boots the guests in turn with an empty script until one serves NFS,
#	mounts it and powers off; prints "GUEST WHAT (WHY)", e.g.
#	"uml-xstate uml+xstate shim (plain UML panicked: ...)", and exits
#	0, or prints what was tried and how each failed and exits 1.
#	CLYDE_NFS_GUEST: the guests to try, in order (default: all, in the
#	order below)
#   guest.sh check GUEST
#	prints why GUEST cannot run here and exits 1, or exits 0
#   guest.sh run -g GUEST [-v 3|4.2] [-f ext4|tmpfs] [-o OPTS] [-t SECS]
#	       [-m MEM] [-e SIZE] -w DIR SCRIPT
#	boots GUEST, which serves an export over NFS on its own loopback,
#	mounts it at /mnt/nfs and runs SCRIPT with sh there
#	-v  NFS version (default 3)
#	-f  the exported filesystem: ext4 on an image made here, a disk of
#	    the guest (default), or a tmpfs in the guest
#	-o  more mount options, e.g. soft,timeo=10,retrans=1
#	-t  timeout for the whole guest in seconds (default 600)
#	-m  guest RAM (default 512M); -e  export size (default 1G)
#	-w  the run directory, made by the caller, where SCRIPT's results go
#
# GUEST:
#   uml         User-mode Linux, /usr/bin/linux.uml (user-mode-linux)
#   uml-xstate  the same with xstate_shim.so preloaded (make
#               build/tests/xstate_shim.so): UML 6.1 panics without it on
#               CPUs with AMX ("ptrace set fp regs failed")
#   qemu-kvm    QEMU with KVM (qemu-system-x86), booting Debian's kernel
#               from $CLYDE_NFS_CACHE (default /var/tmp/clyde-nfs, filled
#               by tests/root/nfs/qemu-kernel.sh); only where /dev/kvm is
#               kvm_intel or kvm_amd on a CPU with vmx or svm: a /dev/kvm
#               of another kind may run an ordinary kernel only by
#               emulating its instructions, and not to the end
#   qemu-tcg    QEMU emulating the CPU (TCG): 5 to 10 times slower
#
# The guest's root is this host's / through hostfs (UML) or 9p (QEMU),
# READ-ONLY; DIR alone is mounted read-write in the guest (at the same
# path), so the guest can change nothing else here.  The guest has no
# network device but its loopback; the NFS daemons run only there:
# nothing listens on the host and nothing is mounted here.
# SCRIPT runs with cwd /mnt/nfs and these in its environment:
#   NFS_MNT=/mnt/nfs  NFS_EXPORT=/mnt/export (the server's side)
#   NFS_RUN=DIR  NFS_VERS  NFS_SRC (what is mounted)  NFS_OPTS (mount -o)
#   NFS_EXPORT_OPTS (for exportfs -o, to export again after exportfs -u)
# and may write its results into $NFS_RUN.  In DIR, after the run: out,
# err (SCRIPT's stdout and stderr), rc (its exit status), leftover (what
# is in the export after it), guest.log and console.log.
#
# Exit status: SCRIPT's; 77: the guest cannot run here (the reason on
# stderr); 124: timeout; 125: the guest did not set NFS up (the logs on
# stderr).  Everything made on the host (the image, the initramfs, UML's
# umid directory) is in DIR; the guest's processes are gone when this
# returns.  UML=PATH: another linux.uml.
#
# Needs, as root: nfs-kernel-server, nfs-common, rpcbind (their programs
# run inside the guest only), mkfs.ext4; for UML, user-mode-linux and
# perl (the module loader, as there is no modprobe without kmod); for
# QEMU, qemu-system-x86, busybox-static and the kernel in the cache.
# Installing those packages may start rpcbind or nfsd on the host: check
# with ps and stop them.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
UML=${UML:-/usr/bin/linux.uml}
# the shim that make builds (make build/tests/xstate_shim.so)
SHIM=$(cd "$HERE/../../.." && pwd)/build/tests/xstate_shim.so
QEMU=qemu-system-x86_64
CACHE=${CLYDE_NFS_CACHE:-/var/tmp/clyde-nfs}
GUESTS="uml uml-xstate qemu-kvm qemu-tcg"

. "$HERE/../guest_lib.sh"

say() { printf 'guest.sh: %s\n' "$*" >&2; }
usage() { sed -n '7,26p' "$0" | sed 's/^#//' >&2; exit 2; }

# what GUEST: the guest in words
what() {
	case $1 in
	uml) echo "plain UML" ;;
	uml-xstate) echo "uml+xstate shim" ;;
	qemu-kvm) echo "QEMU with KVM" ;;
	qemu-tcg) echo "QEMU with TCG" ;;
	esac
}

# why_not GUEST: the reason GUEST cannot run here, or nothing
why_not() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return; }
	case $1 in
	uml | uml-xstate)
		r=$(uml_not "$1")
		[ -z "$r" ] || { echo "$r"; return; }
		need=perl ;;
	qemu-kvm | qemu-tcg)
		r=$(qemu_not "$1")
		[ -z "$r" ] || { echo "$r"; return; }
		need=gzip ;;
	*)
		echo "no guest $1 (one of: $GUESTS)"
		return ;;
	esac
	for p in rpcbind rpc.mountd rpc.nfsd rpc.statd exportfs mount.nfs \
	    mkfs.ext4 timeout ip $need; do
		PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v $p >/dev/null ||
		    { echo "no $p (nfs-kernel-server nfs-common rpcbind e2fsprogs)"; return; }
	done
	# the guest covers these with its own mounts: the tree must not be there
	case $HERE/ in
	/run/* | /mnt/* | /var/lib/nfs/* | /var/tmp/* | /dev/*)
		echo "$HERE is hidden in the guest (under /run, /mnt, /var/tmp)"
		return ;;
	esac
}

# failure DIR STATUS: how a guest that did not run its script failed
failure() {
	# what the kernel said last before its panic, else the panic
	panic=$(panic_of "$1/console.log")
	if [ -n "$panic" ]; then
		echo "panicked: $panic"
	elif [ -f "$1/setup.err" ]; then
		echo "did not set NFS up: $(cat "$1/setup.err")"
	elif [ "$2" = 124 ]; then
		echo "timed out"
	else
		echo "failed (exit status $2): $(cat "$1/console.log" "$1/qemu.log" \
		    2>/dev/null | grep . | tail -1)"
	fi
}

# probe: the first guest of $CLYDE_NFS_GUEST that runs
probe() {
	dir=$(mktemp -d "${TMPDIR:-/tmp}/clyde-nfs-probe.XXXXXX") || exit 1
	trap 'rm -rf "$dir"' EXIT
	echo true >"$dir/empty.sh"
	# a bound: UML fails within seconds, TCG boots in 10 to 20, on a
	# busy machine in a minute
	probe_guests CLYDE_NFS_GUEST "$dir" "NFS up and powered off" \
	    -f tmpfs -t 300 "$dir/empty.sh"
}

case ${1:-} in
probe) probe; exit ;;
check)
	r=$(why_not "${2:-}")
	[ -z "$r" ] && exit 0
	echo "$r"
	exit 1 ;;
run) shift ;;
*) usage ;;
esac

GUEST= VERS=3 FS=ext4 OPTS= TMO=600 MEM=512M SIZE=1G DIR=
while getopts g:v:f:o:t:m:e:w: o; do
	case $o in
	g) GUEST=$OPTARG ;;
	v) VERS=$OPTARG ;;
	f) FS=$OPTARG ;;
	o) OPTS=$OPTARG ;;
	t) TMO=$OPTARG ;;
	m) MEM=$OPTARG ;;
	e) SIZE=$OPTARG ;;
	w) DIR=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] && [ -n "$DIR" ] && [ -n "$GUEST" ] || usage
case $VERS in 3 | 4 | 4.[012]) ;; *) say "-v $VERS: 3, 4, 4.0, 4.1 or 4.2"; exit 2 ;; esac
case $FS in ext4 | tmpfs) ;; *) say "-f $FS: ext4 or tmpfs"; exit 2 ;; esac
# the kernel command line splits at blanks
case $DIR$OPTS in *[[:space:]]*) say "no blanks in -w or -o"; exit 2 ;; esac
r=$(why_not "$GUEST")
[ -z "$r" ] || { say "cannot run here: $r"; exit 77; }
DIR=$(cd "$DIR" && pwd) || exit 2
cp "$1" "$DIR/cmd.sh" || exit 2

IMG=
if [ "$FS" = ext4 ]; then
	# sparse; made here without mounting it
	IMG=$DIR/export.img
	truncate -s "$SIZE" "$IMG" &&
	    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
	    "$IMG" >"$DIR/mkfs.log" 2>&1 ||
	    { cat "$DIR/mkfs.log" >&2; say "mkfs.ext4 failed"; exit 125; }
fi
# what guest-init.sh reads from the kernel command line (unknown
# NAME=VALUE words become init's environment)
ARGS="NFS_RUN=$DIR NFS_VERS=$VERS NFS_FS=$FS NFS_SIZE=$SIZE${OPTS:+ NFS_XOPTS=$OPTS}"

# UML: the host's / as root, read-only; our init; console 0 to a file
# and no other consoles (no xterms); UML's umid directory in DIR, not
# ~/.uml
uml() {
	timeout -k 10 "$TMO" env ${1:+"LD_PRELOAD=$1"} "$UML" mem="$MEM" \
	    rootfstype=hostfs rootflags=/ ro init="$HERE/guest-init.sh" \
	    con=null con0=fd:0,fd:1 ssl=null uml_dir="$DIR/uml" umid=clyde-nfs \
	    quiet NFS_GUEST=uml $ARGS NFS_DISK=/dev/ubdb ${IMG:+"ubd1=$IMG"} \
	    </dev/null >"$DIR/console.log" 2>&1 &
}

# QEMU: Debian's kernel (the ELF vmlinux, PVH boot), an initramfs of its
# modules and initramfs-init.sh, which mounts the host's / (9p,
# read-only) and chroots there; no network device (-nic none), the
# serial console to a file, and off, not reset, at the guest's end or
# panic.  The export's image skips the host's flushes: it is thrown
# away after the run, and the guest's NFS and ext4 work as ever.
qemu() {
	qemu_initrd "$DIR" || { say "cannot make the initramfs"; exit 125; }
	qemu_boot "$1" "$DIR" "$DIR" \
	    "GUEST_INIT=$HERE/guest-init.sh NFS_GUEST=qemu $ARGS NFS_DISK=/dev/vda" \
	    -nic none ${IMG:+-drive "file=$IMG,format=raw,if=virtio,cache=unsafe"}
}

# timeout puts the guest's processes (UML has one per guest address
# space) in a process group of their own, whose ID is timeout's PID
case $GUEST in
uml) uml ;;
uml-xstate) uml "$SHIM" ;;
qemu-kvm) qemu kvm ;;
qemu-tcg) qemu tcg ;;
esac
tpid=$!
# stopped ourselves: the guest goes too
trap 'kill -- -$tpid 2>/dev/null' INT TERM
wait $tpid
urc=$?
# wait returns early when a trapped signal came: the real status then
while kill -0 $tpid 2>/dev/null; do wait $tpid; urc=$?; done
# a guest that timed out may leave processes behind SIGKILL's reach for
# a moment: wait for its process group to go
i=0
while pgrep -g $tpid >/dev/null 2>&1 && [ $i -lt 100 ]; do
	[ $i = 20 ] && kill -9 -$tpid 2>/dev/null
	sleep 0.1
	i=$((i + 1))
done
rm -rf "$DIR/uml" "$DIR/export.img" "$DIR/rd" "$DIR/initrd.gz"

if [ -f "$DIR/rc" ]; then rc=$(cat "$DIR/rc"); else rc=125; fi
[ $urc = 124 ] && rc=124
if [ "$rc" = 124 ] || [ "$rc" = 125 ]; then
	[ $urc = 124 ] && say "the guest timed out after $TMO s"
	[ -f "$DIR/setup.err" ] && say "guest setup failed: $(cat "$DIR/setup.err")"
	say "guest log, console and QEMU's messages, last lines:"
	tail -15 "$DIR/guest.log" "$DIR/console.log" "$DIR/qemu.log" >&2 2>/dev/null
	ls -l "$DIR" >&2
fi
exit "$rc"
