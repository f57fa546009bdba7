#!/bin/sh
# loopfs.sh ext4|xfs|btrfs up|down|ro|rw MNT: a filesystem on a loop
# device over a sparse image in STATE (320 MiB: xfs needs 300, btrfs 109).
. "$(dirname "$0")/common.sh"
FS=$1 MNT=${3:?usage: loopfs.sh ext4|xfs|btrfs up|down|ro|rw MNT}
case $FS in
ext4 | xfs | btrfs) ;;
*) die "usage: loopfs.sh ext4|xfs|btrfs up|down|ro|rw MNT" ;;
esac
command -v "mkfs.$FS" >/dev/null || die "mkfs.$FS is not installed"

case $2 in
up)
	mounted "$MNT" && die "$MNT is already a mount point"
	make_loop "$FS" "$FS" 320M "$MNT" || { free_loop "$FS"; exit 1; }
	;;
down) free_loop "$FS" ;;
ro) mount -o remount,ro "$MNT" ;;
rw) mount -o remount,rw "$MNT" ;;
*) die "usage: loopfs.sh ext4|xfs|btrfs up|down|ro|rw MNT" ;;
esac
