#!/bin/sh
# hosts.sh: a cluster of hosts on one Linux machine, for make check-cluster
# (tests/root/cluster.sh).  Each host is a network namespace with its own mount
# and UTS namespace (its own /run, /mnt, /etc/hosts, /var/lib/glusterd,
# /var/log/glusterfs and host name); a switch namespace holds the bridge
# that joins them.  Every address is inside these namespaces: the switch
# has none, the root namespace gets no link, no address and no route.
#
#   hosts.sh check          prints what is missing here and exits 1, or 0
#   hosts.sh up             builds it all (tears it down again on failure)
#   hosts.sh down           tears it all down; prints LEFT: ... and exits 1
#                           if anything of it is left
#   hosts.sh exec HOST CMD  runs CMD in HOST's namespaces
#   hosts.sh mpirun ARGS    Open MPI's mpirun, from cli1, over ssh to the
#                           client hosts listed in $ST/hostfile
#   hosts.sh pid HOST NAME  the PIDs of HOST's processes called NAME
#   hosts.sh brick VOL HOST the PID of HOST's brick of volume VOL
#   hosts.sh restart-brick VOL | restart-glusterd HOST
#                           | restart-chunkserver HOST | link HOST up|down
#   hosts.sh leftovers      what of the cluster is still on this machine
#
# Hosts: srv1..srv3 (glusterd and a brick on a loop XFS each; srv1 is also
# the MooseFS master, srv2 and srv3 its chunk servers) and cli1..cli3,
# which mount the replica-3 volume clvol at /mnt/cl, the distributed
# volume cldist at /mnt/cld and MooseFS at /mnt/mfs, and run sshd for
# mpirun.  network.ping-timeout is 5 s; MooseFS clients cache directory
# entries for 4 s.  CL_MFS=0 leaves MooseFS out.
#
# ST (required) is the state directory, made by up and removed by down; it
# holds the saved names, each host's private directories, its logs, the
# brick images, the ssh keys and the hostfile.  The namespaces are named
# after up's PID, so two clusters never meet.  A process belongs to a host
# when it is in the host's mount namespace (recorded at up) or in its
# network namespace: down stops exactly those, by PID, and detaches a loop
# device only while it still shows our image.
set -u
export LC_ALL=C PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
[ "${1:-}" = check ] || : "${ST:?hosts.sh needs ST, the state directory}"
CONF=${ST:-}/config
NET=10.233.0
PING_TIMEOUT=5
SERVERS="srv1 srv2 srv3"
CLIENTS="cli1 cli2 cli3"
HOSTS="$SERVERS $CLIENTS"

die() { echo "hosts.sh: $*" >&2; exit 1; }
. "$(dirname "$0")/../ssh.sh"

load() {
	[ -f "$CONF" ] || die "no cluster in $ST"
	. "$CONF"
}

ns_of() { echo "$P-$1"; }
sw() { echo "$P-sw"; }
ip_of() {
	case $1 in
	srv*) echo "$NET.$((10 + ${1#srv}))" ;;
	cli*) echo "$NET.$((20 + ${1#cli}))" ;;
	esac
}

holder() { cat "$ST/$1/holder.pid" 2>/dev/null; }
# the holder is alive and still owns the recorded mount namespace
holder_ok() {
	local pid
	pid=$(holder "$1") && [ -n "$pid" ] &&
	    [ "$(readlink "/proc/$pid/ns/mnt" 2>/dev/null)" = "$(cat "$ST/$1/mntns" 2>/dev/null)" ]
}
hx() { # hx HOST CMD...: CMD in HOST's mount, UTS and network namespaces
	hx_h=$1
	shift
	holder_ok "$hx_h" || die "host $hx_h is not running"
	nsenter -t "$(holder "$hx_h")" -m -u -n -- "$@"
}

# every PID of HOST: in its mount namespace or in its network namespace
host_pids() {
	local m
	{
		m=$(cat "$ST/$1/mntns" 2>/dev/null)
		[ -n "$m" ] && find /proc/[0-9]*/ns/mnt -maxdepth 0 -printf '%h %l\n' 2>/dev/null |
		    awk -v m="$m" '$2 == m { split($1, a, "/"); print a[3] }'
		[ -e "/run/netns/$(ns_of "$1")" ] && ip netns pids "$(ns_of "$1")" 2>/dev/null
	} | sort -un
}

# alive PID: not gone and not a zombie (PID 1 may reap daemons late)
alive() {
	local st
	st=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ]
}

