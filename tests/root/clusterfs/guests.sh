#!/bin/sh
# guests.sh: two guests that share one disk image and a network of their
# own, for a cluster filesystem that this host's kernel need not know
# (GFS2 with lock_dlm, OCFS2 with o2cb), or an OpenAFS cell and two
# clients (afs).  Used by tests/root/clusterfs.sh
# (make check-clusterfs).
#
#   guests.sh probe
#	boots one guest of each kind in turn until one loads the cluster
#	modules and powers off; prints "GUEST WHAT (WHY)" and exits 0, or
#	what was tried and how each failed and exits 1.
#	CLYDE_CLUSTERFS_GUEST: the guests to try, in order (default: all)
#   guests.sh run -g GUEST -f gfs2|ocfs2|afs [-t SECS] [-m MEM] -w DIR
#	makes the filesystem on a sparse image in DIR (afs: none; node 1
#	serves the cell), then boots node 1 and node 2 at once, in a
#	network namespace made for them and gone with them, each with the
#	image as its disk (UML's /dev/ubda, QEMU's /dev/vda) and an eth0 on
#	a multicast transport (10.0.0.1 and 10.0.0.2).  Each runs
#	node.sh, which reads DIR/run.env (written by the caller: CLYDE,
#	BONNIE, ARGS, T, FAULT_N, CASES) and writes its results in DIR/node<N>.
#	-t  timeout of each guest in seconds (default 300)
#
# GUEST:
#   uml         User-mode Linux, /usr/bin/linux.uml (user-mode-linux)
#   uml-xstate  the same with build/tests/xstate_shim.so preloaded: UML 6.1
#               panics without it on CPUs with AMX (tests/root/nfs/README)
#   qemu-kvm    QEMU with KVM, booting Debian's kernel from the cache of
#               tests/root/nfs/qemu-kernel.sh ($CLYDE_NFS_CACHE, default
#               /var/tmp/clyde-nfs), whose initramfs has the cluster
#               modules; only where /dev/kvm is kvm_intel or kvm_amd
#   qemu-tcg    the same, emulating the CPU: 5 to 10 times slower
#
# QEMU's guests share the image as a virtio disk (share-rw, no locks;
# the host's page cache keeps the two views one) and talk over QEMU's
# socket netdev on the same multicast group.
# The guests' root is this host's / through hostfs (QEMU: 9p), READ-ONLY;
# DIR alone is mounted read-write (at the same path).  Their links are a
# multicast transport inside an unnamed network namespace (unshare -n) whose
# loopback carries the multicast: nothing is added to the host's network.
# After the run the namespace is checked for processes left, which are
# killed and named in DIR/netns.txt.  The image is removed.
# A guest whose kernel runs none of its processes for WEDGE s (its init
# rewrites DIR/node<N>/alive every 2 s) is killed, the symbols of the words
# on its kernel's stack kept in DIR/node<N>/wedged.txt, and the other node
# told (its barriers stop waiting).
# Exit status: 0 both guests ran node.sh to its end; 1 a node's script
# failed or a guest wedged; 77 the guest cannot run here (why on stderr); 124 a guest timed
# out; 125 set-up failed (mkfs, the namespace).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
UML=${UML:-/usr/bin/linux.uml}
SHIM=$(cd "$HERE/../../.." && pwd)/build/tests/xstate_shim.so
QEMU=qemu-system-x86_64
CACHE=${CLYDE_NFS_CACHE:-/var/tmp/clyde-nfs}
GUESTS="uml uml-xstate qemu-kvm qemu-tcg"
# the guests' multicast transport: group and port (UML's has a TTL too)
GROUP=239.192.77.1 PORT=1102

. "$HERE/../guest_lib.sh"

say() { printf 'guests.sh: %s\n' "$*" >&2; }
usage() { sed -n '8,21p' "$0" | sed 's/^#//' >&2; exit 2; }

what() {
	case $1 in
	uml) echo "plain UML" ;;
	uml-xstate) echo "uml+xstate shim" ;;
	qemu-kvm) echo "QEMU with KVM" ;;
	qemu-tcg) echo "QEMU with TCG" ;;
	esac
}

