#!/bin/sh
# tmpfs.sh up|down MNT [SIZE]: a size-limited tmpfs (default 64m), which
# fills up to ENOSPC.
. "$(dirname "$0")/common.sh"
MNT=${2:?usage: tmpfs.sh up|down MNT [SIZE]}

case $1 in
up)
	mounted "$MNT" && die "$MNT is already a mount point"
	mkdir -p "$MNT" &&
	    mount -t tmpfs -o "size=${3:-64m},mode=755" clyde-test "$MNT" &&
	    record tmpfs "MNT=$MNT"
	;;
down)
	unmount "$MNT" && rmdir "$MNT" 2>/dev/null
	rm -f "$STATE/tmpfs.env"
	! mounted "$MNT"
	;;
*) die "usage: tmpfs.sh up|down MNT [SIZE]" ;;
esac
