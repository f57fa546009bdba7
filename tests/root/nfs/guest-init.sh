#!/bin/sh
# guest-init.sh: PID 1 of the guests that guest.sh boots, User-mode
# Linux or QEMU (NFS_GUEST=qemu; its initramfs has loaded the modules
# and chrooted here).  The root is the host's / (hostfs or 9p,
# read-only); the run directory NFS_RUN is the one path mounted
# read-write.  It loads the NFS modules, serves an export (ext4 on
# NFS_DISK, or a tmpfs) with the kernel's nfsd on the guest's loopback,
# mounts it at /mnt/nfs, runs NFS_RUN/cmd.sh there, records what is left
# in the export and powers off.  From the kernel command line: NFS_GUEST,
# NFS_RUN, NFS_VERS, NFS_FS, NFS_SIZE, NFS_DISK, NFS_XOPTS (more mount
# options).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C
umask 022
D=$NFS_RUN

log() { echo "[$(cut -d' ' -f1 /proc/uptime)] $*" >>/run/guest.log; }

off() {
	cd /
	cp /run/guest.log "$D/guest.log" 2>/dev/null
	umount /mnt/nfs 2>/dev/null
	sync
	umount "$D" 2>/dev/null
	# QEMU: at once, as PID 1 that went on would see its devices go
	[ "$NFS_GUEST" = qemu ] && busybox poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 5
	poweroff -f
}

die() {
	log "setup failed: $*"
	echo "$*" >"$D/setup.err"
	echo 125 >"$D/rc"
	off
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
# writable places of the guest's own; not /tmp, where the tree may be
mount -t tmpfs -o mode=755,size=64m tmpfs /run
mount -t tmpfs -o mode=755,size=16m tmpfs /var/lib/nfs
mount -t tmpfs -o mode=1777,size=16m tmpfs /var/tmp
mkdir -p /run/tmp /dev/pts /dev/shm && chmod 1777 /run/tmp
export TMPDIR=/run/tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
# the run directory, the one way back to the host
if [ "$NFS_GUEST" = qemu ]; then
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=none \
	    rundir "$D"
else
	mount -t hostfs -o "$D" hostfs "$D"
fi || { echo o >/proc/sysrq-trigger; sleep 5; }
log "init started"
hostname clyde-nfs
ip link set lo up || die "ip link set lo up"

# nfsd and the client, from the modules of user-mode-linux (QEMU's
# initramfs has loaded its own)
uml_modules() {
	mods="sunrpc lockd nfsd nfs nfsv3 nfsv4"
	if command -v modprobe >/dev/null; then
		# modprobe looks in ROOT/lib/modules; the modules are elsewhere
		mkdir -p /run/modroot/lib &&
		    ln -s /usr/lib/uml/modules /run/modroot/lib/modules
		for m in $mods; do
			modprobe -d /run/modroot "$m" >>/run/guest.log 2>&1 ||
			    die "modprobe $m"
		done
	else
		"$(dirname "$0")/modload.pl" "/usr/lib/uml/modules/$(uname -r)" \
		    $mods >>/run/guest.log 2>&1 || die "loading the NFS modules failed"
	fi
}
[ "$NFS_GUEST" = qemu ] || uml_modules
log "modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"

# the state directories of the NFS programs, all on the guest's tmpfs
mkdir -p /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery /var/lib/nfs/sm \
    /var/lib/nfs/sm.bak /run/rpc_pipefs /run/rpcbind
: >/var/lib/nfs/etab
: >/var/lib/nfs/rmtab
chown statd /var/lib/nfs/sm /var/lib/nfs/sm.bak 2>/dev/null
chown _rpc /run/rpcbind 2>/dev/null
mount -t rpc_pipefs sunrpc /run/rpc_pipefs
mount -t nfsd nfsd /proc/fs/nfsd || die "mount nfsd"

# /mnt on a tmpfs, for the mount points
mount -t tmpfs -o mode=755,size=1m tmpfs /mnt && mkdir /mnt/export /mnt/nfs ||
    die "tmpfs on /mnt"
case $NFS_FS in
tmpfs) mount -t tmpfs -o "mode=1777,size=$NFS_SIZE" tmpfs /mnt/export ||
	die "tmpfs export" ;;
*)	# no cache flushes: each one is an fsync of the image on the host,
	# which made a run many times slower; nfsd's own semantics are kept
	mount -t ext4 -o nobarrier "$NFS_DISK" /mnt/export >>/run/guest.log 2>&1 ||
	    die "mount the ext4 image $NFS_DISK"
	chmod 1777 /mnt/export ;;
esac

# fsid=0: the export is also NFSv4's pseudo root
export NFS_EXPORT=/mnt/export
export NFS_EXPORT_OPTS=rw,sync,no_root_squash,no_subtree_check,insecure,fsid=0
rpcbind -w >>/run/guest.log 2>&1 || die "rpcbind"
rpc.statd --no-notify >>/run/guest.log 2>&1 || log "rpc.statd failed"
exportfs -o "$NFS_EXPORT_OPTS" "127.0.0.1:$NFS_EXPORT" >>/run/guest.log 2>&1 ||
    die "exportfs"
rpc.mountd >>/run/guest.log 2>&1 || die "rpc.mountd"
# grace and lease times at the minimum: v4 OPENs wait out the grace time
rpc.nfsd -G 10 -L 10 4 >>/run/guest.log 2>&1 || die "rpc.nfsd"
log "nfsd versions $(cat /proc/fs/nfsd/versions)"

case $NFS_VERS in
4*) NFS_SRC=127.0.0.1:/ ;;
*) NFS_SRC=127.0.0.1:$NFS_EXPORT ;;
esac
NFS_OPTS=vers=$NFS_VERS${NFS_XOPTS:+,$NFS_XOPTS}
mount -t nfs -o "$NFS_OPTS" "$NFS_SRC" /mnt/nfs >>/run/guest.log 2>&1 ||
    die "mount -t nfs -o $NFS_OPTS $NFS_SRC /mnt/nfs"
grep ' /mnt/nfs ' /proc/mounts >"$D/mountinfo"
log "mounted: $(cat "$D/mountinfo")"

export NFS_MNT=/mnt/nfs NFS_RUN NFS_VERS NFS_SRC NFS_OPTS
cd /mnt/nfs || die "cd /mnt/nfs"
sh "$D/cmd.sh" >"$D/out" 2>"$D/err" </dev/null
rc=$?
cd /
log "script exit status $rc"
(cd "$NFS_EXPORT" && find . -mindepth 1 ! -path './lost+found*') >"$D/leftover"
if ! umount /mnt/nfs >>/run/guest.log 2>&1; then
	log "umount /mnt/nfs failed; in use by:"
	ls -l /proc/[0-9]*/cwd /proc/[0-9]*/fd 2>/dev/null | grep /mnt/nfs >>/run/guest.log
	umount -f /mnt/nfs >>/run/guest.log 2>&1 || umount -l /mnt/nfs
fi
rpc.nfsd 0 >>/run/guest.log 2>&1
echo $rc >"$D/rc"
off
