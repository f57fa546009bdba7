#!/bin/sh
# make check-nfs: clyde on real Linux NFS, as root.  This host's kernel
# need not know NFS: each group of cases boots a guest (tests/root/nfs/guest.sh)
# that serves an export with the kernel's nfsd on its own loopback and
# mounts it; the guest runs the cases (tests/root/nfs/cases.sh) one after
# another, and this script checks what they recorded.  The guest is the
# first that boots here of User-mode Linux, the same with its xstate
# shim, QEMU with KVM and QEMU with TCG (guest.sh probe; the first TAP
# line says which and why); CLYDE_NFS_GUEST=GUEST chooses one
# (tests/root/nfs/README).  The cases are the same on every guest.
#   a  a whole run (-s 8 -n 1 -f; -n 2 on tmpfs) on NFSv3 and NFSv4.2,
#      the export on ext4 and on tmpfs: exit 0, the CSV line of the
#      profile (27 or 50 fields), nothing left in the export.  On tmpfs a
#      directory read while its names are unlinked skips names (with
#      2048 files, not 1024), so clyde has to read files/ again: the
#      JSON shows readdir_passes >= 2 for seq_del
#   b  (ext4, v3 and v4.2) another process holds one of the run's files
#      open while the run deletes it, until the run ends: the client
#      keeps it as .nfsXXXX.  No hang, clyde's own files are gone, the
#      .nfs file is named, exit 3; after it is closed, only what clyde
#      named is left
#   c  (v3 soft mount) the export's content is removed on the server
#      mid-run (as when an export is deleted and made again; the run is
#      stopped meanwhile): exit 3, one message, with the phase, the path
#      and ESTALE or EIO, and nothing left
#   d  (v3 soft mount) the server stops (rpc.nfsd 0) for 10 s mid-run:
#      exit 3, EIO named, clyde says it waits, and nothing left
#   f  (v3 on ext4, v4.2 on tmpfs) the directory phases alone (-s 0 -n 0
#      --dirs=2:2:8, --compat=2.00): exit 0, nothing left in the export;
#      the rates of the six phases and their directory reads, diagnostics
#   e  (v3 hard mount, in the guest of v3 on ext4, last as it stops the
#      server) the server stops mid-run: clyde --stall=3 names
#      the stuck operation, its path and how long; SIGINT twice ends it
#      (exit 5) and it names the path to remove
# The runs of b to e have no I/O phases (-s 0 -n 1).  Both profiles
# (--compat=1.03 and 2.00) in every case.  bonnie++ 2.00a
# (/usr/sbin/bonnie++), when installed, runs every case too, for the
# record: its outcome is a diagnostic line, never a test.
# Skipped (not failed), in one line that says what was tried and how it
# failed, where no guest boots: not root, no NFS programs (the packages
# nfs-kernel-server nfs-common rpcbind), neither user-mode-linux nor
# qemu-system-x86 with its kernel (tests/root/nfs/qemu-kernel.sh), or each
# one fails.  Nothing is left on the host: the guests' files are in
# $WORK, their processes end with them, and every mount is inside a
# guest.
# Usage: make check-nfs, or prove -v tests/root/nfs.sh after make clyde
# build/tests/xstate_shim.so; CLYDE=/path/to/clyde prove -v tests/root/nfs.sh
# tests another build.  To run a script of one's own against NFS:
# tests/root/nfs/guest.sh (its header).
. "$(dirname "$0")/../lib.sh"
# the guest sees its work directory by the host's path, and a guest's
# /dev/shm is a tmpfs of its own that hides the host's
case ${TMPDIR:-/tmp} in
/dev/shm | /dev/shm/*)
	skip "TMPDIR=$TMPDIR: a guest cannot see the host's /dev/shm; set TMPDIR elsewhere (/tmp)" all
	;;
esac

U=$(pwd)/tests/root/nfs/guest.sh
CASES=$(pwd)/tests/root/nfs/cases.sh
case $CLYDE in /*) ;; *) CLYDE=$(pwd)/$CLYDE ;; esac
BONNIE=/usr/sbin/bonnie++
ERR='(Stale file handle|Input/output error)'
PHASE='(per-char write|block write|rewrite|per-char read|block read|random seeks|sequential create|sequential stat|sequential delete|random create|random stat|random delete)'

if [ "$(id -u)" != 0 ]; then
	skip "check-nfs needs root (a guest with nfsd)" all
fi
if ! probe=$("$U" probe); then
	skip "no NFS guest boots here: $probe" all
fi
GUEST=${probe%% *}
echo "# guest: ${probe#* }"
# bounds, not expectations: of a run (T) and of a guest.  An emulated
# CPU is 5 to 10 times slower: two guests at once then, where there are
# two CPUs
T=150 TMO=600 LANES=1
if [ "$GUEST" = qemu-tcg ]; then
	T=600 TMO=1800
	[ "$(nproc)" -ge 2 ] && LANES=2
fi
[ -x "$BONNIE" ] || echo "no $BONNIE: no runs of bonnie++ for the record" | diag

clock() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }'; }

# The groups of cases, one guest each, are listed in $WORK/groups, one
# line each: NAME COUNT (its tests) GUEST-OPTIONS...; the cases are in
# $WORK/NAME.cases.  LANES guests run at once: each lane boots the guest
# of the next group that no lane has taken (mkdir takes it), until none
# is left.  Each writes its exit status and wall time in $WORK/NAME.done.
group() { echo "$*" >>"$WORK/groups"; }

run_group() { # run_group NAME GUEST-OPTIONS...
	g=$1
	shift
	{
		echo "CLYDE=$CLYDE T=$T"
		echo ". $CASES"
		cat "$WORK/$g.cases"
	} >"$WORK/$g.sh"
	t0=$(clock)
	"$U" run -g "$GUEST" -w "$WORK/$g" "$@" "$WORK/$g.sh" >"$WORK/$g.log" 2>&1
	echo "$? $(since "$t0")" >"$WORK/$g.tmp" && mv "$WORK/$g.tmp" "$WORK/$g.done"
}

lane() {
	while read -r g count opts; do
		mkdir "$WORK/$g" 2>/dev/null && run_group "$g" $opts </dev/null
	done <"$WORK/groups"
}

lanes=
start_lanes() {
	k=0
	while [ $k -lt $LANES ]; do
		(trap - EXIT; lane) &
		lanes="$lanes $!"
		k=$((k + 1))
	done
}

# ended early: no guest of ours goes on (a lane, stopped, starts none;
# guest.sh, sent TERM, ends its guest)
stop_lanes() {
	for p in $lanes; do
		kill -STOP "$p" && pkill -TERM -P "$p"
		kill -TERM "$p"
		kill -CONT "$p"
	done 2>/dev/null
}
trap 'stop_lanes; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

lanes_run() {
	for p in $lanes; do kill -0 "$p" 2>/dev/null && return 0; done
	return 1
}

# boot NAME: waits for the guest of group NAME; its results are in $R.
# When the guest cannot run, the tests of this group are skipped and
# boot fails.
boot() {
	g=$1 R=$WORK/$1
	set -- $(grep "^$g " "$WORK/groups")
	count=$2
	shift 2
	while [ ! -f "$WORK/$g.done" ] && lanes_run; do sleep 1; done
	brc=none secs=?
	[ -f "$WORK/$g.done" ] && read -r brc secs <"$WORK/$g.done"
	echo "guest $g ($*): $secs s" | diag
	if [ "$brc" = 77 ]; then
		skip "$(tail -1 "$WORK/$g.log")" "$count"
		return 1
	fi
	[ $brc = 0 ]
	ok $? "guest $g: NFS up, the cases ran, powered off" ||
	    { echo "guest.sh exit status $brc"; cat "$WORK/$g.log" "$R/err"; } | diag
	return 0
}

rc_of() { cat "$R/$1.rc" 2>/dev/null || echo none; }
left_n() { grep -c . "$R/$1.${2:-left}"; }

# why NAME: what a run said, when its test failed
why() {
	shown=$1
	{
		echo "exit status $(rc_of "$1")"
		cat "$R/$1.note" "$R/$1.err" 2>/dev/null | grep -v '^$'
		[ -s "$R/$1.left" ] && { echo "left in the export:"; head -20 "$R/$1.left"; }
	} | diag
}

# said NAME: clyde's messages, for the log (not -u root's warning),
# unless why showed them already
said() {
	[ "${shown:-}" = "$1" ] ||
	    grep '^clyde: ' "$R/$1.err" | grep -v 'running as root' | diag
}

# record NAME WHAT: bonnie++'s outcome, a diagnostic and no test
record() {
	[ -f "$R/$1.rc" ] || return 0
	echo "bonnie++ $2: exit $(rc_of "$1"), $(left_n "$1") entries left$(
	    [ -f "$R/$1.left2" ] && echo ", $(left_n "$1" left2) after the holder closed")$(
	    grep -m1 -i 'error\|cannot\|can.t' "$R/$1.err" | sed 's/^/; /')" | diag
	[ -f "$R/$1.note" ] && diag <"$R/$1.note"
	return 0
}

# named NAME LIST: every entry of LIST (in the export) is named, itself
# or a directory above it, in what the run said on stderr
named() {
	while read -r e; do
		e=${e%/}
		up=$e
		until [ -z "$up" ] || grep -qF "$up" "$R/$1.err"; do
			case $up in */*) up=${up%/*} ;; *) up= ;; esac
		done
		[ -n "$up" ] || { echo "not named: $e"; return 1; }
	done <"$R/$1.$2"
}

# the readdir passes of seq_del in a run's JSON, the most on any line
passes() {
	grep '"seq_del"' "$R/$1.json" 2>/dev/null |
	    grep -o '"readdir_passes": *[0-9]*' | grep -o '[0-9]*$' | sort -n | tail -1
}

fields() { case $1 in 2.00) echo 50 ;; *) echo 27 ;; esac; }

# the guest's script for the cases of a list of programs
for_progs() { # for_progs CASE SUFFIX [MORE-ARGS]
	for p in 1.03 2.00 bonnie++; do
		[ $p = bonnie++ ] && [ ! -x "$BONNIE" ] && continue
		echo "case_$1 $1$2-$p $p $3"
	done
}

# --- a and b: whole runs, and a file held open, per version and export ----

check_a() { # check_a LABEL FS
	for p in 1.03 2.00; do
		n=a-$p
		line=$(tail -1 "$R/$n.out" 2>/dev/null)
		[ "$(rc_of $n)" = 0 ] && [ "$(nfields "$line")" = "$(fields $p)" ] &&
		    [ ! -s "$R/$n.left" ]
		ok $? "$1: a whole run, --compat=$p: exit 0, $(fields $p) fields, nothing left in the export" ||
		    why $n
		k=$(passes $n)
		echo "$1, --compat=$p: seq_del read the directory ${k:-?} times" | diag
		if [ "$2" = tmpfs ]; then
			[ "${k:-0}" -ge 2 ]
			ok $? "$1, --compat=$p: files/ read again after names were skipped (readdir_passes ${k:-absent} >= 2 for seq_del)" ||
			    said $n
		fi
	done
	record a-bonnie++ "$1"
}

check_b() { # check_b LABEL
	for p in 1.03 2.00; do
		n=b-$p
		rc=$(rc_of $n)
		held=$(sed -n 's/^held open: //p' "$R/$n.note" 2>/dev/null)
		nfs=$(grep '\.nfs[0-9a-f]*$' "$R/$n.left")
		# while held: no file of clyde's, the .nfs one named, exit 3
		[ -n "$held" ] && [ "$rc" != 124 ] &&
		    ! grep -v '/$' "$R/$n.left" | grep -qv '/\.nfs[0-9a-f]*$' &&
		    if [ -n "$nfs" ]; then
			[ "$rc" = 3 ] && grep -qF "${nfs##*/}" "$R/$n.err"
		    else
			[ "$rc" = 0 ] && [ ! -s "$R/$n.left" ]
		    fi
		ok $? "$1, --compat=$p: a file held open while deleted: no hang, clyde's files gone, the .nfs file named, exit 3" ||
		    why $n
		# once closed: what is left, clyde named
		[ -n "$held" ] && named $n left2 >"$WORK/named"
		ok $? "$1, --compat=$p: once the holder closed it, only what clyde named is left" ||
		    { cat "$WORK/named"; echo "left:"; cat "$R/$n.left2"; } | diag
		said $n
	done
	record b-bonnie++ "$1, a file held open"
}

