#!/bin/sh
# deps.sh: installs, from Debian's packages, what the test suites use
# (make deps runs it; .ci/run runs it first, so that CI proves the same
# step a newcomer takes).  As root:
#
#   tests/tools/deps.sh [-n] [GROUP...]
#	-n     print the packages of the groups and what each adds, install
#	       nothing (no root needed)
#	GROUP  build, check, lint, fuzz, mounts, nfs, cluster, clusterfs,
#	       or all (the default: every group)
#
# make check needs only the build group; without a package of the check
# group its cases are skipped, each with a line naming the package.
# The root suites (make check-mounts, check-nfs, check-cluster,
# check-clusterfs) need their groups.  The nfs and clusterfs groups also
# put the QEMU guests' kernel in a cache (tests/root/nfs/qemu-kernel.sh).
# The nfs group stops the NFS services that the packages' install may
# start here, the clusterfs group corosync, dlm and o2cb: the tests run
# theirs in a guest.
# Exit status: 0 installed (or listed), 1 an install failed, 2 usage.
set -u
cd "$(dirname "$0")/../.." || exit 2

# group package what-it-adds, one a line
PACKAGES='build make builds clyde (make, make check)
build gcc compiles it
build libc6-dev the C library headers
build perl prove, which runs make check; JSON checks of the tests
build binutils nm for tests/project/layering.sh (gcc brings it)
build git the version (git describe), make dist, tests/project/build.sh
check mandoc clyde(1) checked by mandoc -Tlint (tests/project/lint.sh, tests/project/docs.sh)
check python3 reads the man page (tests/project/docs.sh) and some JSON records
check bonnie++ bonnie++ 2.00a and bon_csv2html/bon_csv2txt beside clyde
check strace counts the syncs of clyde and bonnie++ (tests/e2e/sync.sh)
check openmpi-bin clyde-mpi (make mpi): mpirun for tests/mpi/ranks.sh
check libopenmpi-dev clyde-mpi: mpicc and the MPI headers
check chromium draws clyde report --html in a headless browser
check fonts-dejavu-core a font for the browser to draw with
check cmark-gfm renders clyde report --markdown as GitHub does
check tmux a terminal for the progress line (tests/e2e/progress_line_and_record_context.sh)
check util-linux unshare, setpriv and ipcs of the root cases (Debian has it)
lint clang clang warnings (make lint)
fuzz clang libFuzzer on the readers and the option parser (make fuzz)
fuzz libclang-rt-14-dev clang fuzzer and sanitizer runtime
mounts e2fsprogs ext4 on a loop device (make check-mounts)
mounts xfsprogs xfs on a loop device
mounts btrfs-progs btrfs on a loop device
mounts glusterfs-server a GlusterFS volume over 127.0.0.1
mounts glusterfs-client its mount
mounts openssh-server sshd for the sshfs mount
mounts openssh-client ssh for the sshfs mount
mounts sshfs an sshfs mount killed mid-run
mounts procps pkill and ps for the mounts kept alive
mounts util-linux losetup and mount
nfs user-mode-linux the first NFS guest (make check-nfs)
nfs qemu-system-x86 the second NFS guest
nfs busybox-static the QEMU guest initramfs
nfs xz-utils unpacks the QEMU guest kernel
nfs binutils strips its modules
nfs nfs-kernel-server nfsd in the guests
nfs nfs-common the NFS client in the guests
nfs rpcbind rpcbind for NFS v3 in the guests
cluster moosefs-master MooseFS in the namespaced hosts (make check-cluster)
cluster moosefs-chunkserver its chunk servers
cluster moosefs-client its mount
cluster iproute2 ip: the namespaced hosts and their links
cluster glusterfs-server GlusterFS in the namespaced hosts
cluster glusterfs-client its mounts
cluster openssh-server sshd in each host, for mpirun
cluster openmpi-bin clyde-mpi across the hosts
cluster libopenmpi-dev clyde-mpi built for them
cluster xfsprogs the bricks
cluster python3 reads the JSON records of the cluster runs
clusterfs user-mode-linux the guests of make check-clusterfs
clusterfs qemu-system-x86 the guests where UML cannot boot
clusterfs busybox-static their initramfs
clusterfs xz-utils unpacks their kernel
clusterfs binutils strips its modules
clusterfs gfs2-utils mkfs.gfs2 for the GFS2 image
clusterfs corosync membership and quorum for GFS2 in the guests
clusterfs dlm-controld dlm_controld, the daemon of the lock manager for GFS2
clusterfs ocfs2-tools mkfs.ocfs2, o2cb and mount.ocfs2 for OCFS2
clusterfs iproute2 ip: the namespace and links of the guests
clusterfs openafs-fileserver fileserver and bosserver of the AFS cell (afs group)
clusterfs openafs-dbserver ptserver and vlserver of the AFS cell (afs group)
clusterfs openafs-client bos, pts and vos, which set the cell up (afs group)
clusterfs openafs-fuse afsd.fuse, the AFS client of the guests (afs group)
clusterfs bonnie++ bonnie++ 2.00a beside clyde on each filesystem'

