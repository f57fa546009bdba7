#!/bin/sh
# make check-clusterfs: clyde on cluster filesystems shared by two nodes,
# as root.  This host's kernel need not know them: each group boots two
# guests (tests/root/clusterfs/guests.sh) that share one disk image and a
# network in a namespace made for them, which goes with them.  The guest
# is the first that boots here of User-mode Linux, the same with its
# xstate shim, QEMU with KVM and QEMU with TCG (guests.sh probe; the first
# TAP line says which and why); CLYDE_CLUSTERFS_GUEST=GUEST chooses one.
# The groups:
#   gfs2   GFS2 with lock_dlm (corosync and dlm_controld in each node)
#   ocfs2  OCFS2 with the o2cb stack (the kernel's DLM and heartbeat)
# and in each, one after another (tests/root/clusterfs/node.sh):
#   p103, p200  clyde --compat=1.03, then 2.00, on both nodes at once in
#               the filesystem's root: exit 0, the CSV line of the
#               profile, nothing left once both have ended
#   dirs        clyde --dirs on node 1: exit 0, nothing left
#   cross       a file written on node 1 read back on node 2 (md5)
#   fault       node 2, which reads node 1's directories meanwhile, is cut
#               off and powered off during node 1's sequential create:
#               node 1's clyde ends, within its bound, with exit 0 or 3
#               and then one line naming the phase and the filesystem's
#               error; once the cluster has recovered nothing of clyde's
#               is left
#   afs    (150 to 270 s; CLYDE_CLUSTERFS_AFS=0 leaves it out):
#          an OpenAFS cell on node 1, OpenAFS's FUSE client afsd.fuse on
#          both; in one pair of guests, with -s 16 -n 1:
#   p103, p200  as above: exit 0, the CSV line, nothing left in the volume
#   links       -n 1:-1 (hard links) on node 1 and -n 1:-2 (symbolic
#               links) on node 2 at once; xdir: -n 1:-1:0:2 on node 1.
#               AFS links within one directory only, and afsd.fuse
#               reads a symbolic link with /afs/ before its text: exit 3,
#               one line naming the phase and the error, nothing left
#               (symbolic links: or exit 0 and the CSV line)
#   dirs        as above
#   then bonnie++ 2.00a on both nodes at once, for the record
#   CLYDE_CLUSTERFS_GROUPS (default "gfs2 ocfs2 afs") chooses groups.
# Then, per filesystem, a pair of guests of their own runs clyde-mpi
# --shift=1 with a rank on each node (mpirun on node 1, over ssh to an
# sshd on node 2), so that each rank reads what the other node wrote:
# exit 0, the JSON names both hosts and read_from, nothing left (skipped,
# saying why, without Open MPI, ssh or sshd); then bonnie++ 2.00a on both
# nodes at once, for the record.  A node whose kernel either leaves
# wedged (GFS2's log flush, seen in UML 6.1.176) is killed by guests.sh
# and named with its kernel's stack, and skips a clyde-mpi that it
# stopped; the last test is that those guests go and leave nothing.
# The runs are small (-s 64 -n 4 -r 0 -f, as nobody): what is tested is
# the sharing, not the speed; their rates are diagnostics.
# Skipped, in one line that says what was tried, where no guest boots:
# not root, no user-mode-linux, or the packages gfs2-utils corosync
# dlm-controld ocfs2-tools missing, or for afs openafs-fileserver
# openafs-dbserver openafs-client openafs-fuse (a group whose programs
# are missing is skipped alone).  Nothing is left on the host: the image and the
# guests' files are in $WORK, every mount is inside a guest, and
# guests.sh kills what is left in the namespace and says so.
# Usage: make check-clusterfs, or prove -v tests/root/clusterfs.sh after
# make clyde build/tests/xstate_shim.so.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ssh.sh"
# the guests see the work directory by the host's path
case ${TMPDIR:-/tmp} in
/dev/shm | /dev/shm/* | /run/* | /var/tmp/* | /var/lib/* | /mnt/*)
	skip "TMPDIR=$TMPDIR is hidden in the guests; set TMPDIR elsewhere (/tmp)" all
	;;
esac

U=$(pwd)/tests/root/clusterfs/guests.sh
case $CLYDE in /*) ;; *) CLYDE=$(pwd)/$CLYDE ;; esac
BONNIE=/usr/sbin/bonnie++
PHASE='(sequential create|sequential stat|sequential delete|random create|random stat|random delete)'
# bounds, not expectations: of a run, of a guest.  A hang is what they
# catch, so they stand well above the slowest machine seen: machines of one
# kind differ, and where one ran the OCFS2 pair in 134 s, another took
# 196 s, its clyde-mpi run 120 s
T=300 TMO=600
COUNT=6

if [ "$(id -u)" != 0 ]; then
	skip "check-clusterfs needs root (guests sharing a disk)" all
fi
if ! probe=$("$U" probe); then
	skip "no cluster guest boots here: $probe" all
fi
GUEST=${probe%% *}
echo "# guest: ${probe#* }"
# TCG emulates the CPU: OCFS2's profiles took 220 s a run there, 15 s on
# UML, and its group 550 s
[ "$GUEST" = qemu-tcg ] && T=600 TMO=1800
# clyde-mpi for the mpi case, where Open MPI and ssh are here
MPI= MPI_WHY=
for p in mpirun mpicc ssh ssh-keygen /usr/sbin/sshd; do
	command -v $p >/dev/null || MPI_WHY="${MPI_WHY:+$MPI_WHY, }no $p"
done
if [ -z "$MPI_WHY" ]; then
	if make -s mpi >"$WORK/make-mpi.log" 2>&1; then
		MPI=$(pwd)/clyde-mpi
	else
		MPI_WHY="make mpi failed: $(tail -1 "$WORK/make-mpi.log")"
	fi
fi
[ -x "$BONNIE" ] || echo "no $BONNIE: no runs of bonnie++ for the record" | diag

clock() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }'; }

gpid=
trap '[ -n "$gpid" ] && kill -TERM $gpid 2>/dev/null; wait; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

v() { cat "$R/node$1/$2" 2>/dev/null || echo "${3:-none}"; }
rc_of() { v "$1" "$2.rc"; }
left_n() { k=$(grep -c . "$R/node$1/$2.left" 2>/dev/null); echo "${k:-0}"; }
empty() { [ -f "$R/node$1/$2.left" ] && [ ! -s "$R/node$1/$2.left" ]; }
csv() { tail -1 "$R/node$1/$2.out" 2>/dev/null; }

# why NODE NAME: what a run said, when its test failed
why() {
	{
		echo "node $1, $2: exit status $(rc_of "$1" "$2") in $(v "$1" "$2.secs" ?) s"
		grep -v '^$' "$R/node$1/$2.err" 2>/dev/null | grep '^clyde:\|rror'
		[ -s "$R/node$1/$2.hung" ] && { echo "waiting:"; cat "$R/node$1/$2.hung"; }
		[ -s "$R/node$1/$2.left" ] && { echo "left:"; head -10 "$R/node$1/$2.left"; }
	} | diag
}

# rate NODE NAME PHASE...: the rates of a run's phases, and the longest
# operation of each, from its JSON record
rates() {
	n=$1 c=$2
	shift 2
	# a phase that did not run is null in the record, and a null is
	# not a hash to look into
	pl 'my $r = load(shift);
	    print join(", ", map { my $t = $r->{tests}{$_} || {}; my $p = $r->{phases}{$_} || {};
		my $l = $p->{latency_ns};
		sprintf("%s %s/s (longest %.1f ms)", $_, defined $t->{rate} ? sprintf("%.0f", $t->{rate}) : "-",
		    ($l && $l->{max} ? $l->{max} / 1e6 : 0)) } @ARGV), "\n"' \
	    "$R/node$n/$c.json" "$@" 2>&1
}

# the guests' log lines of a node, for a failure
logs() {
	{
		[ -s "$R/node$1/wedged.txt" ] && { head -1 "$R/node$1/wedged.txt"; grep '^  at ' "$R/node$1/wedged.txt"; }
		echo "node $1's log, last lines:"
		tail -8 "$R/node$1/guest.log"
		for f in setup.err node.log; do
			[ -s "$R/node$1/$f" ] && tail -5 "$R/node$1/$f"
		done
	} 2>/dev/null | diag
}

# the keys of the mpi case: node 1's ssh logs in as root to an sshd on
# node 2 (node.sh mpi)
ssh_up() {
	ssh_keys "$R/ssh" clyde-clusterfs 10 &&
	    sshd_config "$R/ssh" 10.0.0.2 >"$R/ssh/sshd_config"
}

# boot FS NAME CASES SECS [ARGS [MEM]]: the two guests of FS run CASES
# (node.sh) in $WORK/NAME, SECS at most, their runs with ARGS; guests.sh's
# status in $grc
boot() {
	R=$WORK/$2
	mkdir "$R"
	# what node.sh reads
	echo "CLYDE=$CLYDE BONNIE=$BONNIE MPI=$MPI ARGS='${5:--s 64 -n 4 -r 0 -f}' T=$T FAULT_N=4 LINKS_N=1 CASES='$3'" \
	    >"$R/run.env"
	case " $3 " in *" mpi "*) [ -n "$MPI" ] && ssh_up ;; esac
	t0=$(clock)
	"$U" run -g "$GUEST" -f "$1" -t "$4" -m "${6:-512M}" -w "$R" >"$WORK/$2.log" 2>&1 &
	gpid=$!
	wait $gpid
	grc=$?
	gpid=
	echo "$2: both guests $(since "$t0") s (mkfs, boot, stack, mounts, cases, power off); node 1 mounted at $(v 1 mounted.at ?) s, node 2 at $(v 2 mounted.at ?) s of uptime" | diag
}

# what a failed group wrote is kept, for the record
keep() {
	if [ $tap_failed != "$f0" ]; then
		k=${TMPDIR:-/tmp}/clyde-clusterfs-$1.$$
		cp -a "$R" "$k" && echo "$1: its run directory is kept in $k" | diag
	fi
	rm -rf "$R"
}

# profiles FS WHERE: the cases of both profiles run on both nodes at once
# (node.sh profiles), and each node's rates for the record
profiles() {
	for p in 1.03 2.00; do
		c=p$(echo $p | tr -d .)
		f=27
		[ $p = 2.00 ] && f=50
		[ "$(rc_of 1 $c)" = 0 ] && [ "$(rc_of 2 $c)" = 0 ] &&
		    [ "$(nfields "$(csv 1 $c)")" = $f ] && [ "$(nfields "$(csv 2 $c)")" = $f ] &&
		    empty 1 $c && empty 2 $c
		ok $? "$1: --compat=$p on both nodes at once: exit 0, $f fields each, nothing left$2" ||
		    { why 1 $c; why 2 $c; }
		for n in 1 2; do
			[ "$(rc_of $n $c)" != 0 ] ||
			    echo "$1 node $n, --compat=$p: $(rates $n $c seq_create seq_del ran_create) in $(v $n $c.secs ?) s" | diag
		done
	done
}

group() { # group FS
	fs=$1 f0=$tap_failed
	if r=$("$U" check "$GUEST" "$fs"); then :; else
		skip "$fs: $r" $COUNT
		return
	fi
	boot "$fs" "$fs" "profiles dirs cross fault" $TMO
	[ $grc = 0 ] && [ "$(v 1 umount.txt)" = ok ] && grep -q ': none$' "$R/netns.txt" 2>/dev/null
	ok $? "$fs: stack up and mounted on both nodes, every case in step, node 1 unmounted after the fault, both guests off, nothing left in their namespace" ||
	    { echo "guests.sh exit status $grc"; cat "$WORK/$fs.log" "$R/netns.txt"; } 2>/dev/null | diag
	[ $grc = 0 ] || { logs 1; logs 2; }

	profiles "$fs" ""

	[ "$(rc_of 1 dirs)" = 0 ] && [ "$(nfields "$(csv 1 dirs)")" = 50 ] && empty 1 dirs
	ok $? "$fs: --dirs on node 1: exit 0, 50 fields, nothing left" || why 1 dirs
	echo "$fs node 1, --dirs=1:2:8: $(rates 1 dirs dir_create dir_stat dir_del)" | diag

	read -r got want _ <"$R/node2/cross.txt" 2>/dev/null
	[ -n "${want:-}" ] && [ "${got:-}" = "$want" ]
	ok $? "$fs: a file written on node 1 read back on node 2: md5 equal" ||
	    { echo "md5 on node 2: ${got:-none}, on node 1: ${want:-none}"; cat "$R/node2/cross.err"; } 2>/dev/null | diag
	got= want=

	# the fault: node 1's run ends by itself, within its bound
	frc=$(rc_of 1 fault)
	case $frc in
	0) msg=ok ;;
	3) [ "$(grep -Ec "^clyde: $PHASE: .*: [A-Z][^:]*\$" "$R/node1/fault.err")" = 1 ] && msg=ok ;;
	*) msg= ;;
	esac
	[ "$msg" = ok ] && empty 1 fault
	ok $? "$fs: node 2 powered off during node 1's sequential create: node 1's clyde exit 0 or 3 (one line, the phase and the error), nothing left once recovered" ||
	    { why 1 fault; logs 1; }
	echo "$fs fault: node 2 off at $(cat "$R/shared/fault.at" 2>/dev/null || echo ?) s of uptime, node 1's create under way since $(cut -d' ' -f1 "$R/node1/fault.go" 2>/dev/null || echo ?); node 1's clyde exit $frc in $(v 1 fault.secs ?) s: $(rates 1 fault seq_create seq_stat seq_del ran_create ran_stat ran_del)" | diag
	grep "^clyde: " "$R/node1/fault.err" 2>/dev/null | diag
	# how node 1's kernel took node 2's going, from its first file on
	awk -v t="$(cut -d' ' -f1 "$R/node1/fault.go" 2>/dev/null)" '
	    { s = $0; sub(/^\[ */, "", s); sub(/\].*/, "", s) }
	    t != "" && s + 0 >= t + 0 && /jid=1: (Journal replayed|Done)|recover jid 1|evicted node 2|Recovery Master|End recovery|removed from|leaves domain/' \
	    "$R/node1/fault.dmesg" 2>/dev/null | head -5 | diag
	keep "$fs"
}

