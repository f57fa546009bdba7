#!/bin/sh
# qemu-kernel.sh: puts the kernel of the QEMU guest of tests/root/nfs/guest.sh
# in a cache outside the tree, $CLYDE_NFS_CACHE (default
# /var/tmp/clyde-nfs), as root; .ci/run runs it.  Nothing is installed:
# the package that linux-image-amd64 depends on (Debian's generic kernel:
# the cloud one has no 9p) is fetched with apt-get download and unpacked
# into a temporary directory.  The cache then holds, in a directory named
# after the kernel's release (and in "current", that name):
#   vmlinux       the kernel as an ELF file, which QEMU boots through its
#                 PVH entry: with TCG, twice as fast as the compressed
#                 bzImage, which the guest would decompress itself
#   modules.cpio.gz  an initramfs without its /init: busybox and the
#                 modules for virtio, 9p, ext4 and NFS, and those of the
#                 cluster guests of tests/root/clusterfs/guests.sh (GFS2,
#                 DLM, OCFS2, FUSE, virtio's network), with what they
#                 depend on, without their signatures (checking them
#                 doubles the time of loading them under TCG; the kernel
#                 does not insist on them)
#   mods          MODS, as they were when the archive was made
# A second run with the same kernel package and the same MODS does nothing.
# Needs: apt-get (and its package lists), dpkg-deb, busybox-static (its
# depmod and cpio: the host may have no kmod), xz, strip (binutils),
# gzip.
set -u
CACHE=${CLYDE_NFS_CACHE:-/var/tmp/clyde-nfs}
BUSYBOX=/bin/busybox
# what the initramfs may load (tests/root/nfs/initramfs-init.sh)
MODS="virtio_pci virtio_blk 9pnet_virtio 9p crc32c_generic crc32c_intel ext4
nfsd nfs nfsv3 nfsv4 virtio_net configfs dlm gfs2 ocfs2_stack_o2cb ocfs2
ocfs2_dlmfs fuse"

say() { printf 'qemu-kernel.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (apt-get download, the cache)"
[ -x $BUSYBOX ] && $BUSYBOX depmod --help >/dev/null 2>&1 ||
    die "no $BUSYBOX with depmod (busybox-static)"
for p in apt-get dpkg-deb xz strip gzip; do
	command -v $p >/dev/null || die "no $p"
done
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
    awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (apt-get update?)"
rel=${pkg#linux-image-}
if [ -f "$CACHE/$rel/vmlinux" ] && [ -f "$CACHE/$rel/modules.cpio.gz" ] &&
    [ "$(cat "$CACHE/$rel/mods" 2>/dev/null)" = "$(echo $MODS)" ]; then
	echo "$rel" >"$CACHE/current"
	exit 0
fi

mkdir -p "$CACHE" || exit 1
tmp=$(mktemp -d "$CACHE/.new.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# apt-get download drops its privileges to _apt, who must be able to write
chown _apt "$tmp" 2>/dev/null
(cd "$tmp" && apt-get download -q "$pkg") >"$tmp/apt.log" 2>&1 ||
    { cat "$tmp/apt.log" >&2; die "apt-get download $pkg failed"; }
mkdir "$tmp/x" && dpkg-deb -x "$tmp"/*.deb "$tmp/x" || die "dpkg-deb -x failed"
img=$tmp/x/boot/vmlinuz-$rel
tree=$tmp/x/lib/modules/$rel
[ -f "$img" ] && [ -d "$tree" ] || die "no vmlinuz-$rel or modules in $pkg"
# the package has no modules.dep: its postinst runs depmod
$BUSYBOX depmod -b "$tmp/x" "$rel" || die "depmod failed"

# vmlinux: the xz stream in the bzImage, as the kernel's
# scripts/extract-vmlinux finds it, by its magic number
LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$img" | cut -d: -f1 | while read -r at; do
	tail -c +$((at + 1)) "$img" | xz -dcq --single-stream >"$tmp/vmlinux" 2>/dev/null
	[ "$(head -c 4 "$tmp/vmlinux" | od -An -c | tr -d ' ')" = 177ELF ] && break
done
[ "$(head -c 4 "$tmp/vmlinux" | od -An -c | tr -d ' ')" = 177ELF ] ||
    die "no xz-compressed ELF kernel in $img"

# the modules of MODS and what they depend on, by modules.dep
files=$(awk -v want="$MODS" '
	function name(p) {
		sub(/:$/, "", p); sub(/.*\//, "", p); sub(/\.ko.*$/, "", p)
		gsub(/-/, "_", p)
		return p
	}
	function add(m,   d, i, k) {
		if (m in taken || !(m in path))
			return
		taken[m] = 1
		k = split(deps[m], d, " ")
		for (i = 1; i <= k; i++)
			add(d[i])
	}
	{
		m = name($1); p = $1; sub(/:$/, "", p); path[m] = p
		for (i = 2; i <= NF; i++)
			deps[m] = deps[m] " " name($i)
	}
	END {
		k = split(want, w, /[ \n]+/)
		for (i = 1; i <= k; i++) {
			if (!(w[i] in path))
				print "missing " w[i]
			add(w[i])
		}
		for (m in taken)
			print path[m]
	}' "$tree/modules.dep")
case $files in *missing*) die "not in $pkg: $(echo "$files" | sed -n 's/^missing //p')" ;; esac

rd=$tmp/rd
mkdir -p "$rd/bin" "$rd/proc" "$rd/sys" "$rd/dev" "$rd/newroot" "$rd/lib/modules/$rel"
cp $BUSYBOX "$rd/bin/busybox" || exit 1
for a in sh mount umount modprobe chroot sleep poweroff; do
	ln -s busybox "$rd/bin/$a"
done
for f in $files; do
	mkdir -p "$rd/lib/modules/$rel/${f%/*}"
	case $f in
	*.ko.xz) xz -dc "$tree/$f" >"$rd/lib/modules/$rel/${f%.xz}" ;;
	*) cp "$tree/$f" "$rd/lib/modules/$rel/$f" ;;
	esac || die "cannot copy $f"
done
# strip rewrites each module without the signature appended to it
find "$rd/lib/modules" -name '*.ko' -exec strip --strip-debug {} + &&
    cp "$tree/modules.builtin" "$tree/modules.order" "$rd/lib/modules/$rel/" &&
    $BUSYBOX depmod -b "$rd" "$rel" || die "cannot prepare the modules"
(cd "$rd" && find . | $BUSYBOX cpio -o -H newc 2>/dev/null | gzip -1) \
    >"$tmp/modules.cpio.gz" || die "cpio failed"

echo $MODS >"$tmp/mods" &&
    rm -rf "${CACHE:?}/$rel" && mkdir "$CACHE/$rel" &&
    mv "$tmp/vmlinux" "$tmp/modules.cpio.gz" "$tmp/mods" "$CACHE/$rel/" &&
    echo "$rel" >"$CACHE/current" || die "cannot fill $CACHE/$rel"
say "$pkg in $CACHE/$rel"