GROUPS='build check lint fuzz mounts nfs cluster clusterfs'

usage() {
	echo "usage: tests/tools/deps.sh [-n] [build|check|lint|fuzz|mounts|nfs|cluster|clusterfs|all]..." >&2
	exit 2
}

list=0
while getopts n o; do
	case $o in
	n) list=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] && set -- all
want=
for g in "$@"; do
	case " $GROUPS all " in
	*" $g "*) ;;
	*) echo "tests/tools/deps.sh: $g: no such group (build, check, lint, fuzz, mounts, nfs, cluster, clusterfs, all)" >&2
	   exit 2 ;;
	esac
	[ "$g" = all ] && g=$GROUPS
	want="$want $g"
done

# the lines of the groups wanted
lines=$(printf '%s\n' "$PACKAGES" | awk -v want="$want" '
    BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) ok[w[i]] = 1 }
    ok[$1]')
pkgs=$(printf '%s\n' "$lines" | awk '!seen[$2]++ { print $2 }' | tr '\n' ' ')

if [ $list = 1 ]; then
	printf '%s\n' "$lines" | awk '{ g = $1; p = $2; $1 = $2 = "";
	    sub(/^ +/, ""); printf "%-8s %-20s %s\n", g, p, $0 }'
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "tests/tools/deps.sh: installs with apt-get, as root (sudo make deps); -n lists the packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || exit 1
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $pkgs >/dev/null || exit 1

case " $want " in
*" nfs "* | *" clusterfs "*)
	# the QEMU guests are the last resort: without their kernel the
	# others may still boot, and each suite names what it could not try
	tests/root/nfs/qemu-kernel.sh ||
	    echo "tests/tools/deps.sh: tests/root/nfs/qemu-kernel.sh failed: no QEMU guest for make check-nfs and check-clusterfs" >&2
	;;
esac
case " $want " in
*" nfs "*)
	# what the install started (rpcbind, nfsd): the guests run their own
	if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
		systemctl stop nfs-server rpcbind.socket rpcbind >/dev/null 2>&1 || :
	else
		for s in nfs-kernel-server rpcbind; do
			[ -x /etc/init.d/$s ] && /etc/init.d/$s stop >/dev/null 2>&1
		done
	fi
	;;
esac
case " $want " in
*" clusterfs "*)
	# what the install started (corosync, dlm_controld, o2cb, OpenAFS's
	# servers and client): the guests run their own
	if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
		systemctl stop dlm corosync o2cb ocfs2 openafs-client openafs-fileserver >/dev/null 2>&1 || :
	else
		for s in dlm corosync ocfs2 o2cb openafs-client openafs-fileserver; do
			[ -x /etc/init.d/$s ] && /etc/init.d/$s stop >/dev/null 2>&1
		done
	fi
	;;
esac
exit 0