# why_not GUEST [FS]: the reason GUEST cannot run here, or nothing
why_not() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return; }
	case $1 in
	uml | uml-xstate)
		r=$(uml_not "$1")
		[ -z "$r" ] || { echo "$r"; return; } ;;
	qemu-kvm | qemu-tcg)
		r=$(qemu_not "$1" virtio_net gfs2 dlm ocfs2 fuse)
		[ -z "$r" ] || { echo "$r"; return; } ;;
	*)
		echo "no guest $1 (one of: $GUESTS)"
		return ;;
	esac
	for p in unshare ip timeout perl md5sum gzip; do
		command -v $p >/dev/null || { echo "no $p"; return; }
	done
	case ${2:-all} in
	gfs2 | all)
		for p in mkfs.gfs2 corosync corosync-quorumtool dlm_controld dlm_tool; do
			PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v $p >/dev/null ||
			    { echo "no $p (gfs2-utils corosync dlm-controld)"; return; }
		done ;;
	esac
	case ${2:-all} in
	ocfs2 | all)
		for p in mkfs.ocfs2 o2cb mount.ocfs2; do
			PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v $p >/dev/null ||
			    { echo "no $p (ocfs2-tools)"; return; }
		done ;;
	esac
	case ${2:-} in
	afs)
		for p in bosserver bos pts vos afsd.fuse /usr/lib/openafs/ptserver \
		    /usr/lib/openafs/vlserver /usr/lib/openafs/fileserver \
		    /usr/lib/openafs/volserver /usr/lib/openafs/salvager; do
			PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v $p >/dev/null ||
			    { echo "no $p (openafs-fileserver openafs-dbserver openafs-client openafs-fuse)"; return; }
		done ;;
	esac
	# the guest covers these with tmpfs mounts: the tree must not be there
	case $HERE/ in
	/run/* | /mnt/* | /var/lib/* | /var/log/* | /var/tmp/* | /dev/* | /etc/*)
		echo "$HERE is hidden in the guest (under /run, /mnt, /var/lib, /var/log, /var/tmp)"
		return ;;
	esac
}

# failure DIR STATUS: how a guest failed
failure() {
	panic=$(panic_of "$1"/node*/console.log)
	if [ -n "$panic" ]; then
		echo "panicked: $panic"
	elif [ -s "$1/node1/setup.err" ]; then
		echo "failed: $(cat "$1/node1/setup.err")"
	elif [ "$2" = 124 ]; then
		echo "timed out"
	else
		echo "failed (exit status $2): $(cat "$1"/node1/console.log 2>/dev/null | grep . | tail -1)"
	fi
}

probe() {
	dir=$(mktemp -d "${TMPDIR:-/tmp}/clyde-clusterfs-probe.XXXXXX") || exit 1
	trap 'rm -rf "$dir"' EXIT
	probe_guests CLYDE_CLUSTERFS_GUEST "$dir" "modules loaded and powered off" \
	    -f probe -t 120
}

# wedged DIR PID: what the kernel of the guest whose main process is PID
# was doing: the kernel symbols (DIR/kallsyms, from the guest) of the
# words on its stack, innermost first
WEDGE=45
wedged() {
	{
		echo "no sign of life for more than $WEDGE s (last at uptime $(cat "$1/alive" 2>/dev/null)); the guest's processes:"
		ps -o pid,stat,pcpu,time -g "$(ps -o pgid= -p "$2" 2>/dev/null | tr -d ' ')" 2>/dev/null
		# UML's kernel is a process of this host: its stack is
		# the guest kernel's
		if [ -z "${GUEST##uml*}" ] && command -v gdb >/dev/null &&
		    [ -n "$2" ] && [ -s "$1/kallsyms" ]; then
			echo "the words on its kernel's stack that are kernel text:"
			timeout 20 gdb -q -batch -p "$2" -ex 'p/x $pc' -ex 'x/1024gx $sp' 2>/dev/null |
			    perl "$HERE/symbols.pl" "$1/kallsyms"
		fi
	} >"$1/wedged.txt" 2>&1
}