# --- f: the directory phases alone ----------------------------------------

check_f() { # check_f LABEL
	n=f-2.00
	[ "$(rc_of $n)" = 0 ] && [ "$(nfields "$(tail -1 "$R/$n.out")")" = 50 ] &&
	    [ ! -s "$R/$n.left" ]
	ok $? "$1, --compat=2.00 -s 0 -n 0 --dirs=2:2:8: exit 0, nothing left in the export" ||
	    why $n
	# the rates and the directory reads, for the log
	py 'r = load(sys.argv[1])
print(sys.argv[2] + ": " + ", ".join("%s %s/s (%s reads)" % (p,
    r["tests"][p]["rate"], r["phases"][p]["readdir_passes"])
    for p in ("dir_create", "dir_stat", "dir_del", "ran_dir_create",
              "ran_dir_stat", "ran_dir_del")))' "$R/$n.json" "$1" 2>&1 | diag
	said $n
}

cases_f() {
	echo "ARGS='-s 0 -n 0 --dirs=2:2:8'"
	echo "case_a f-2.00 2.00"
}

# --- e: a hard mount, the server stopped; SIGINT twice ---------------------

check_e() { # check_e LABEL
	for p in 1.03 2.00; do
		n=e-$p
		[ "$(rc_of $n)" = 5 ] &&
		    grep -Eq "^clyde: .*$SCRATCH.* [0-9]+(\.[0-9]+)? ?(s|seconds?)\b" "$R/$n.err" &&
		    grep -Eq "/mnt/nfs/$SCRATCH" "$R/$n.err" && named $n left >"$WORK/named"
		ok $? "$1, --compat=$p --stall=3: server stopped: the stuck operation named, SIGINT twice: exit 5, the path to remove named" ||
		    { why $n; diag <"$WORK/named"; }
		said $n
	done
	record e-bonnie++ "$1, server stopped, SIGINT twice"
}

