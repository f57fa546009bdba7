#!/bin/sh
# sshfs.sh up|down|kill MNT EXPORT: EXPORT mounted on MNT with sshfs,
# through a private sshd on 127.0.0.1 with keys made for it.  "kill"
# kills the sshfs process, as when a network mount goes away.  The
# system's own sshd, if any, is never touched.
. "$(dirname "$0")/common.sh"
MNT=${2:?usage: sshfs.sh up|down|kill MNT EXPORT}
EXPORT=${3:?usage: sshfs.sh up|down|kill MNT EXPORT}
D=$STATE/sshd

# a port that nothing listens on, on 127.0.0.1
free_port() {
	p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 10000))
	while grep -q ":$(printf '%04X' $p) 00000000:0000 0A" /proc/net/tcp; do
		p=$((p + 1))
	done
	echo $p
}

up() {
	[ -x /usr/sbin/sshd ] && command -v sshfs >/dev/null ||
	    die "sshd or sshfs is not installed"
	mounted "$MNT" && die "$MNT is already a mount point"
	record sshfs "MNT=$MNT"
	mkdir -p "$D" && chmod 700 "$D"
	ssh-keygen -q -t ed25519 -N '' -f "$D/host_key" -C clyde-test-host &&
	    ssh-keygen -q -t ed25519 -N '' -f "$D/client_key" -C clyde-test ||
	    die "ssh-keygen failed"
	cp "$D/client_key.pub" "$D/authorized_keys"
	port=$(free_port)
	cat >"$D/sshd_config" <<END
Port $port
ListenAddress 127.0.0.1
HostKey $D/host_key
PidFile $D/sshd.pid
AuthorizedKeysFile $D/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
LogLevel ERROR
END
	# the privilege separation directory, made by init scripts elsewhere
	mkdir -p /run/sshd
	/usr/sbin/sshd -f "$D/sshd_config" -E "$D/sshd.log" || die "sshd failed"
	wait_for 50 test -s "$D/sshd.pid" || die "sshd wrote no PID file"
	record sshfs "SSHD_PID=$(cat "$D/sshd.pid")"
	mkdir -p "$EXPORT" "$MNT"
	# in the foreground, in the background: its PID is the one to stop
	sshfs -f -p "$port" \
	    -o IdentityFile="$D/client_key",IdentitiesOnly=yes,BatchMode=yes \
	    -o StrictHostKeyChecking=no,UserKnownHostsFile=/dev/null,LogLevel=ERROR \
	    "root@127.0.0.1:$EXPORT" "$MNT" </dev/null >"$D/sshfs.log" 2>&1 &
	record sshfs "SSHFS_PID=$!"
	wait_for 100 mountpoint -q "$MNT" || die "sshfs did not mount"
}

down() {
	SSHD_PID= SSHFS_PID=
	recall sshfs
	unmount "$MNT"
	rmdir "$MNT" 2>/dev/null
	stop_pid "$SSHFS_PID"
	stop_pid "$SSHD_PID"
	rm -rf "$D" "$STATE/sshfs.env"
}

case $1 in
up) up ;;
down) down ;;
kill)
	SSHFS_PID=
	recall sshfs
	[ -n "$SSHFS_PID" ] && kill -9 "$SSHFS_PID"
	;;
*) die "usage: sshfs.sh up|down|kill MNT EXPORT" ;;
esac
