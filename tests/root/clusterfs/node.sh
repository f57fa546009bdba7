# node.sh: what each guest of guests.sh does, run by guest-init.sh: the
# cluster stack up, the shared disk mounted, the cases of
# tests/root/clusterfs.sh one after another, in step with the other node,
# then down.  Environment: W (the run directory), N (this node), D =
# W/node<N>; W/guest.env gives FS, W/run.env CLYDE, BONNIE and MPI
# (clyde-mpi; either empty: none), ARGS (the sizes of the runs), T (a
# run's bound in seconds), FAULT_N (-n of the run that node 2's going
# interrupts) and CASES, the cases to
# run (default: all, in order; fault last, as node 2 does not survive it),
# and LINKS_N, -n of the afs group's runs of links.  For afs it runs in
# afs-root.sh's chroot, and /afs is the FUSE client's mount.
# Each case NAME records, in D: NAME.cmd, .out, .err, .rc (124: still
# running after its bound, with NAME.hung saying where it waits), .secs,
# .json and NAME.left (what is on the filesystem once every node's run
# of the case has ended, lost+found aside).
# Barriers between the nodes are files in W/shared: hostfs keeps no
# negative dentries, so a file that the other guest made is seen at once.
. "$W/guest.env"
. "$W/run.env"
S=$W/shared
MNT=/mnt/$FS
[ "$FS" = afs ] && MNT=/afs
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

up() { cut -d' ' -f1 /proc/uptime; }
log() { echo "[$(up)] $*" >>"$D/guest.log"; }
since() { awk -v a="$1" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }'; }
# now: whole seconds of uptime, in $t (no fork: forks are slow here)
now() { read -r t _ </proc/uptime; t=${t%.*}; }
running() {
	[ -n "$1" ] && { read -r _ _ s _ <"/proc/$1/stat"; } 2>/dev/null && [ "$s" != Z ]
}
# abort WHY: the other node's barriers stop waiting; this one cleans up
abort() { echo "$*" >>"$D/setup.err"; : >"$S/abort.$N"; log "ABORT: $*"; ok=0; }
# barrier NAME [SECS]: every live node got here (0), or a node aborted
# or SECS passed (1)
barrier() {
	: >"$S/$1.$N"
	now
	end=$((t + ${2:-120}))
	while :; do
		all=1
		for n in $NODES_UP; do [ -e "$S/$1.$n" ] || all=0; done
		[ $all = 1 ] && return 0
		for a in "$S"/abort.*; do
			[ -e "$a" ] && { log "barrier $1: a node aborted"; return 1; }
		done
		now
		[ "$t" -lt "$end" ] || { log "barrier $1: timed out"; return 1; }
		sleep 0.2
	done
}
NODES_UP="1 2"

# bounded NAME SECS CMD...: CMD in the background, its output in
# D/NAME.out and .err; waits SECS at most.  An uninterruptible wait
# cannot be killed, so it is not waited for: NAME.rc is 124 and
# NAME.hung tells where it waits.  Its variables start with b, as its
# callers loop over c and p
bounded() {
	bn=$1 bs=$2
	shift 2
	echo "$*" >"$D/$bn.cmd"
	bt=$(up)
	("$@" >"$D/$bn.out" 2>"$D/$bn.err" </dev/null
	    r=$?; [ -e "$D/$bn.late" ] || echo $r >"$D/$bn.rc") &
	bp=$!
	now
	bend=$((t + bs))
	while running $bp; do
		now
		[ "$t" -lt "$bend" ] || break
		sleep 0.2
	done
	since "$bt" >"$D/$bn.secs"
	if running $bp; then
		# what waits, and where: the guest's processes in state D
		for bq in /proc/[0-9]*; do
			read -r _ bc st _ <"$bq/stat" 2>/dev/null || continue
			[ "$st" = D ] && echo "${bq#/proc/} $bc state D wchan $(cat "$bq/wchan" 2>/dev/null)"
		done >"$D/$bn.hung"
		log "$bn: still running after $bs s: $(tr '\n' ';' <"$D/$bn.hung")"
		# what can be killed is; the shell that waits for it is told
		# not to write its status over the 124
		for bc in $(pgrep -P $bp); do
			pkill -KILL -P "$bc"
			kill -KILL "$bc"
		done 2>/dev/null
		echo 124 >"$D/$bn.rc"
		: >"$D/$bn.late"
		return 124
	fi
	wait $bp
	log "$bn: exit $(cat "$D/$bn.rc") in $(cat "$D/$bn.secs") s"
	return "$(cat "$D/$bn.rc")"
}

