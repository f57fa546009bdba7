#!/bin/sh
# initramfs-init.sh: /init of the QEMU guest that tests/root/nfs/guest.sh
# boots, in the initramfs of busybox and Debian's modules that
# tests/root/nfs/qemu-kernel.sh made, and of the cluster guests of
# tests/root/clusterfs/guests.sh.  It loads the modules (GUEST_MODS, a
# comma-separated list, after those of virtio and 9p; by default NFS's),
# mounts this host's / (9p, tag hostroot) read-only and runs GUEST_INIT
# (tests/root/nfs/guest-init.sh, tests/root/clusterfs/guest-init.sh)
# there as PID 1.  Its messages go to the console, which the host keeps
# as console.log.
export PATH=/bin

fail() {
	echo "initramfs-init.sh: $*"
	poweroff -f
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# crc32c_intel needs SSE 4.2, which an emulated CPU may lack
mods=$(echo "${GUEST_MODS:-crc32c_intel,crc32c_generic,ext4,nfsd,nfs,nfsv3,nfsv4}" | tr , ' ')
for m in virtio_pci 9pnet_virtio 9p virtio_blk $mods; do
	modprobe $m || [ $m = crc32c_intel ] || fail "modprobe $m failed"
done
# cache=loose: this / does not change under the guest, and the run
# directory, which does, is a mount of its own
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=262144,cache=loose \
    hostroot /newroot || fail "mount the host's / (9p)"
mount -t devtmpfs devtmpfs /newroot/dev || fail "devtmpfs on /newroot/dev"
umount /sys /proc
exec chroot /newroot /bin/sh "$GUEST_INIT"
fail "chroot /newroot /bin/sh $GUEST_INIT"