# the cases of case e, for the hard mount of NFSv3 on ext4
cases_e() {
	echo "ARGS='-s 0 -n 1'"
	echo "case_e e-1.03 1.03 --stall=3"
	echo "case_e e-2.00 2.00 --stall=3"
	[ -x "$BONNIE" ] && echo "case_e e-bonnie++ bonnie++"
}

# --- the groups, then what each recorded --------------------------------

for v in 3 4.2; do
	for fs in ext4 tmpfs; do
		g=v$v-$fs
		{
			# tmpfs skips names with 2048 files, not with 1024
			if [ $fs = ext4 ]; then
				echo "ARGS='-s 8 -n 1 -f'"
			else
				echo "ARGS='-s 8 -n 2 -f'"
			fi
			for_progs a ""
			if [ $fs = ext4 ]; then
				echo "ARGS='-s 0 -n 1'"
				for_progs b ""
			fi
			case $g in v3-ext4 | v4.2-tmpfs) cases_f ;; esac
			# last: it stops the server
			[ $g = v3-ext4 ] && cases_e
		} >"$WORK/$g.cases"
		case $g in
		v3-ext4) count=10 ;;
		*-ext4) count=7 ;;
		v4.2-tmpfs) count=6 ;;
		*) count=5 ;;
		esac
		group $g $count -v $v -f $fs -t $TMO
	done