# stop HOST SECS PIDS...: SIGTERM, SECS to end, then SIGKILL to those of
# them still in HOST (a PID may have been reused meanwhile)
stop() {
	local s_h=$1 s_t=$2 i=0 left p now
	shift 2
	[ $# -gt 0 ] || return 0
	kill -TERM "$@" 2>/dev/null
	while [ $i -lt $((s_t * 5)) ]; do
		left=
		for p; do alive "$p" && left="$left $p"; done
		[ -z "$left" ] && return 0
		sleep 0.2
		i=$((i + 1))
	done
	now=" $(host_pids "$s_h" | tr '\n' ' ') "
	for p in $left; do
		case $now in *" $p "*) kill -KILL "$p" 2>/dev/null ;; esac
	done
	sleep 0.3
}

within() { # within SECS CMD...: CMD every 0.5 s until it succeeds, or false
	local w_t=$1 w_i=0
	shift
	while [ $w_i -lt $((w_t * 2)) ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
		w_i=$((w_i + 1))
	done
	return 1
}
wait_for() { # wait_for SECS WHAT CMD...: within SECS CMD, or die naming WHAT
	local w_s=$1 w_d=$2
	shift 2
	within "$w_s" "$@" || die "no $w_d after $w_s s"
}

G() { hx srv1 timeout 60 gluster --mode=script "$@"; }

do_check() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	miss=
	for c in ip nsenter unshare losetup mkfs.xfs glusterd gluster \
	    mount.glusterfs /usr/sbin/sshd ssh ssh-keygen mpirun timeout python3; do
		command -v "$c" >/dev/null 2>&1 || miss="$miss $c"
	done
	if [ "${CL_MFS:-1}" = 1 ]; then
		for c in mfsmaster mfschunkserver mfsmount; do
			command -v "$c" >/dev/null 2>&1 || miss="$miss $c"
		done
	fi
	[ -z "$miss" ] || { echo "missing:$miss"; return 1; }
	# network namespaces permitted here?
	t=clyde-probe-$$
	ip netns add "$t" 2>/dev/null || { echo "cannot make a network namespace (ip netns add)"; return 1; }
	ip netns del "$t"
	return 0
}

# --- up ------------------------------------------------------------------

net_up() {
	s=$(sw)
	ip netns add "$s" || die "ip netns add $s failed"
	ip netns exec "$s" sh -c '
		echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6
		echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
		ip link add br0 type bridge && ip link set br0 up' ||
	    die "no bridge in $s"
	for h in $HOSTS; do
		n=$(ns_of "$h")
		ip netns add "$n" || die "ip netns add $n failed"
		# both ends made inside namespaces: nothing appears here
		ip -n "$s" link add "$h" type veth peer name eth0 netns "$n" ||
		    die "no veth for $h"
		ip -n "$s" link set "$h" master br0 up || die "$h not on the bridge"
		ip netns exec "$n" sh -c "
			echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6
			echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
			ip link set lo up && ip addr add $(ip_of "$h")/24 dev eth0 &&
			ip link set eth0 up" || die "no address for $h"
	done
}