# listing NAME: what is on the filesystem, lost+found aside
listing() {
	bounded "$1.ls" 60 find "$MNT" -mindepth 1 ! -path "$MNT/lost+found" \
	    ! -path "$MNT/lost+found/*"
	cp "$D/$1.ls.out" "$D/$1.left" 2>/dev/null
}

# tidy: on afs, node 1 removes what a case left (its listing has named
# it), so that the next case starts clean; what it cannot remove is in
# D/tidy.err
tidy() {
	[ "$FS" = afs ] && [ "$N" = 1 ] || return 0
	find "$MNT" -mindepth 1 -maxdepth 1 -exec rm -rf {} + 2>>"$D/tidy.err"
	return 0
}

clyde_run() { # clyde_run NAME PROFILE [ARGS...]
	cn=$1 cp=$2
	shift 2
	bounded "$cn" "$T" "$CLYDE" -d "$MNT" -u nobody -q -m "node$N" \
	    --compat="$cp" --json="$D/$cn.json" "$@"
}

# ---- the cluster stack -------------------------------------------------

gfs2_up() {
	# /etc is the host's, read-only.  corosync wants one key a line; its
	# cluster_name is the lock table's (mkfs.gfs2 -t clydegfs:gfs0);
	# two_node keeps the survivor quorate when the other node goes
	mount -t tmpfs -o size=1m tmpfs /etc/corosync
	cat >/etc/corosync/corosync.conf <<-EOF
	totem {
		version: 2
		cluster_name: clydegfs
		transport: knet
		crypto_cipher: none
		crypto_hash: none
		token: 5000
	}
	nodelist {
		node {
			ring0_addr: 10.0.0.1
			name: node1
			nodeid: 1
		}
		node {
			ring0_addr: 10.0.0.2
			name: node2
			nodeid: 2
		}
	}
	quorum {
		provider: corosync_votequorum
		two_node: 1
	}
	logging {
		to_stderr: yes
		to_syslog: no
		to_logfile: no
		timestamp: on
	}
	EOF
	mkdir -p /var/lib/corosync /var/log/corosync /var/log/cluster /run/dlm_controld \
	    /var/log/dlm_controld /etc/dlm 2>/dev/null
	barrier booted 120 || return 1
	corosync -f >"$D/corosync.log" 2>&1 &
	CPID=$!
	now
	end=$((t + 90))
	until corosync-quorumtool -s 2>/dev/null | grep -q 'Quorate: *Yes'; do
		now
		[ "$t" -lt "$end" ] || { abort "corosync: no quorum after 90 s"; return 1; }
		sleep 0.5
	done
	log "corosync quorate"
	# no udev: devtmpfs names the DLM's devices /dev/dlm-control and so
	# on; dlm_controld opens /dev/misc/NAME
	mkdir -p /dev/misc
	for m in dlm-control dlm-monitor dlm_plock; do
		minor=$(awk -v n=$m '$2 == n { print $1 }' /proc/misc)
		[ -n "$minor" ] && mknod "/dev/misc/$m" c 10 "$minor"
	done
	dlm_controld --foreground 1 --enable_fencing 0 --enable_startup_fencing 0 -r tcp \
	    >"$D/dlm_controld.log" 2>&1 &
	DPID=$!
	now
	end=$((t + 60))
	until dlm_tool status 2>&1 | grep -q 'quorate 1'; do
		now
		[ "$t" -lt "$end" ] || { abort "dlm_controld: not quorate after 60 s"; return 1; }
		sleep 0.5
	done
	log "dlm_controld ready"
}

