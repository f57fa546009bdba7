#!/bin/sh
# guest-init.sh: PID 1 of the guests that guests.sh boots.  The root is the
# host's / (hostfs, or 9p under QEMU, read-only); the run directory CFS_RUN
# is the one path mounted read-write.  Mounts tmpfs where the cluster programs write,
# names the guest node<N> (CFS_NODE), sets up lo and eth0 (10.0.0.<N>),
# loads the modules, runs node.sh (afs: afs-root.sh, which runs it in a
# chroot) and powers off.  From the kernel command line: CFS_RUN,
# CFS_NODE, CFS_GUEST (uml or qemu) and CFS_MODS (UML's to load; QEMU's
# initramfs has loaded them).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C
umask 022
HERE=$(cd "$(dirname "$0")" && pwd)
W=$CFS_RUN N=$CFS_NODE
D=$W/node$N

up() { cut -d' ' -f1 /proc/uptime; }
log() { echo "[$(up)] $*" >>"$D/guest.log"; }
off() {
	cd /
	[ -n "${HB:-}" ] && kill "$HB" 2>/dev/null
	sync
	umount "$W" 2>/dev/null
	# QEMU: at once, as PID 1 that went on would see its devices go
	[ "$CFS_GUEST" = qemu ] && busybox poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 5
	poweroff -f
}
die() {
	log "setup failed: $*"
	echo "$*" >>"$D/setup.err"
	echo 125 >"$D/rc"
	off
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
if [ "$CFS_GUEST" = qemu ]; then
	# no cache: the other guest writes here too
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=none \
	    rundir "$W"
else
	mount -t hostfs -o "$W" hostfs "$W"
fi || off
# the shared disk
DISK=/dev/ubda
[ "$CFS_GUEST" = qemu ] && DISK=/dev/vda
# writable places of the guest's own
for d in /run /var/lib /var/log /mnt; do
	mount -t tmpfs -o mode=755,size=64m tmpfs $d || die "tmpfs on $d"
done
mount -t tmpfs -o mode=1777,size=64m tmpfs /var/tmp
mkdir -p /run/tmp /run/lock /dev/pts /dev/shm && chmod 1777 /run/tmp
export TMPDIR=/run/tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
. "$W/guest.env"
log "init started"
# signs of life for guests.sh, which takes a kernel that stops running
# its processes for wedged and names where it is from its symbols
(while :; do up >"$D/alive"; sleep 2; done) </dev/null >/dev/null 2>&1 &
HB=$!
hostname "node$N"
ip link set lo up || die "ip link set lo up"
ip link set eth0 up && ip addr add "10.0.0.$N/24" dev eth0 &&
    ip link set eth0 multicast on || die "eth0 set-up"
# the group's modules (guests.sh); the host may have no kmod: modprobe
# is not there to be used
mods=$(echo "$CFS_MODS" | tr , ' ')
[ "$CFS_GUEST" = qemu ] ||
    perl "$HERE/../nfs/modload.pl" "/usr/lib/uml/modules/$(uname -r)" $mods \
    >>"$D/guest.log" 2>&1 || die "loading the modules $mods failed"
log "modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
cat /proc/kallsyms >"$D/kallsyms" 2>/dev/null
[ -d /sys/kernel/config ] && mount -t configfs none /sys/kernel/config
if [ "$FS" = probe ]; then
	echo 0 >"$D/rc"
	off
fi
export W N D HERE DISK
cd /
script=node.sh
[ "$FS" = afs ] && script=afs-root.sh
sh "$HERE/$script" >"$D/node.log" 2>&1 </dev/null
echo $? >"$D/rc"
log "node script exit status $(cat "$D/rc")"
dmesg >"$D/dmesg.txt"
off