# a process that owns HOST's mount and UTS namespace; ip netns exec gives
# it the host's own /sys, unshare a mount namespace that lasts as long as
# it or a daemon started in it
start_holder() {
	d=$ST/$1
	mkdir -p "$d"
	setsid ip netns exec "$(ns_of "$1")" unshare --mount --uts \
	    --propagation private -- sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec sleep infinity' \
	    "$d/holder.pid" </dev/null >/dev/null 2>&1 &
	i=0
	while [ $i -lt 50 ]; do
		p=$(cat "$d/holder.pid" 2>/dev/null)
		[ -n "$p" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(cat "/proc/${p:-0}/comm" 2>/dev/null)" = sleep ] || die "the holder of $1 did not start"
	readlink "/proc/$p/ns/mnt" >"$d/mntns"
	[ "$(cat "$d/mntns")" != "$(readlink /proc/self/ns/mnt)" ] ||
	    die "the holder of $1 has no mount namespace of its own"
}

host_mounts() {
	d=$ST/$1
	mkdir -p "$d/run" "$d/glusterd" "$d/log"
	[ -d /var/lib/glusterd/groups ] && cp -a /var/lib/glusterd/groups "$d/glusterd/"
	hx "$1" sh -e -c "
		hostname $1
		mount -t tmpfs -o size=16m,mode=755 clyde-$1 /mnt
		mkdir -p /mnt/cl /mnt/cld /mnt/mfs /mnt/brick
		mount --bind '$d/run' /run
		mkdir -p /run/gluster /run/sshd /run/lock
		mount --bind '$d/glusterd' /var/lib/glusterd
		mount --bind '$d/log' /var/log/glusterfs
		mount --bind '$ST/etc-hosts' /etc/hosts" || die "no private mounts in $1"
}

# XFS needs 300 MB at least; the image is sparse
brick_fs() {
	d=$ST/$1
	truncate -s 512M "$d/brick.img"
	dev=$(losetup --find --show "$d/brick.img") || die "losetup for $1 failed"
	echo "$dev" >"$d/loopdev"
	mkfs.xfs -q -K -i size=512 "$dev" >/dev/null || die "mkfs.xfs on $dev failed"
	hx "$1" mount -t xfs -o noatime "$dev" /mnt/brick || die "cannot mount the brick of $1"
}

peers_ok() {
	[ "$(hx "$1" gluster --mode=script peer status 2>/dev/null |
	    grep -c 'Peer in Cluster (Connected)')" -eq 2 ]
}
bricks_online() {
	[ "$(G volume status "$1" detail 2>/dev/null | grep -c '^Online.*: Y')" -eq 3 ]
}
# every client's mount of VOL connected to all three bricks, as its
# GlusterFS client says in the mount's .meta directory
clients_connected() { # clients_connected VOL
	local c_mp=/mnt/cl c
	[ "$1" = cldist ] && c_mp=/mnt/cld
	for c in $CLIENTS; do
		[ "$(hx "$c" sh -c "cat $c_mp/.meta/graphs/active/$1-client-*/private" 2>/dev/null |
		    grep -c '^connected = 1$')" -eq 3 ] || return 1
	done
}
gluster_up() {
	for s in $SERVERS; do
		hx "$s" glusterd -p /run/glusterd.pid </dev/null >>"$ST/$s/start.log" 2>&1 ||
		    die "glusterd on $s failed"
	done
	for s in $SERVERS; do wait_for 30 "glusterd on $s" hx "$s" gluster --mode=script pool list; done
	for s in srv2 srv3; do
		G peer probe "$(ip_of "$s")" >>"$ST/srv1/start.log" 2>&1 || die "peer probe $s failed"
	done
	# volume create fails while a peer is not in the cluster yet
	for s in $SERVERS; do wait_for 60 "peers of $s" peers_ok "$s"; done
	for v in clvol cldist; do
		b=
		for s in $SERVERS; do b="$b $(ip_of "$s"):/mnt/brick/$v"; done
		if [ $v = clvol ]; then
			G volume create $v replica 3 $b
		else
			G volume create $v $b
		fi >>"$ST/srv1/start.log" 2>&1 || die "volume create $v failed (see $ST/srv1/start.log)"
		G volume set $v network.ping-timeout $PING_TIMEOUT >>"$ST/srv1/start.log" 2>&1 ||
		    die "volume set $v failed"
		G volume start $v >>"$ST/srv1/start.log" 2>&1 || die "volume start $v failed"
		wait_for 60 "bricks of $v online" bricks_online $v
		mp=/mnt/cl
		[ $v = cldist ] && mp=/mnt/cld
		for c in $CLIENTS; do
			hx "$c" mount -t glusterfs \
			    -o "backup-volfile-servers=$(ip_of srv2):$(ip_of srv3)" \
			    "$(ip_of srv1):/$v" $mp </dev/null >>"$ST/$c/start.log" 2>&1 ||
			    die "cannot mount $v on $c"
		done
	done
}

# MooseFS logs to syslog only: the start's stderr is kept in mfs-start.log
chunkserver_start() {
	hx "$1" mfschunkserver -c "$ST/$1/mfs/mfschunkserver.cfg" start </dev/null \
	    >>"$ST/$1/mfs-start.log" 2>&1
}

mfs_up() {
	m=$ST/srv1/mfs
	mkdir -p "$m/data"
	cp /var/lib/mfs/metadata.mfs.empty "$m/data/metadata.mfs" || die "no empty MooseFS metadata"
	echo "$NET.0/24 / rw,alldirs,maproot=0" >"$m/mfsexports.cfg"
	: >"$m/mfstopology.cfg"
	cat >"$m/mfsmaster.cfg" <<-EOF
	WORKING_USER = mfs
	WORKING_GROUP = mfs
	DATA_PATH = $m/data
	EXPORTS_FILENAME = $m/mfsexports.cfg
	TOPOLOGY_FILENAME = $m/mfstopology.cfg
	EOF
	chown -R mfs:mfs "$m/data"
	hx srv1 mfsmaster -c "$m/mfsmaster.cfg" start </dev/null >>"$ST/srv1/mfs-start.log" 2>&1 ||
	    die "mfsmaster failed (see $ST/srv1/mfs-start.log)"
	for s in srv2 srv3; do
		d=$ST/$s/mfs
		mkdir -p "$d/data" "$d/chunks"
		echo "$d/chunks" >"$d/mfshdd.cfg"
		# the master by its address: MooseFS refuses loopback for it
		cat >"$d/mfschunkserver.cfg" <<-EOF
		WORKING_USER = mfs
		WORKING_GROUP = mfs
		DATA_PATH = $d/data
		HDD_CONF_FILENAME = $d/mfshdd.cfg
		MASTER_HOST = $(ip_of srv1)
		EOF
		chown -R mfs:mfs "$d/data" "$d/chunks"
		chunkserver_start $s || die "mfschunkserver on $s failed (see $ST/$s/mfs-start.log)"
	done
	# A client caches directory entries for 4 s (1 s by default): longer
	# than a clyde-mpi --shift run takes from a rank's looking up the other
	# rank's files directory to its looking up the one made again in its
	# place, so that the second lookup meets the stale entry on every run,
	# and not only when the phases between are fast (clyde looks again
	# for 5 s before it calls it another directory).
	for c in $CLIENTS; do
		hx "$c" mfsmount /mnt/mfs -H "$(ip_of srv1)" \
		    -o mfsdirentrycacheto=4 </dev/null >>"$ST/$c/mfs-start.log" 2>&1 ||
		    die "mfsmount on $c failed (see $ST/$c/mfs-start.log)"
	done
}

# sshd on each client host, key-only root login with keys of the cluster
ssh_up() {
	ssh_keys "$ST/ssh" clyde-cluster 5 || die "ssh-keygen in $ST/ssh failed"
	: >"$ST/hostfile"
	for h in $CLIENTS; do
		sshd_config "$ST/ssh" "$(ip_of "$h")" >"$ST/$h/sshd_config"
		hx "$h" /usr/sbin/sshd -f "$ST/$h/sshd_config" -E "$ST/$h/sshd.log" \
		    </dev/null >>"$ST/$h/start.log" 2>&1 || die "sshd on $h failed"
		echo "$(ip_of "$h") slots=1" >>"$ST/hostfile"
	done
}

do_up() {
	[ ! -e "$CONF" ] || die "$ST already holds a cluster"
	mkdir -p "$ST"
	P=clyde$$
	echo "P=$P" >"$CONF"
	trap 'rc=$?; trap - EXIT; if [ $rc != 0 ]; then echo "hosts.sh: up failed, tearing down" >&2; do_down >&2; fi; exit $rc' EXIT
	trap 'exit 1' INT TERM
	{
		echo "127.0.0.1 localhost"
		for h in $HOSTS; do
			if [ $h = srv1 ]; then echo "$(ip_of $h) $h mfsmaster"; else echo "$(ip_of $h) $h"; fi
		done
	} >"$ST/etc-hosts"
	net_up
	for h in $HOSTS; do
		start_holder "$h"
		host_mounts "$h"
	done
	for s in $SERVERS; do brick_fs "$s"; done
	gluster_up
	[ "${CL_MFS:-1}" = 1 ] && mfs_up
	ssh_up
	# one file, written on one client and read on the others
	mps="/mnt/cl /mnt/cld"
	[ "${CL_MFS:-1}" = 1 ] && mps="$mps /mnt/mfs"
	for mp in $mps; do
		echo "from cli1" | hx cli1 sh -c "cat >$mp/.selftest" || die "cannot write to $mp"
		for c in cli2 cli3; do
			[ "$(hx $c cat $mp/.selftest)" = "from cli1" ] || die "$c does not read $mp"
		done
		hx cli1 rm -f $mp/.selftest
	done
	trap - EXIT INT TERM
}

# --- down ----------------------------------------------------------------

# what of the cluster is still here, one LEFT: line each
do_leftovers() {
	for n in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		case $n in "$P"-*) echo "LEFT: network namespace $n" ;; esac
	done
	for h in $HOSTS; do
		p=$(host_pids "$h" | tr '\n' ' ')
		[ -n "$p" ] && echo "LEFT: processes of $h: $p"
	done
	losetup -a 2>/dev/null | grep -F "($ST/" | sed 's/^/LEFT: loop device /'
	return 0
}

