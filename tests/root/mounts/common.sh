# common.sh: what the scripts in tests/root/mounts share.  Sourced, not run.
#
# Each script brings one test filesystem up or takes it down, as root,
# on a machine without systemd.  STATE names a directory that the caller
# owns: "up" records there everything it made or started (mount point,
# image, loop device, process IDs), and "down" undoes exactly that, by
# the recorded PIDs, never by process name.  Every address is on
# loopback.
set -u
: "${STATE:?set STATE to the state directory}"
mkdir -p "$STATE"

say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { say "$*"; exit 1; }

# record NAME KEY=VALUE...: add to what "down" of NAME has to undo
record() {
	f=$STATE/$1.env
	shift
	for kv; do printf '%s\n' "$kv" >>"$f"; done
}

# recall NAME: read what "up" of NAME recorded
recall() { [ ! -f "$STATE/$1.env" ] || . "$STATE/$1.env"; }

# wait_for TRIES CMD...: CMD every 0.1 s until it succeeds, TRIES times at most
wait_for() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

gone() { ! kill -0 "$1" 2>/dev/null; }

# stop_pid PID: SIGTERM a process we started, SIGKILL after 10 s
stop_pid() {
	[ -n "${1:-}" ] || return 0
	gone "$1" && return 0
	kill "$1" 2>/dev/null
	wait_for 100 gone "$1" && return 0
	say "pid $1 ignored SIGTERM; SIGKILL"
	kill -9 "$1" 2>/dev/null
	wait_for 50 gone "$1"
}

# mounted MNT: from the mount table, which also knows a FUSE mount whose
# daemon is gone (stat, and so mountpoint(1), fails there)
mounted() { awk -v m="$1" '$5 == m { found = 1 } END { exit !found }' /proc/self/mountinfo; }

# unmount MNT: retried while a FUSE daemon lags, lazily as a last resort
unmount() {
	mounted "$1" || return 0
	wait_for 20 umount "$1" && return 0
	say "umount $1 keeps failing; lazy umount"
	umount -l "$1"
}

# make_loop NAME FSTYPE SIZE MNT: a sparse image in STATE on a loop
# device, with a new filesystem, mounted on MNT
make_loop() {
	img=$STATE/$1.img
	truncate -s "$3" "$img" || return 1
	dev=$(losetup -f --show "$img") || return 1
	# recorded before anything else can fail, so that "down" frees it
	record "$1" "DEV=$dev" "IMG=$img" "MNT=$4"
	case $2 in
	ext4) mkfs.ext4 -q -F "$dev" ;;
	xfs) mkfs.xfs -q -f "$dev" ;;
	btrfs) mkfs.btrfs -q -f "$dev" ;;
	esac >/dev/null || return 1
	mkdir -p "$4" && mount -t "$2" "$dev" "$4"
}

# free_loop NAME: unmount, detach and delete what make_loop made
free_loop() {
	DEV= IMG= MNT=
	recall "$1"
	[ -z "$MNT" ] || { unmount "$MNT"; rmdir "$MNT" 2>/dev/null; }
	[ -z "$DEV" ] || losetup -d "$DEV" 2>/dev/null
	[ -z "$IMG" ] || rm -f "$IMG"
	rm -f "$STATE/$1.env"
}