ocfs2_up() {
	# the o2cb stack: the DLM and the heartbeat in the kernel, no
	# daemon; a node's name is its hostname; stanza lines tab-indented
	mount -t tmpfs -o size=1m tmpfs /etc/ocfs2
	{
		printf 'cluster:\n\tnode_count = 2\n\theartbeat_mode = local\n\tname = clydeo2\n'
		for n in 1 2; do
			printf '\nnode:\n\tip_port = 7777\n\tip_address = 10.0.0.%s\n' $n
			printf '\tnumber = %s\n\tname = node%s\n\tcluster = clydeo2\n' $n $n
		done
	} >/etc/ocfs2/cluster.conf
	o2cb register-cluster clydeo2 >"$D/o2cb.log" 2>&1 ||
	    { abort "o2cb register-cluster: $(tail -1 "$D/o2cb.log")"; return 1; }
	# a node that is gone is declared dead after (dead_threshold - 1)
	# heartbeats of 2 s and idle_timeout_ms of silence on the link: 12
	# and 10 s, not the 60 and 30 s of o2cb's defaults.  Every node must
	# have the same, before its first mount
	c=/sys/kernel/config/cluster/clydeo2
	echo 10000 >$c/idle_timeout_ms && echo 2000 >$c/keepalive_delay_ms &&
	    echo 2000 >$c/reconnect_delay_ms && echo 7 >$c/heartbeat/dead_threshold ||
	    { abort "o2cb timeouts in $c"; return 1; }
	barrier booted 120
}

# OpenAFS: node 1 serves the cell clyde.test (bosserver -noauth; ptserver,
# vlserver, fileserver with /vicepa on tmpfs; no keys), both nodes run
# the FUSE client afsd.fuse with /afs the volume clyde.vol itself
# (-rootvol: fs mkmount is a pioctl, which afsd.fuse does not serve)
CELL=clyde.test SRV=10.0.0.1
afs_up() {
	# ptserver wants this host's name to resolve to a non-loopback
	# address, else it exits and bosserver restarts it for ever
	{ echo "10.0.0.$N node$N"; grep -v "node$N" /etc/hosts; } >/etc/hosts.new &&
	    mv /etc/hosts.new /etc/hosts
	c=/etc/openafs
	mkdir -p $c/server /var/lib/openafs/db /var/lib/openafs/local /var/log/openafs \
	    /var/cache/openafs
	chmod 700 /var/lib/openafs/db /var/lib/openafs/local
	echo $CELL >$c/ThisCell
	printf '>%s #clyde test cell\n%s #node1\n' $CELL $SRV >$c/CellServDB
	cp $c/ThisCell $c/CellServDB $c/server/
	echo "/afs:/var/cache/openafs:131072" >$c/cacheinfo
	rm -f $c/BosConfig
	barrier booted 120 || return 1
	[ "$N" = 1 ] || { barrier cell 180; return; }
	t0=$(up)
	bosserver -noauth -nofork >"$D/bosserver.out" 2>&1 &
	BPID=$!
	sleep 2
	bos create $SRV ptserver simple /usr/lib/openafs/ptserver -noauth >>"$D/bos.log" 2>&1 &&
	    bos create $SRV vlserver simple /usr/lib/openafs/vlserver -noauth >>"$D/bos.log" 2>&1 ||
	    { abort "bos create: $(tail -1 "$D/bos.log")"; return 1; }
	# the clients have no token: the fileserver sees anonymous, which
	# pts will not put in a group.  It also grants the rights of a host
	# entry, named by the client's address: members of
	# system:administrators, both clients get the rlidwka that a new
	# volume's root gives that group.  pts says "no quorum elected" for
	# a few seconds after the ptserver starts: retry
	now
	end=$((t + 60))
	until pts createuser $SRV -noauth >>"$D/pts.log" 2>&1; do
		now
		[ "$t" -lt "$end" ] || { abort "ptserver: no quorum after 60 s"; return 1; }
		sleep 1
	done
	pts createuser 10.0.0.2 -noauth >>"$D/pts.log" 2>&1
	for n in 1 2; do
		pts adduser 10.0.0.$n system:administrators -noauth >>"$D/pts.log" 2>&1 ||
		    { abort "pts adduser 10.0.0.$n system:administrators: $(tail -1 "$D/pts.log")"; return 1; }
	done
	# the fileserver reads the hosts' groups when it starts: after pts
	bos create $SRV fs fs /usr/lib/openafs/fileserver /usr/lib/openafs/volserver \
	    /usr/lib/openafs/salvager -noauth >>"$D/bos.log" 2>&1 ||
	    { abort "bos create fs: $(tail -1 "$D/bos.log")"; return 1; }
	now
	end=$((t + 60))
	until vos listpart $SRV -noauth 2>/dev/null | grep -q vicepa; do
		now
		[ "$t" -lt "$end" ] || { abort "fileserver: no /vicepa after 60 s"; return 1; }
		sleep 1
	done
	for v in root.afs root.cell clyde.vol; do
		vos create $SRV a $v -maxquota 0 -noauth >>"$D/vos.log" 2>&1 ||
		    { abort "vos create $v: $(tail -1 "$D/vos.log")"; return 1; }
	done
	log "cell up in $(since "$t0") s"
	barrier cell 180
}

