#!/bin/sh
# uml.sh: a shell script run against a real Linux NFS mount (the kernel's
# nfsd and NFS client) inside a User-mode Linux guest, for hosts whose own
# kernel cannot mount NFS.  Used by tests/nfs.sh (make check-nfs).
#
#   uml.sh check [-x]
#	prints why the guest cannot run here and exits 1, or exits 0
#   uml.sh run [-x] [-v 3|4.2] [-f ext4|tmpfs] [-o OPTS] [-t SECS]
#	       [-m MEM] [-e SIZE] -w DIR SCRIPT
#	boots the guest, which serves an export over NFS on its own
#	loopback, mounts it at /mnt/nfs and runs SCRIPT with sh there
#	-x  with xstate_shim.so preloaded (make tests/nfs/xstate_shim.so):
#	    UML 6.1 panics without it on CPUs with AMX ("ptrace set fp
#	    regs failed", xstate_shim.c)
#	-v  NFS version (default 3)
#	-f  the exported filesystem: ext4 on an image made here and seen as
#	    /dev/ubdb by the guest (default), or a tmpfs in the guest
#	-o  more mount options, e.g. soft,timeo=10,retrans=1
#	-t  timeout for the whole guest in seconds (default 600)
#	-m  guest RAM (default 512M); -e  export size (default 1G)
#	-w  the run directory, made by the caller, where SCRIPT's results go
#
# The guest's root is this host's / through hostfs, READ-ONLY; DIR alone
# is mounted read-write in the guest (at the same path), so the guest can
# change nothing else here.  The NFS daemons run only in the guest, on its
# own loopback: nothing listens on the host and nothing is mounted here.
# SCRIPT runs with cwd /mnt/nfs and these in its environment:
#   NFS_MNT=/mnt/nfs  NFS_EXPORT=/mnt/export (the server's side)
#   NFS_RUN=DIR  NFS_VERS  NFS_SRC (what is mounted)  NFS_OPTS (mount -o)
#   NFS_EXPORT_OPTS (for exportfs -o, to export again after exportfs -u)
# and may write its results into $NFS_RUN.  In DIR, after the run: out,
# err (SCRIPT's stdout and stderr), rc (its exit status), leftover (what
# is in the export after it), guest.log and console.log.
#
# Exit status: SCRIPT's; 77: UML cannot run here (the reason on stderr);
# 124: timeout; 125: the guest did not set NFS up (the logs on stderr).
# Everything made on the host (the image, UML's umid directory) is in DIR;
# UML's processes are gone when this returns.  UML=PATH: another
# linux.uml.
#
# Needs, as root: user-mode-linux (/usr/bin/linux.uml and its modules in
# /usr/lib/uml/modules), nfs-kernel-server, nfs-common, rpcbind (their
# programs run inside the guest only), perl (the module loader, as there
# is no modprobe without kmod), mkfs.ext4.  Installing those packages may
# start rpcbind or nfsd on the host: check with ps and stop them.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
UML=${UML:-/usr/bin/linux.uml}

say() { printf 'uml.sh: %s\n' "$*" >&2; }
usage() { sed -n '6,22p' "$0" | sed 's/^#//' >&2; exit 2; }

# why_not: the reason UML cannot run here, or nothing
why_not() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return; }
	[ -x "$UML" ] || { echo "no $UML (user-mode-linux)"; return; }
	[ -z "$SHIM" ] || [ -f "$SHIM" ] ||
	    { echo "no $SHIM (make tests/nfs/xstate_shim.so)"; return; }
	rel=$(ls /usr/lib/uml/modules 2>/dev/null | head -1)
	[ -n "$rel" ] && [ -f "/usr/lib/uml/modules/$rel/modules.dep" ] ||
	    { echo "no /usr/lib/uml/modules (user-mode-linux)"; return; }
	for p in rpcbind rpc.mountd rpc.nfsd rpc.statd exportfs mount.nfs \
	    mkfs.ext4 perl timeout ip; do
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

SHIM=
case ${1:-} in
check)
	[ "${2:-}" = -x ] && SHIM=$HERE/xstate_shim.so
	r=$(why_not)
	[ -z "$r" ] && exit 0
	echo "$r"
	exit 1 ;;
run) shift ;;
*) usage ;;
esac

VERS=3 FS=ext4 OPTS= TMO=600 MEM=512M SIZE=1G DIR=
while getopts xv:f:o:t:m:e:w: o; do
	case $o in
	x) SHIM=$HERE/xstate_shim.so ;;
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
[ $# = 1 ] && [ -n "$DIR" ] || usage
case $VERS in 3 | 4 | 4.[012]) ;; *) say "-v $VERS: 3, 4, 4.0, 4.1 or 4.2"; exit 2 ;; esac
case $FS in ext4 | tmpfs) ;; *) say "-f $FS: ext4 or tmpfs"; exit 2 ;; esac
# the kernel command line splits at blanks
case $DIR$OPTS in *[[:space:]]*) say "no blanks in -w or -o"; exit 2 ;; esac
r=$(why_not)
[ -z "$r" ] || { say "cannot run here: $r"; exit 77; }
DIR=$(cd "$DIR" && pwd) || exit 2
cp "$1" "$DIR/cmd.sh" || exit 2

ubd=
if [ "$FS" = ext4 ]; then
	# sparse; made here without mounting it
	truncate -s "$SIZE" "$DIR/export.img" &&
	    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
	    "$DIR/export.img" >"$DIR/mkfs.log" 2>&1 ||
	    { cat "$DIR/mkfs.log" >&2; say "mkfs.ext4 failed"; exit 125; }
	ubd=ubd1=$DIR/export.img
fi

# The kernel command line: the host's / as root, read-only; our init;
# console 0 to a file and no other consoles (no xterms); UML's umid
# directory in DIR, not ~/.uml.  Unknown NAME=VALUE words become init's
# environment.  timeout puts UML's processes (one per guest address
# space) in a process group of their own, whose ID is timeout's PID.
timeout -k 10 "$TMO" env ${SHIM:+"LD_PRELOAD=$SHIM"} "$UML" mem="$MEM" \
    rootfstype=hostfs rootflags=/ ro init="$HERE/guest-init.sh" \
    con=null con0=fd:0,fd:1 ssl=null uml_dir="$DIR/uml" umid=clyde-nfs quiet \
    NFS_RUN="$DIR" NFS_VERS="$VERS" NFS_FS="$FS" NFS_SIZE="$SIZE" \
    ${OPTS:+NFS_XOPTS="$OPTS"} $ubd \
    </dev/null >"$DIR/console.log" 2>&1 &
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
	[ $i = 20 ] && kill -9 -- -$tpid 2>/dev/null
	sleep 0.1
	i=$((i + 1))
done
rm -rf "$DIR/uml" "$DIR/export.img"

if [ -f "$DIR/rc" ]; then rc=$(cat "$DIR/rc"); else rc=125; fi
[ $urc = 124 ] && rc=124
if [ "$rc" = 124 ] || [ "$rc" = 125 ]; then
	[ $urc = 124 ] && say "the guest timed out after $TMO s"
	[ -f "$DIR/setup.err" ] && say "guest setup failed: $(cat "$DIR/setup.err")"
	say "guest log and console, last lines:"
	tail -15 "$DIR/guest.log" "$DIR/console.log" >&2 2>/dev/null
fi
exit "$rc"
