#!/bin/sh
# afs-root.sh: run by guest-init.sh for the afs group, in place of node.sh.
# OpenAFS's fileserver takes only /vicep* right under / as partitions and
# its programs write /etc/openafs, but the guest's / is the host's,
# read-only: so node.sh runs in a chroot whose root is tmpfs, with /usr
# bound from the host, a copy of /etc, /vicepa (tmpfs, node 1) and /afs,
# and the repository and the run directory bound at their own paths.
# Environment as node.sh's: W N D HERE.
. "$W/run.env"
NR=/run/afsroot
TOP=$(cd "$HERE/../../.." && pwd)
mkdir -p $NR && mount -t tmpfs -o size=300m tmpfs $NR || exit 125
(cd $NR && mkdir -p usr etc proc sys dev tmp run var/lib var/log var/tmp var/cache vicepa root afs &&
    ln -s usr/bin bin && ln -s usr/sbin sbin && ln -s usr/lib lib && ln -s usr/lib64 lib64) || exit 125
mount --bind /usr $NR/usr || exit 125
cp -a /etc/. $NR/etc/ 2>"$D/afs-root.err"
mount --rbind /dev $NR/dev
mount -t proc proc $NR/proc
mount -t sysfs sysfs $NR/sys
# /tmp's submounts too: the run directory is mounted read-write there
mount --rbind /tmp $NR/tmp
mount -t tmpfs -o mode=1777,size=64m tmpfs $NR/run
mkdir -p $NR/run/tmp && chmod 1777 $NR/run/tmp $NR/var/tmp
[ "$N" = 1 ] && { mount -t tmpfs -o size=1g tmpfs $NR/vicepa || exit 125; }
for p in "$TOP" "$W" "$(dirname "$CLYDE")"; do
	case $p in /usr/* | /tmp/*) continue ;; esac
	mountpoint -q "$NR$p" && continue
	mkdir -p "$NR$p" && mount --rbind "$p" "$NR$p" || exit 125
done
chroot $NR /bin/sh "$HERE/node.sh"
rc=$?
umount -R $NR 2>/dev/null
exit $rc