# ---- inside the namespace: unshare -n runs this again ----
if [ "${1:-}" = __netns ]; then
	DIR=$2 GUEST=$3 NODES=$4 TMO=$5 MEM=$6
	. "$DIR/guest.env"
	# UML's mcast transport needs multicast on the loopback and a route
	# for the group, else the guests never hear each other
	ip link set lo up && ip link set lo multicast on &&
	    ip route add 224.0.0.0/4 dev lo || { say "namespace set-up failed"; exit 125; }
	readlink /proc/self/ns/net >"$DIR/netns.id"
	pre=
	[ "$GUEST" = uml-xstate ] && pre=$SHIM
	# the group's modules, which UML's init loads (guest-init.sh); a
	# QEMU guest's initramfs loads them after its network's and a
	# crc32c, which GFS2's and OCFS2's libcrc32c needs
	case $FS in
	gfs2) mods=dlm,gfs2 ;;
	ocfs2) mods=ocfs2_stack_o2cb,ocfs2,ocfs2_dlmfs ;;
	afs) mods=fuse ;;
	*) mods=dlm,gfs2,ocfs2_stack_o2cb,ocfs2 ;;
	esac
	# node N on UML: ubd0c shares the image, so the second guest is not
	# locked out by the first one's flock of it
	uml() {
		disk=
		[ -f "$DIR/disk.img" ] && disk="ubd0c=$DIR/disk.img"
		timeout -k 10 "$TMO" env ${pre:+"LD_PRELOAD=$pre"} "$UML" mem="$MEM" \
		    rootfstype=hostfs rootflags=/ ro init="$HERE/guest-init.sh" \
		    con=null con0=fd:0,fd:1 ssl=null uml_dir="$DIR/uml" umid="node$n" \
		    quiet CFS_RUN="$DIR" CFS_NODE=$n CFS_GUEST=uml CFS_MODS=$mods $disk \
		    "eth0=mcast,fe:fd:0a:00:00:0$n,$GROUP,$PORT,1" \
		    </dev/null >"$D/console.log" 2>&1 &
	}
	# node N on QEMU (as tests/root/nfs/guest.sh's): the image shared
	# without QEMU's locks, off at the guest's end or panic
	qemu() {
		qemu_initrd "$D" || { say "cannot make node $n's initramfs"; exit 125; }
		disk=
		[ -f "$DIR/disk.img" ] &&
		    disk="-drive file=$DIR/disk.img,format=raw,if=none,id=d0,cache=unsafe,file.locking=off -device virtio-blk-pci,drive=d0,share-rw=on"
		qemu_boot "$1" "$D" "$DIR" \
		    "GUEST_INIT=$HERE/guest-init.sh GUEST_MODS=crc32c_intel,crc32c_generic,virtio_net,configfs,$mods CFS_RUN=$DIR CFS_NODE=$n CFS_GUEST=qemu" \
		    -netdev "socket,id=n0,mcast=$GROUP:$PORT" \
		    -device "virtio-net-pci,netdev=n0,mac=fe:fd:0a:00:00:0$n" $disk
	}
	n=1
	while [ $n -le "$NODES" ]; do
		D=$DIR/node$n
		# timeout puts the guest's processes in a process group of
		# their own
		case $GUEST in
		uml*) uml ;;
		qemu-kvm) qemu kvm ;;
		qemu-tcg) qemu tcg ;;
		esac
		echo $! >"$D/guest.pid"
		n=$((n + 1))
	done
	# UML's first process makes a session of its own, which its other
	# processes share: killing that process group ends a guest
	kill_guest() { # kill_guest NODE-DIR
		u=$(cat "$DIR/uml/${1##*/}/pid" 2>/dev/null)
		[ -n "$u" ] && kill -KILL -"$u" 2>/dev/null
		kill -KILL -"$(cat "$1/guest.pid")" 2>/dev/null
	}
	trap 'for d in "$DIR"/node*; do kill_guest "$d"; done; exit 143' INT TERM
	# a guest's init rewrites its "alive" file every 2 s; one whose
	# kernel no longer schedules it is wedged: its kernel's stack is
	# kept and the guest is killed, and the other node stops waiting
	# for it (its abort file)
	t0=$(date +%s)
	while :; do
		going=0
		for p in "$DIR"/node*/guest.pid; do
			D=${p%/guest.pid}
			[ -f "$D/guest.rc" ] && continue
			pid=$(cat "$p")
			if ! kill -0 "$pid" 2>/dev/null; then
				wait "$pid"
				echo $? >"$D/guest.rc"
				continue
			fi
			going=1
			last=$(stat -c %Y "$D/alive" 2>/dev/null || echo "$t0")
			if [ $(($(date +%s) - last)) -gt "$WEDGE" ] && [ ! -f "$D/wedged.txt" ]; then
				wedged "$D" "$(cat "$DIR/uml/${D##*/}/pid" 2>/dev/null || cat "$p")"
				: >"$DIR/shared/abort.${D##*node}"
				kill_guest "$D"
			fi
		done
		[ $going = 0 ] && break
		sleep 1
	done
	exit 0
fi

case ${1:-} in
probe) probe; exit ;;
check)
	r=$(why_not "${2:-}" "${3:-all}")
	[ -z "$r" ] && exit 0
	echo "$r"
	exit 1 ;;
