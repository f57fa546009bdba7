#!/bin/sh
# glusterfs.sh up|down MNT: a one-brick GlusterFS volume over loopback,
# mounted with the FUSE client.
#
# glusterd is started by hand with a copy of glusterd.vol bound to
# 127.0.0.1 (the brick process inherits it), and stopped by its PID; one
# that already runs is used and left running.  GlusterFS refuses
# localhost and 127.0.0.1 as the brick host: the host name is used, which
# must resolve to 127.x (else an /etc/hosts alias is added while up).  A
# brick on the root filesystem or one that is itself a mount point needs
# "force": it is a subdirectory of a loop XFS.  --mode=script: no prompts.
. "$(dirname "$0")/common.sh"
MNT=${2:?usage: glusterfs.sh up|down MNT}
ALIAS=clyde-gluster-node
G() { timeout 60 gluster --mode=script "$@"; }
alive() { G pool list; }

# the PID of the FUSE client serving MNT, from /proc
client_pid() {
	for d in /proc/[0-9]*; do
		tr '\0' ' ' <"$d/cmdline" 2>/dev/null | grep -q "glusterfs.* $MNT *\$" &&
		    echo "${d#/proc/}" && return
	done
}

brick_host() {
	h=$(hostname)
	if getent ahostsv4 "$h" | awk '{ print $1; exit }' | grep -q '^127\.'; then
		echo "$h"
		return
	fi
	getent ahostsv4 "$ALIAS" | grep -q '^127\.' || {
		echo "127.0.0.1 $ALIAS # clyde check-mounts" >>/etc/hosts
		record gluster "ADDED_ALIAS=1"
	}
	echo "$ALIAS"
}

up() {
	command -v glusterd >/dev/null || die "glusterd is not installed"
	mounted "$MNT" && die "$MNT is already a mount point"
	vol=clyde$$
	record gluster "MNT=$MNT" "VOL=$vol"
	if ! alive >/dev/null 2>&1; then
		sed 's/^end-volume/    option transport.socket.bind-address 127.0.0.1\nend-volume/' \
		    /etc/glusterfs/glusterd.vol >"$STATE/glusterd.vol"
		glusterd -f "$STATE/glusterd.vol" -p "$STATE/glusterd.pid" ||
		    die "glusterd did not start"
		wait_for 50 test -s "$STATE/glusterd.pid"
		record gluster "GLUSTERD_PID=$(cat "$STATE/glusterd.pid")"
		wait_for 300 alive || die "glusterd does not answer"
	fi
	host=$(brick_host)
	make_loop gluster-brick xfs 320M "$STATE/brick" || die "no brick filesystem"
	mkdir "$STATE/brick/b"
	G volume create "$vol" "$host:$STATE/brick/b" >&2 || die "volume create failed"
	record gluster "CREATED=1"
	G volume start "$vol" >&2 || die "volume start failed"
	mkdir -p "$MNT"
	mount -t glusterfs "127.0.0.1:/$vol" "$MNT" || die "mount failed"
	record gluster "CLIENT_PID=$(client_pid)"
	wait_for 100 ls "$MNT" || die "the mount does not answer"
}

down() {
	MNT= VOL= GLUSTERD_PID= CLIENT_PID= CREATED= ADDED_ALIAS=
	recall gluster
	if [ -n "$MNT" ]; then
		unmount "$MNT"
		rmdir "$MNT" 2>/dev/null
	fi
	# the client ends by itself after the unmount
	[ -z "$CLIENT_PID" ] || wait_for 50 gone "$CLIENT_PID" ||
	    stop_pid "$CLIENT_PID"
	if [ -n "$CREATED" ]; then
		# stop the volume before glusterd, or the brick process stays
		G volume stop "$VOL" force >&2
		G volume delete "$VOL" >&2
	fi
	for f in /var/run/gluster/vols/"$VOL"/*.pid; do
		[ -f "$f" ] && stop_pid "$(cat "$f")"
	done
	if [ -n "$GLUSTERD_PID" ]; then
		# let the hook scripts that glusterd runs after a delete finish
		wait_for 150 sh -c "[ -z \"\$(ps -o pid= --ppid $GLUSTERD_PID)\" ]"
		stop_pid "$GLUSTERD_PID"
		rm -f "$STATE/glusterd.vol" "$STATE/glusterd.pid"
	fi
	free_loop gluster-brick
	[ -z "$ADDED_ALIAS" ] || sed -i "/ $ALIAS # clyde check-mounts\$/d" /etc/hosts
	rm -rf "$STATE/brick" "$STATE/gluster.env"
}

case $1 in
up) up ;;
down) down ;;
*) die "usage: glusterfs.sh up|down MNT" ;;
esac