done
# c and d, below
{
	echo "ARGS='-s 0 -n 1'"
	for_progs c ""
	for_progs d ""
} >"$WORK/v3-soft.cases"
# EIO a few seconds into d's 10 s outage, so that cleanup still finds the
# server away and waits (at timeo=20 the EIO came as the server returned,
# 12 s in, and nothing was left to wait for)
group v3-soft 5 -v 3 -f ext4 -o soft,timeo=10,retrans=1 -t $TMO
start_lanes

for v in 3 4.2; do
	for fs in ext4 tmpfs; do
		g=v$v-$fs
		boot $g || continue
		check_a "NFSv$v, $fs export" $fs
		[ $fs = ext4 ] && check_b "NFSv$v, $fs export"
		case $g in v3-ext4 | v4.2-tmpfs) check_f "NFSv$v, $fs export" ;; esac
		[ $g = v3-ext4 ] && check_e "NFSv3 hard mount"
	done
done

# --- c and d: a soft mount, the export or the server away for a while ----

check_c() { # check_c LABEL
	for p in 1.03 2.00; do
		n=c-$p
		[ "$(rc_of $n)" = 3 ] &&
		    [ "$(grep -Ec "$ERR" "$R/$n.err")" = 1 ] &&
		    grep -Eq "^clyde: $PHASE: .*$SCRATCH.*: $ERR\$" "$R/$n.err" &&
		    [ ! -s "$R/$n.left" ]
		ok $? "$1, --compat=$p: the export emptied on the server: exit 3, one message with the phase, the path and ESTALE or EIO, nothing left" ||
		    why $n
		said $n
	done
	record c-bonnie++ "$1, the export emptied on the server"
}

check_d() { # check_d LABEL
	for p in 1.03 2.00; do
		n=d-$p
		[ "$(rc_of $n)" = 3 ] &&
		    grep -Eq "^clyde: $PHASE: .*$SCRATCH.*: (Input/output error|Connection timed out)\$" "$R/$n.err" &&
		    grep -qi 'wait' "$R/$n.err" && [ ! -s "$R/$n.left" ]
		ok $? "$1, --compat=$p: server stopped for 10 s: exit 3, EIO named, clyde waits, nothing left" ||
		    why $n
		said $n
	done
	record d-bonnie++ "$1, server stopped for 10 s"
}

if boot v3-soft; then
	check_c "NFSv3 soft mount"
	check_d "NFSv3 soft mount"
fi

wait
lanes=
done_testing