run) shift ;;
*) usage ;;
esac

GUEST= FS= TMO=300 MEM=512M DIR=
while getopts g:f:t:m:w: o; do
	case $o in
	g) GUEST=$OPTARG ;;
	f) FS=$OPTARG ;;
	t) TMO=$OPTARG ;;
	m) MEM=$OPTARG ;;
	w) DIR=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] && [ -n "$DIR" ] && [ -n "$GUEST" ] || usage
case $FS in gfs2 | ocfs2 | afs) NODES=2 ;; probe) NODES=1 ;; *) usage ;; esac
r=$(why_not "$GUEST" "$FS")
[ -z "$r" ] || { say "cannot run here: $r"; exit 77; }
DIR=$(cd "$DIR" && pwd) || exit 2
# the kernel command line splits at blanks; hostfs's option at commas
case $DIR in *[[:space:],]*) say "no blanks or commas in -w"; exit 2 ;; esac
mkdir -p "$DIR/shared" "$DIR/uml" || exit 125
n=1
while [ $n -le $NODES ]; do mkdir -p "$DIR/node$n"; n=$((n + 1)); done
echo "FS=$FS NODES=$NODES" >"$DIR/guest.env"

# made here, never mounted here.  GFS2: the lock table's cluster name is
# corosync's cluster_name (node.sh), one journal a node
case $FS in
gfs2)
	truncate -s 2G "$DIR/disk.img" &&
	    mkfs.gfs2 -O -p lock_dlm -t clydegfs:gfs0 -j 2 "$DIR/disk.img" ;;
ocfs2)
	truncate -s 2G "$DIR/disk.img" &&
	    mkfs.ocfs2 -b 4K -C 4K -N 2 -L clydeo2 --cluster-stack=o2cb \
	    --cluster-name=clydeo2 -F "$DIR/disk.img" ;;
*) true ;;
esac >"$DIR/mkfs.log" 2>&1 || { cat "$DIR/mkfs.log" >&2; say "mkfs.$FS failed"; rm -f "$DIR/disk.img"; exit 125; }

unshare -n -- sh "$HERE/guests.sh" __netns "$DIR" "$GUEST" $NODES "$TMO" "$MEM" &
upid=$!
trap 'kill -TERM $upid 2>/dev/null' INT TERM
wait $upid
urc=$?
while kill -0 $upid 2>/dev/null; do wait $upid; urc=$?; done
# the namespace has no name: it goes with its last process.  Anything
# still in it (a guest's process that outlived SIGKILL's first round)
# is named and killed
left=
if [ -s "$DIR/netns.id" ]; then
	id=$(cat "$DIR/netns.id")
	i=0
	while :; do
		left=
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/ns/net" 2>/dev/null)" = "$id" ] && left="$left ${p#/proc/}"
		done
		[ -z "$left" ] || [ $i -ge 50 ] && break
		[ $i = 20 ] && for p in $left; do kill -9 "$p" 2>/dev/null; done
		sleep 0.1
		i=$((i + 1))
	done
	echo "left in the guests' namespace:${left:- none}" >"$DIR/netns.txt"
fi
rm -rf "$DIR/disk.img" "$DIR/uml" "$DIR"/node*/rd "$DIR"/node*/initrd.gz
[ $urc = 0 ] || { say "namespace set-up failed"; exit 125; }
rc=0
n=1
while [ $n -le $NODES ]; do
	u=$(cat "$DIR/node$n/guest.rc" 2>/dev/null || echo none)
	if [ -f "$DIR/node$n/wedged.txt" ]; then
		say "node $n wedged: its kernel ran none of its processes for $WEDGE s (node$n/wedged.txt)"
		rc=1
	else
		case $u in 124 | 137) say "node $n timed out after $TMO s"; rc=124 ;; esac
	fi
	n=$((n + 1))
done
[ $rc = 0 ] || exit $rc
n=1
while [ $n -le $NODES ]; do
	r=$(cat "$DIR/node$n/rc" 2>/dev/null || echo none)
	if [ "$r" != 0 ]; then
		say "node $n: script exit status $r: $(cat "$DIR/node$n/setup.err" 2>/dev/null)"
		[ "$r" = 125 ] || [ "$r" = none ] && rc=125
		[ $rc = 0 ] && rc=1
	fi
	n=$((n + 1))
done
exit $rc