# the FUSE client; a directory made and removed shows that this node
# may write
afs_mount() {
	afsd.fuse -memcache -blocks 131072 -rootvol clyde.vol -mountdir "$MNT" -f \
	    >"$D/afsd.log" 2>&1 &
	APID=$!
	now
	end=$((t + 60))
	until grep -q " $MNT fuse" /proc/mounts && timeout 10 stat "$MNT" >/dev/null 2>&1; do
		running $APID || { echo "afsd.fuse exited: $(tail -1 "$D/afsd.log")" >"$D/mount.err"; return 1; }
		now
		[ "$t" -lt "$end" ] || { echo "afsd.fuse: no mount after 60 s" >"$D/mount.err"; return 1; }
		sleep 0.5
	done
	mkdir "$MNT/probe.$N" 2>"$D/mount.err" && rmdir "$MNT/probe.$N" 2>>"$D/mount.err"
}

fs_mount() {
	case $FS in
	afs) afs_mount ;;
	*) bounded mount 120 mount -t "$FS" "$DISK" "$MNT" ;;
	esac
}

stack_down() {
	case $FS in
	gfs2)
		dlm_tool ls >"$D/dlm_tool.ls" 2>&1
		[ -n "${DPID:-}" ] && kill "$DPID" && wait "$DPID"
		[ -n "${CPID:-}" ] && kill "$CPID" && wait "$CPID" ;;
	ocfs2)
		o2cb unregister-cluster clydeo2 >>"$D/o2cb.log" 2>&1 ;;
	afs)
		# afsd.fuse ends with its mount
		now
		end=$((t + 10))
		while running "${APID:-}" && [ "$t" -lt "$end" ]; do sleep 0.2; now; done
		running "${APID:-}" && { log "afsd.fuse still running after umount: killed"; kill "$APID"; }
		[ -n "${APID:-}" ] && wait "$APID"
		if [ -n "${BPID:-}" ]; then
			vos examine clyde.vol -noauth >"$D/vos-examine.txt" 2>&1
			bos shutdown $SRV -wait -noauth >>"$D/bos.log" 2>&1
			kill "$BPID" && wait "$BPID"
			cp /var/log/openafs/*Log* "$D/" 2>/dev/null
		fi ;;
	esac
	log "stack down"
}

# ---- the cases ---------------------------------------------------------

# both profiles, both nodes at once in the root of the filesystem
profiles() {
	for p in 1.03 2.00; do
		c=p$(echo $p | tr -d .)
		clyde_run $c $p $ARGS
		barrier $c-ran "$T" || return 1
		listing $c
		barrier $c-listed || return 1
		tidy
		barrier $c-tidied || return 1
	done
}

# the directory phases' run, on this node
dirs_run() { clyde_run dirs 2.00 -s 0 -n 0 -r 0 --dirs=1:2:8; }

# the directory phases, node 1 alone
dirs() {
	if [ "$N" = 1 ]; then
		dirs_run && listing dirs
		tidy
	fi
	barrier dirs-ran "$T"
}

# a file that node 1 writes and node 2 reads back
cross() {
	if [ "$N" = 1 ]; then
		dd if=/dev/urandom of="$MNT/cross.node1" bs=1M count=16 2>/dev/null &&
		    md5sum <"$MNT/cross.node1" | cut -d' ' -f1 >"$S/cross.md5" && sync
	fi
	barrier cross-written || return 1
	if [ "$N" = 2 ]; then
		got=$(md5sum <"$MNT/cross.node1" 2>"$D/cross.err" | cut -d' ' -f1)
		echo "$got $(cat "$S/cross.md5")" >"$D/cross.txt"
		rm -f "$MNT/cross.node1"
	fi
	barrier cross-read
}

# afs: a profile a node, at once (CI's time is short): node 1
# --compat=1.03, node 2 --compat=2.00; node 1 lists what both left
split() {
	if [ "$N" = 1 ]; then
		clyde_run p103 1.03 $ARGS
	else
		clyde_run p200 2.00 $ARGS
	fi
	barrier split-ran "$T" || return 1
	[ "$N" = 1 ] && { listing split; tidy; }
	barrier split-listed
}

# afs: hard links on node 1 and symbolic links on node 2, at once
links() {
	if [ "$N" = 1 ]; then
		clyde_run hard 2.00 -s 0 -n "${LINKS_N:-1}:-1" -r 0
	else
		clyde_run sym 2.00 -s 0 -n "${LINKS_N:-1}:-2" -r 0
	fi
	barrier links-ran "$T" || return 1
	[ "$N" = 1 ] && { listing links; tidy; }
	barrier links-listed
}

# afs: hard links in two subdirectories to a file in the scratch
# directory on node 1 (AFS links within one directory only), and the
# directory phases on node 2, at once; node 1 lists what both left
xdir() {
	if [ "$N" = 1 ]; then
		clyde_run xdir 2.00 -s 0 -n "${LINKS_N:-1}:-1:0:2" -r 0
	else
		dirs_run
	fi
	barrier xdir-ran "$T" || return 1
	[ "$N" = 1 ] && { listing xdir; tidy; }
	barrier xdir-listed
}

# bonnie++ 2.00a, both nodes at once, for the record
bonnie() {
	[ -n "$BONNIE" ] || return 0
	bounded bonnie "$T" "$BONNIE" -d "$MNT" -u nobody ${BONNIE_Q--q} -m "node$N" $ARGS
	barrier bonnie-ran "$T" || return 1
	listing bonnie
	# what it left, so that the next case starts clean
	[ "$N" = 1 ] && find "$MNT" -mindepth 1 -maxdepth 1 -name 'Bonnie.*' -exec rm -rf {} +
	barrier bonnie-listed
}

# clyde-mpi across the nodes, a rank on each, --shift=1: each rank stats
# the small files and reads the data file that the other node wrote.
# mpirun on node 1 starts node 2's orted over ssh to an sshd that node 2
# runs for the case alone, with the keys that clusterfs.sh made in W/ssh
mpi() {
	[ -n "${MPI:-}" ] || return 0
	if [ "$N" = 2 ]; then
		# root's shell starts orted: not with the host's dotfiles
		mount -t tmpfs -o mode=700,size=1m tmpfs /root
		mkdir -p /run/sshd
		/usr/sbin/sshd -f "$W/ssh/sshd_config" -E "$D/sshd.log" </dev/null \
		    >"$D/sshd.out" 2>&1 || { abort "sshd: $(tail -1 "$D/sshd.out")"; return 1; }
		barrier mpi-sshd || return 1
		barrier mpi-ran "$T"
		kill "$(cat /run/sshd.pid)" 2>/dev/null
		umount /root
		barrier mpi-listed
		return
	fi
	barrier mpi-sshd || return 1
	printf '10.0.0.1 slots=1\n10.0.0.2 slots=1\n' >"$D/hostfile"
	bounded mpi "$T" mpirun --allow-run-as-root --hostfile "$D/hostfile" -np 2 \
	    --mca plm_rsh_agent "ssh -F $W/ssh/ssh_config" --mca plm_rsh_no_tree_spawn 1 \
	    --mca oob_tcp_if_include 10.0.0.0/24 --mca btl_tcp_if_include 10.0.0.0/24 \
	    --mca orte_tmpdir_base /run/tmp \
	    "$MPI" -d "$MNT" -u nobody -q -m nodes --compat=2.00 --shift=1 \
	    --json="$D/mpi.json" $ARGS
	barrier mpi-ran "$T" || return 1
	listing mpi
	barrier mpi-listed
}

# node 2 goes (its link cut, then powered off) during node 1's
# sequential create; node 2 reads node 1's directories meanwhile, so
# that it holds locks that node 1 needs
fault() {
	if [ "$N" = 2 ]; then
		barrier fault-start || return 1
		now
		end=$((t + T))
		until [ -e "$S/fault.go" ]; do
			stat "$MNT"/* >/dev/null 2>&1
			now
			[ "$t" -lt "$end" ] || { abort "fault: node 1's create never began"; return 1; }
			sleep 0.1
		done
		log "fault: node 1 is creating; link down, power off"
		# the results so far, synced; then off at once (no umount)
		echo 0 >"$D/rc"
		dmesg >"$D/dmesg.txt"
		up >"$S/fault.at"
		sync
		ip link set eth0 down
		echo o >/proc/sysrq-trigger
		sleep 60
		return 1
	fi
	barrier fault-start || return 1
	# the first small file of the run (not its made-by record) starts it
	(
		now
		end=$((t + 60))
		while [ "$t" -lt "$end" ]; do
			f=$(find "$MNT" -mindepth 2 -type f ! -name made-by 2>/dev/null | head -1)
			[ -n "$f" ] && { : >"$S/fault.go"; echo "$(up) $f" >"$D/fault.go"; exit 0; }
			sleep 0.1
			now
		done
	) &
	wp=$!
	clyde_run fault 1.03 -s 0 -n "$FAULT_N" -r 0
	kill $wp 2>/dev/null
	wait $wp
	NODES_UP=1
	dmesg >"$D/fault.dmesg"
	# recovered: the cluster knows node 2 is gone, or is back
	case $FS in
	gfs2)
		corosync-quorumtool -s >"$D/fault.quorum" 2>&1
		dlm_tool ls >"$D/fault.dlm" 2>&1 ;;
	esac
	listing fault
}

# ---- main --------------------------------------------------------------

mkdir -p "$MNT"
log "$FS node $N"
ok=1
${FS}_up || ok=0
if [ $ok = 1 ] && barrier pre-mount; then
	# node 1 first, as it checks the journals; node 2 soon after
	[ "$N" = 2 ] && sleep 3
	if fs_mount; then
		grep " $MNT " /proc/mounts >"$D/mount.txt"
		up >"$D/mounted.at"
		[ "$N" = 1 ] && [ "$FS" != afs ] && chmod 1777 "$MNT"
	else
		abort "mount failed: $(cat "$D/mount.err")"
	fi
fi
[ $ok = 1 ] && barrier mounted || ok=0
for c in ${CASES:-profiles dirs cross bonnie fault}; do
	[ $ok = 1 ] || break
	log "case $c"
	$c || { ok=0; log "case $c: did not end in step"; }
done
if grep -q " $MNT " /proc/mounts; then
	bounded umount 60 umount "$MNT" && echo ok >"$D/umount.txt" ||
	    echo "failed: $(cat "$D/umount.err")" >"$D/umount.txt"
fi
barrier umounted 60
stack_down
[ $ok = 1 ] || exit 1
exit 0