do_down() {
	[ -f "$CONF" ] || return 0
	. "$CONF"
	# client mounts first, so no writer waits on a server being stopped
	for c in $CLIENTS; do
		holder_ok "$c" || continue
		for mp in /mnt/cl /mnt/cld /mnt/mfs; do
			hx "$c" mountpoint -q $mp 2>/dev/null || continue
			hx "$c" timeout 20 umount $mp 2>/dev/null ||
			    hx "$c" timeout 20 umount -l $mp 2>/dev/null
		done
	done
	for h in $CLIENTS $SERVERS; do
		[ -d "$ST/$h" ] || continue
		stop "$h" 10 $(host_pids "$h" | grep -vx "$(holder "$h" || echo none)")
	done
	for h in $HOSTS; do
		holder_ok "$h" || continue
		[ -f "$ST/$h/loopdev" ] && hx "$h" timeout 20 umount /mnt/brick 2>/dev/null
		stop "$h" 5 "$(holder "$h")"
	done
	# a loop device is detached only while it still shows our image
	for dev in $(losetup -a 2>/dev/null | grep -F "($ST/" | cut -d: -f1); do
		i=0
		while [ $i -lt 10 ] && losetup "$dev" 2>/dev/null | grep -qF "($ST/"; do
			losetup -d "$dev" 2>/dev/null
			sleep 0.5
			i=$((i + 1))
		done
	done
	for h in $HOSTS sw; do
		n=$P-$h
		[ -e "/run/netns/$n" ] || continue
		[ $h = sw ] || stop "$h" 5 $(ip netns pids "$n" 2>/dev/null)
		ip netns del "$n"
	done
	left=$(do_leftovers)
	if [ -n "$left" ]; then
		echo "$left"
		echo "state kept in $ST"
		return 1
	fi
	rm -rf --one-file-system "$ST"
}