# clyde-mpi, a rank on each node, and then bonnie++ 2.00a on both nodes
# at once, in guests of their own: GFS2's log flush has been seen to
# wedge UML 6.1.176's kernel under either, and a wedged node stops no
# case of the group's.  A wedge skips the mpi case, naming the kernel's
# stack; what bonnie++ did is for the record.  The last test is that
# the guests go and leave nothing
pair_group() { # pair_group FS
	fs=$1 f0=$tap_failed
	cases=
	[ -n "$MPI" ] && cases=mpi
	[ -x "$BONNIE" ] && cases="$cases bonnie"
	[ -n "$cases" ] || { skip "$fs: no clyde-mpi ($MPI_WHY) and no bonnie++" 2; return 0; }
	if r=$("$U" check "$GUEST" "$fs"); then :; else
		skip "$fs: $r" 2
		return
	fi
	boot "$fs" "$fs-pair" "$cases" 200
	wedged=
	for n in 1 2; do
		[ -s "$R/node$n/wedged.txt" ] && wedged="$wedged $n"
	done
	if [ -z "$MPI" ]; then
		skip "$fs: clyde-mpi across the nodes: $MPI_WHY" 1
	elif [ -n "$wedged" ] && [ "$(rc_of 1 mpi)" != 0 ]; then
		w=${wedged# }
		w=${w%% *}
		skip "$fs: clyde-mpi across the nodes: the kernel of node $w wedged ($(grep -m1 '^  at ' "$R/node$w/wedged.txt" 2>/dev/null | sed 's/^  at //'))" 1
	else
		# clyde-mpi, a rank on each node, --shift=1: one CSV line of two
		# ranks, the JSON names both hosts and that each rank read the
		# other's files, nothing left
		line=$(csv 1 mpi)
		[ "$(rc_of 1 mpi)" = 0 ] && [ "$(nfields "$line")" = 50 ] &&
		    [ "$(field "$line" 4)" = 2 ] && empty 1 mpi &&
		    pl 'my $r = load(shift);
			die "shift\n" unless $r->{options}{shift} == 1;
			my @k = @{$r->{ranks}};
			die "ranks\n" unless @k == 2;
			die "read_from\n" if grep { $_->{read_from} != ($_->{rank} + 1) % 2 } @k;
			die "hosts\n" unless join(" ", sort map { $_->{host} } @k) eq "node1 node2";' \
		    "$R/node1/mpi.json"
		ok $? "$fs: clyde-mpi --shift=1, a rank on each node: exit 0, one line of 2 ranks, the JSON names node1 and node2 and read_from the other rank, nothing left" ||
		    { why 1 mpi; sed -n 1,5p "$R/node1/mpi.err" 2>/dev/null | diag; tail -3 "$R/node2/sshd.log" 2>/dev/null | diag; }
		echo "$fs clyde-mpi --shift=1: $(rates 1 mpi seq_create seq_stat ran_stat) in $(v 1 mpi.secs ?) s" | diag
	fi
	for n in 1 2; do
		[ -x "$BONNIE" ] || break
		if [ -s "$R/node$n/wedged.txt" ]; then
			{
				echo "bonnie++ 2.00a on $fs node $n (both at once): the node's kernel wedged $(v $n bonnie.secs ?) s in (no sign of life for 45 s; killed); its stack:"
				grep '^  at ' "$R/node$n/wedged.txt"
				echo "node $n's last lines:"
				tail -n 3 "$R/node$n/guest.log"
			} | diag
		else
			echo "bonnie++ 2.00a on $fs node $n (both at once): exit $(rc_of $n bonnie) in $(v $n bonnie.secs ?) s, $(left_n $n bonnie) entries left$(
			    grep -m1 -i 'error\|cannot\|can.t' "$R/node$n/bonnie.err" 2>/dev/null | sed 's/^/; /')" | diag
		fi
	done
	grep -q ': none$' "$R/netns.txt" 2>/dev/null
	ok $? "$fs, the pair of guests of clyde-mpi and bonnie++: both off (or killed, wedged), nothing left in their namespace" ||
	    cat "$WORK/$fs-pair.log" "$R/netns.txt" 2>/dev/null | diag
	keep "$fs-pair"
}

# afs: the cell on node 1, afsd.fuse on both, one pair of guests for
# clyde's cases and bonnie++'s (both small: CI's time is short)
AFS_COUNT=6
afs_group() {
	fs=afs f0=$tap_failed
	if r=$("$U" check "$GUEST" afs); then :; else
		skip "afs: $r" $AFS_COUNT
		return
	fi
	# a run took 70 s on UML, and clyde may then wait up to 60 s for the
	# volume in its cleanup: twice a run's bound; the group's cases (bonnie++
	# last) took 150 to 290 s: twice a group's bound
	ot=$T
	T=$((T * 2))
	boot afs afs "split links xdir bonnie" $((TMO * 2)) '-s 16 -n 1 -r 0 -f' 768M
	T=$ot
	[ $grc = 0 ] && [ "$(v 1 umount.txt)" = ok ] && [ "$(v 2 umount.txt)" = ok ] &&
	    grep -q ': none$' "$R/netns.txt" 2>/dev/null
	ok $? "afs: cell up on node 1, afsd.fuse mounted and writable on both nodes, every case in step, both unmounted, both guests off, nothing left in their namespace" ||
	    { echo "guests.sh exit status $grc"; cat "$WORK/afs.log" "$R/netns.txt"; } 2>/dev/null | diag
	[ $grc = 0 ] || { logs 1; logs 2; }
	echo "afs: $(grep -h 'cell up' "$R/node1/guest.log" 2>/dev/null | sed 's/^\[[^]]*\] //')" | diag

	# a profile a node, at once (node.sh split)
	[ "$(rc_of 1 p103)" = 0 ] && [ "$(rc_of 2 p200)" = 0 ] &&
	    [ "$(nfields "$(csv 1 p103)")" = 27 ] && [ "$(nfields "$(csv 2 p200)")" = 50 ] &&
	    empty 1 split
	ok $? "afs: --compat=1.03 on node 1 and --compat=2.00 on node 2 at once: exit 0, 27 and 50 fields, nothing left in the volume" ||
	    { why 1 p103; why 2 p200; why 1 split; }
	for l in "1 1.03 p103" "2 2.00 p200"; do
		set -- $l
		[ "$(rc_of $1 $3)" != 0 ] ||
		    echo "afs node $1, --compat=$2: $(rates $1 $3 seq_create seq_del ran_create) in $(v $1 $3.secs ?) s" | diag
	done

	# hard links: each directory's names link to its first file, in that
	# directory, and AFS links within one directory only: they work, with
	# subdirectories too.  Symbolic links: afsd.fuse's readlink puts its
	# mount point before a link's text (a bare NAME reads as /afs/NAME), so
	# the stat phases may find nothing: exit 0 and the CSV line, or exit 3
	# and one line.  Either way nothing is left; the listing of links is
	# node 1's, once both nodes have ended
	for l in "1 hard 1:-1 links hard links" "2 sym 1:-2 links symbolic" \
	    "1 xdir 1:-1:0:2 xdir hard links in two subdirectories"; do
		set -- $l
		n=$1 c=$2 spec=$3 lst=$4
		shift 4
		r=$(rc_of $n $c)
		case $r in
		0) [ "$(nfields "$(csv $n $c)")" = 50 ] ;;
		3) [ $c = sym ] &&
		       [ "$(grep -c '^clyde: ' "$R/node$n/$c.err" 2>/dev/null)" = 1 ] &&
		       [ "$(grep -Ec "^clyde: $PHASE: .*: [A-Z][^:]*\$" "$R/node$n/$c.err")" = 1 ] ;;
		*) false ;;
		esac && empty 1 $lst
		ok $? "afs: -n $spec ($*) on node $n: exit 0 and 50 fields$([ $c = sym ] && echo ', or exit 3 and one line naming the phase and the error'), nothing left" ||
		    { why $n $c; sed -n 1,3p "$R/node$n/$c.err" 2>/dev/null | diag; }
		echo "afs node $n, -n $spec: exit $r in $(v $n $c.secs ?) s" | diag
		grep '^clyde: ' "$R/node$n/$c.err" 2>/dev/null | diag
	done

	[ "$(rc_of 2 dirs)" = 0 ] && [ "$(nfields "$(csv 2 dirs)")" = 50 ] && empty 1 xdir
	ok $? "afs: --dirs on node 2 (beside node 1's -n 1:-1:0:2): exit 0, 50 fields, nothing left" || why 2 dirs
	echo "afs node 2, --dirs=1:2:8: $(rates 2 dirs dir_create dir_stat dir_del)" | diag

	if [ -x "$BONNIE" ]; then
		for n in 1 2; do
			echo "bonnie++ 2.00a on afs node $n (both at once, -s 16 -n 1 -r 0 -f): exit $(rc_of $n bonnie) in $(v $n bonnie.secs ?) s$(
			    grep -m1 -i 'error\|cannot\|can.t' "$R/node$n/bonnie.err" 2>/dev/null | sed 's/^/; /')" | diag
		done
		echo "bonnie++ on afs: $(left_n 1 bonnie) entries left in the volume once both had ended" | diag
	fi
	[ -s "$R/node1/tidy.err" ] && { echo "afs: what node 1 could not remove after a case:"; head -5 "$R/node1/tidy.err"; } | diag
	keep afs
}

GROUPS=${CLYDE_CLUSTERFS_GROUPS:-gfs2 ocfs2 afs}
on() { case " $GROUPS " in *" $1 "*) return 0 ;; esac; return 1; }
for g in gfs2 ocfs2; do
	if on $g; then group $g; else skip "$g: not in CLYDE_CLUSTERFS_GROUPS" $COUNT; fi
done
if ! on afs; then
	skip "afs: not in CLYDE_CLUSTERFS_GROUPS" $AFS_COUNT
elif [ "${CLYDE_CLUSTERFS_AFS:-1}" != 0 ]; then
	afs_group
else
	skip "afs: left out by CLYDE_CLUSTERFS_AFS=0" $AFS_COUNT
fi
for g in gfs2 ocfs2; do
	if on $g; then pair_group $g; else skip "$g, clyde-mpi and bonnie++: not in CLYDE_CLUSTERFS_GROUPS" 2; fi
done
done_testing