# --- faults and repairs ----------------------------------------------------

brick_pid() { # brick_pid VOL HOST
	G volume status "$1" "$(ip_of "$2"):/mnt/brick/$1" 2>/dev/null |
	    awk '$1 == "Brick" { print $NF }' | grep -x '[0-9][0-9]*'
}

pids_named() { # pids_named HOST NAME
	for p in $(host_pids "$1"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ] && alive "$p" && echo "$p"
	done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
check) do_check ;;
up) do_up ;;
down) do_down ;;
leftovers) load; do_leftovers ;;
exec)
	load
	h=${1:?usage: hosts.sh exec HOST CMD...}
	shift
	holder_ok "$h" || die "host $h is not running"
	# exec: the caller's PID becomes CMD's, for its signals and wait
	exec nsenter -t "$(holder "$h")" -m -u -n -- "$@"
	;;
mpirun)
	load
	# from inside cli1, which is then a local host of the hostfile
	holder_ok cli1 || die "host cli1 is not running"
	exec nsenter -t "$(holder cli1)" -m -u -n -- mpirun --allow-run-as-root --hostfile "$ST/hostfile" \
	    --mca plm_rsh_agent "ssh -F $ST/ssh/ssh_config" \
	    --mca plm_rsh_no_tree_spawn 1 \
	    --mca oob_tcp_if_include "$NET.0/24" \
	    --mca btl_tcp_if_include "$NET.0/24" "$@"
	;;
pid) load; pids_named "$1" "$2" ;;
brick) load; brick_pid "$1" "$2" ;;
restart-brick)
	load
	# A brick killed a moment ago may still be in glusterd's eyes ("discovered
	# already-running brick"), and start then does nothing: it is asked again.
	i=0
	until G volume start "$1" force >/dev/null 2>&1 && within 10 bricks_online "$1"; do
		i=$((i + 1))
		[ $i -lt 6 ] || die "no bricks of $1 online after 6 starts"
	done
	# back means back for the clients too: each reconnects on its own clock
	wait_for 30 "clients of $1 connected to its bricks" clients_connected "$1"
	;;
restart-glusterd)
	load
	stop "$1" 10 $(pids_named "$1" glusterd)
	hx "$1" glusterd -p /run/glusterd.pid </dev/null >>"$ST/$1/start.log" 2>&1 &&
	    wait_for 30 "glusterd on $1" hx "$1" gluster --mode=script pool list
	;;
restart-chunkserver) load; chunkserver_start "$1" ;;
link)
	load
	ip -n "$(sw)" link set "$1" "$2"
	;;
*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
esac
