#!/bin/sh
# make check-cluster: clyde and clyde-mpi on a cluster of hosts on this
# machine, as root.  tests/root/cluster/hosts.sh builds three server hosts and
# three client hosts out of network, mount and UTS namespaces joined by a
# bridge in a namespace of their own: GlusterFS (a replica-3 volume at
# /mnt/cl and a distributed one at /mnt/cld, ping-timeout 5 s), MooseFS
# (a master and two chunk servers, /mnt/mfs, whose clients cache
# directory entries for 4 s) and sshd on every client host.  Every
# command runs inside a client host; the root namespace gets no address.
#   runs    clyde on cli1 against each volume in both profiles (-f in
#           the 2.00 profile: a write(2) per byte over FUSE takes
#           minutes); clyde-mpi with 3 ranks on cli1..cli3 against each
#           volume: one CSV line with concurrency 3, every rank's host in
#           the JSON; after each, nothing of clyde's seen from cli2;
#           --shift=1 and --shift=0 on /mnt/cl and /mnt/mfs, the read
#           rates of both and the skew lines as diagnostics; --dirs
#           on the distributed volume, clyde on cli1 and clyde-mpi
#           --dirs-shared on cli1..cli3: nothing left, the rates of the
#           six directory phases as diagnostics
#   faults  each on a run of its own (--compat=2.00), every run under a
#           hard timeout: a replica brick killed, a replica brick stopped
#           (SIGSTOP) longer than the ping-timeout, a distributed brick
#           killed and restarted, a MooseFS chunk server killed, cli3's
#           link taken down during a clyde-mpi run (the ranks still
#           heard from stop, rank 0 names rank 2, cli3 and what rank 2
#           may leave), glusterd restarted during the small-file phases,
#           a distributed brick killed during the directory phases and
#           restarted (exit 0 or 3 with the phase named; nothing left)
# bonnie++ 2.00a (/usr/sbin/bonnie++), when installed, runs on every
# volume and through every fault once, for the record: its outcome is a
# diagnostic line, never a test.  The time of each part is a diagnostic
# too.  Skipped (not failed) where the cluster cannot be built: not root,
# no network namespaces, a program missing (hosts.sh check says which).
# A case that fails says why in diagnostics: the exit status, what is
# left, clyde's lines (after clyde-mpi each rank's, from its own stderr).
# Everything is taken down at the end, also on failure and SIGINT, and
# the last test checks that nothing is left: no namespace, no process of
# a host, no loop device, no state directory.
. "$(dirname "$0")/../lib.sh"

H=$(pwd)/tests/root/cluster/hosts.sh
case $CLYDE in /*) ;; *) CLYDE=$(pwd)/$CLYDE ;; esac
MPI=$(pwd)/clyde-mpi
BONNIE=/usr/sbin/bonnie++
# the hard limit on any one run; a run that reaches it has hung
T=${RUN_TIMEOUT:-150}
export ST="$WORK/cluster"

# not root, no network namespaces, a program missing
if ! why=$("$H" check); then
	skip "no cluster here: $why" all
fi
if [ ! -x "$MPI" ]; then
	skip "no clyde-mpi (make mpi needs Open MPI's mpicc)" all
fi
[ -x "$BONNIE" ] || echo "no $BONNIE: no runs of bonnie++ for the record" | diag

UP=
teardown() {
	if [ -n "$UP" ]; then
		"$H" down >"$WORK/down.log" 2>&1 || diag <"$WORK/down.log"
	fi
	rm -rf --one-file-system "$WORK"
}
trap teardown EXIT
trap stopped INT TERM

clock() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(clock)" -v w="$2" 'BEGIN { printf "%s: %.1f s\n", w, b - a }' | diag; }
on() { "$H" exec "$@"; }

# Every run is in the background under timeout, which makes it a process
# group of its own (hosts.sh execs into it): $pid is that group.  A SIGINT
# or SIGTERM to the test is passed on to the run, whose cleanup then
# races with the teardown (EXIT) that stops every process of the hosts.
pid=
bg_run() { # bg_run HOST ARGS...
	start=$(clock)
	rm -rf "$WORK/ranks"
	rh=$1
	shift
	on "$rh" timeout -k 5 "$T" "$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
}
bg_clyde() { h=$1; shift; bg_run "$h" "$CLYDE" -u root -m "$h" -r 0 --progress=never "$@"; }
bg_bonnie() { h=$1; shift; bg_run "$h" "$BONNIE" -u root -m "$h" "$@"; }
# clyde-mpi, 3 ranks from cli1, as the user of the cluster would run it;
# mpirun also keeps each rank's output apart, in $WORK/ranks, for why()
bg_mpirun() { # bg_mpirun ARGS...
	start=$(clock)
	rm -rf "$WORK/ranks"
	timeout -k 5 "$T" "$H" mpirun --output-filename "$WORK/ranks" -np 3 \
	    "$MPI" -u root -m cluster -r 0 "$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
}
bg_mpi() { bg_mpirun -q --compat=2.00 "$@"; }

running() { case $(ps -o stat= -p "$1" 2>/dev/null) in '' | Z*) false ;; esac; }

# wait_text ERE SECS: in the run's output, while it runs
wait_text() {
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		cat "$WORK/out" "$WORK/err" 2>/dev/null | grep -Eq "$1" && return 0
		running "$pid" || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# the end of the background run: $rc and $secs (from its start)
finish() {
	wait "$pid"
	rc=$?
	pid=
	secs=$(awk -v a="$start" -v b="$(clock)" 'BEGIN { printf "%.0f", b - a }')
}

stopped() {
	[ -n "$pid" ] && kill -INT -- "-$pid" 2>/dev/null
	exit 1
}

# the entries of a volume as cli2 sees them: the test's other client
left_on() { on cli2 ls -A "$1"; }

# why [VOL]: the run's exit status, what is on VOL, clyde's lines (after
# clyde-mpi each rank's, from its own stderr), then the end of the rest of
# the run's stderr without the table (-q puts it there): mpirun's words
why() {
	{
		echo "exit status $rc"
		[ -z "$1" ] || echo "on $1 now: $(left_on "$1" | tr '\n' ' ')"
		if [ -d "$WORK/ranks" ]; then
			for f in "$WORK"/ranks/*/rank.*/stderr; do
				r=${f%/stderr}
				r="rank ${r##*rank.}'s stderr"
				[ -f "$f" ] && sed -n "s/^clyde: /$r: &/p" "$f"
			done
		else
			grep '^clyde: ' "$WORK/err"
		fi | grep -v 'running as root' | head -30
		grep -v '^clyde: \|^   \|^-*$\|%CP\|^Version \|^Name:Size \|^Latency ' \
		    "$WORK/err" | grep -v '^cluster \|^cli[0-9] ' | tail -8
	} | diag
}

# clear VOL: empty VOL for the next run, from cli1, until cli2 sees it
# empty (it stops trying after 60 s, and a diagnostic names what stayed).
# After a fault a replica brick can hold an entry the others lack: cli1's
# readdir need not list it, rm then fails on its directory, and a later
# lookup heals the entry back into view.
clear_vol() {
	cv_start=$(clock)
	while :; do
		on cli1 timeout 30 sh -c "rm -rf $1/*" 2>/dev/null
		[ -z "$(left_on "$1")" ] && return 0
		cv_secs=$(awk -v a="$cv_start" -v b="$(clock)" 'BEGIN { printf "%.0f", b - a }')
		[ "$cv_secs" -ge 60 ] && break
		sleep 1
	done
	echo "$1 still holds after $cv_secs s: $(left_on "$1" | tr '\n' ' ')" | diag
}
said() { grep '^clyde: ' "$WORK/err" | grep -v 'running as root' | diag; }

# a run of clyde on HOST: out, err and $rc
crun() { # crun HOST ARGS...
	bg_clyde "$@"
	finish
}

bonnie_said() { # bonnie_said WHAT DIR T0
	n=$(left_on "$2" | grep -c .)
	echo "bonnie++ $1: exit $brc$([ $brc = 124 ] && echo ' (timed out)'), $n entries left$(
	    grep -m1 -i 'error\|can.t\|cannot' "$WORK/bout" | sed 's/^/; /')" | diag
	took "$3" "bonnie++ $1"
	# what bonnie++ left, out of the way of the next run
	clear_vol "$2"
}

# bonnie_through WHAT HOST DIR ERE FAULT AFTER ARGS...: bonnie++ on HOST
# in DIR, the function FAULT once ERE shows in its output (none when ERE
# is empty), AFTER when it has ended; its outcome is a diagnostic
bonnie_through() {
	[ -x "$BONNIE" ] || return 0
	bw=$1 bh=$2 bd=$3 be=$4 bf=$5 ba=$6
	shift 6
	bg_bonnie "$bh" -d "$bd" "$@"
	[ -z "$be" ] || { wait_text "$be" 30 && $bf; }
	finish
	$ba
	brc=$rc
	cat "$WORK/out" "$WORK/err" >"$WORK/bout"
	bonnie_said "$bw" "$bd" "$start"
}
fields() { case $1 in 2.00) echo 50 ;; *) echo 27 ;; esac; }

# --- the cluster ---------------------------------------------------------

t0=$(clock)
UP=1
if ! "$H" up >"$WORK/up.log" 2>&1; then
	UP=
	tail -5 "$WORK/up.log" | diag
	echo "Bail out! the cluster did not come up"
	exit 1
fi
ok 0 "up: 3 server hosts, 3 client hosts, replica-3 and distributed GlusterFS, MooseFS, sshd, each volume read from all clients"
took "$t0" "up"
# every address is inside the namespaces made for the cluster
other_addresses() {
	ip netns list | awk '{ print $1 }' | grep "^$(sed -n 's/^P=//p' "$ST/config")-" |
	    while read -r n; do
		ip -n "$n" -o -4 addr show scope global | awk '{ print $4 }' |
		    grep -v '^10\.233\.0\.[0-9]*/24$'
	    done
}
[ -z "$(other_addresses)" ] && [ -z "$(on cli1 ip route show default)" ] &&
    ! ip -o -4 addr show | grep -q '10\.233\.'
ok $? "addresses: only 10.233.0.0/24 inside the cluster's namespaces, no default route, none here"

VOLS="/mnt/cl /mnt/cld /mnt/mfs"

# --- runs: one client --------------------------------------------------------

t0=$(clock)
for v in $VOLS; do
	for p in 1.03 2.00; do
		f=
		[ $p = 2.00 ] && f=-f
		crun cli1 -d $v -q --compat=$p $f -s 8 -n 1
		line=$(tail -1 "$WORK/out")
		[ "$rc" = 0 ] && [ "$(grep -c , "$WORK/out")" = 1 ] &&
		    [ "$(nfields "$line")" = "$(fields $p)" ] &&
		    printf '%s\n' "$line" | "$CLYDE" report --json | grep -q '"name": "cli1"' &&
		    [ -z "$(left_on $v)" ]
		ok $? "$v: clyde --compat=$p on cli1: exit 0, $(fields $p) fields that parse, nothing left seen from cli2" ||
		    why $v
	done
	bonnie_through "on $v" cli1 $v "" : : -s 8 -r 4 -n 1 -f -q
done
took "$t0" "clyde on one client, both profiles"

# --- runs: three clients ------------------------------------------------------

t0=$(clock)
for v in $VOLS; do
	bg_mpi -d $v -f -s 8 -n 1 --json="$WORK/mpi.json"
	finish
	line=$(tail -1 "$WORK/out")
	hosts=$(grep -o '"rank": [0-9]*, "host": "[^"]*"' "$WORK/mpi.json" 2>/dev/null |
	    sed 's/.*"host": "//; s/"$//' | sort | tr '\n' ' ')
	[ "$rc" = 0 ] && [ "$(grep -c , "$WORK/out")" = 1 ] &&
	    [ "$(nfields "$line")" = 50 ] && [ "$(field "$line" 4)" = 3 ] &&
	    [ "$hosts" = "cli1 cli2 cli3 " ] && [ -z "$(left_on $v)" ]
	ok $? "$v: clyde-mpi, 3 ranks on cli1..cli3: one CSV line, concurrency 3, the hosts cli1 cli2 cli3 in the JSON, nothing left seen from cli2" ||
	    { why $v; echo "hosts in the JSON: $hosts" | diag; }
	rm -f "$WORK/mpi.json"
done
took "$t0" "clyde-mpi on three clients"

# --shift: rank r reads back what rank (r + 1) mod 3 wrote, its data
# files and its small files (the stat phases, in that rank's directory),
# the default across hosts, and --shift=0, each rank its own, on the
# replica volume and on MooseFS: both leave nothing, and the JSON says
# which rank read whose files.  Without -q: the skew lines, and the read
# rates of both (large files and small), are diagnostics for the record
# (a client's cache shows as a large difference between them), never
# tests.
t0=$(clock)
for v in /mnt/cl /mnt/mfs; do
	for s in 1 0; do
		rm -f "$WORK/shift.json"
		bg_mpirun --progress=never --compat=2.00 -d $v -f -s 16 -n 1 \
		    --shift=$s --json="$WORK/shift.json"
		finish
		[ "$rc" = 0 ] && [ -z "$(left_on $v)" ] &&
		    python3 - "$WORK/shift.json" $s <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = int(sys.argv[2])
assert r["options"]["shift"] == s, r["options"]
assert [k["read_from"] for k in r["ranks"]] == [(k["rank"] + s) % 3 for k in r["ranks"]], r["ranks"]
assert sorted(k["host"] for k in r["ranks"]) == ["cli1", "cli2", "cli3"], r["ranks"]
for n, p in r["phases"].items():
    assert p is None or p["skew"] >= 1, (n, p)
PY
		ok $? "$v: clyde-mpi --shift=$s, 3 ranks on cli1..cli3: read_from = rank + $s, skew >= 1, nothing left seen from cli2" ||
		    why $v
		python3 - "$WORK/shift.json" "$v --shift=$s ($secs s)" <<'PY' 2>/dev/null | diag
import json, sys
r = json.load(open(sys.argv[1]))
t = r["tests"]
def fig(n):
    p = r["phases"][n]
    first = p["first_done_rate"]
    return "%s %.0f%s (first done %s, skew %.2f)" % (n, t[n]["rate"],
        "/s" if n in ("seeks", "seq_stat", "ran_stat") else " K/s",
        "-" if first is None else "%.0f" % first, p["skew"])
print("%s: %s" % (sys.argv[2], "; ".join(fig(n) for n in
    ("rewrite", "get_block", "seeks", "seq_stat", "ran_stat"))))
PY
		grep '^clyde: .*: skew ' "$WORK/err" | sed "s|^|$v --shift=$s: |" | diag
	done
done
took "$t0" "clyde-mpi --shift=1 and --shift=0"

# --dirs on the distributed volume, where every directory is made on
# every brick: clyde on cli1, its own tree, and clyde-mpi on cli1..cli3,
# --dirs-shared: 8 parents made by rank 0, 1016 directories a rank in
# them.  The rates of the six phases are diagnostics.
dir_rates() { # dir_rates JSON WHAT
	python3 - "$1" "$2" <<'PY' 2>/dev/null | diag
import json, sys
r = json.load(open(sys.argv[1]))
print("%s: %s" % (sys.argv[2], ", ".join("%s %s/s" % (n, r["tests"][n]["rate"])
    for n in ("dir_create", "dir_stat", "dir_del", "ran_dir_create",
              "ran_dir_stat", "ran_dir_del"))))
PY
}
t0=$(clock)
rm -f "$WORK/dirs.json"
crun cli1 -d /mnt/cld -q --compat=2.00 -s 0 -n 0 --dirs=1:2:8 --json="$WORK/dirs.json"
[ "$rc" = 0 ] && [ "$(nfields "$(tail -1 "$WORK/out")")" = 50 ] &&
    [ -z "$(left_on /mnt/cld)" ] && python3 - "$WORK/dirs.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for n in ("dir_create", "dir_stat", "dir_del", "ran_dir_create", "ran_dir_stat", "ran_dir_del"):
    assert r["phases"][n]["ops"] == 1024, n
PY
ok $? "/mnt/cld: clyde --dirs=1:2:8 on cli1: exit 0, the directory phases measured, nothing left seen from cli2" ||
    why /mnt/cld
dir_rates "$WORK/dirs.json" "/mnt/cld clyde --dirs=1:2:8 on cli1 ($secs s)"
rm -f "$WORK/dirs.json"
bg_mpi -d /mnt/cld -s 0 -n 0 --dirs=1:2:8 --dirs-shared --json="$WORK/dirs.json"
finish
[ "$rc" = 0 ] && [ -z "$(left_on /mnt/cld)" ] && python3 - "$WORK/dirs.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["dirs"]["shared"] is True, r["dirs"]
assert sorted(k["host"] for k in r["ranks"]) == ["cli1", "cli2", "cli3"], r["ranks"]
for n in ("dir_create", "dir_stat", "dir_del", "ran_dir_create", "ran_dir_stat", "ran_dir_del"):
    assert [k["phases"][n]["ops"] for k in r["ranks"]] == [1016] * 3, n
PY
ok $? "/mnt/cld: clyde-mpi --dirs=1:2:8 --dirs-shared, 3 ranks on cli1..cli3: 1016 directories a rank in the shared parents, nothing left seen from cli2" ||
    why /mnt/cld
dir_rates "$WORK/dirs.json" "/mnt/cld clyde-mpi --dirs=1:2:8 --dirs-shared, 3 ranks ($secs s)"
took "$t0" "--dirs on the distributed volume"

# --- faults -----------------------------------------------------------------

WRITING='Writing intelligently'
CREATING='Create files in sequential order'

kill_brick() { kill -KILL $("$H" brick "$1" "$2") 2>/dev/null; }

# 1. a replica brick killed in the middle of the block write, restarted
# after the run
fault_replica_kill() { sleep 1; kill_brick clvol srv2; }
after_replica_kill() { "$H" restart-brick clvol; }
# 2. a replica brick stopped for 8 s, past the ping-timeout of 5 s
fault_replica_stop() {
	sleep 1
	b=$("$H" brick clvol srv3)
	kill -STOP $b
	sleep 8
	kill -CONT $b
}
after_replica_stop() { :; }

t0=$(clock)
for f in replica_kill replica_stop; do
	case $f in
	replica_kill) what="a replica brick (srv2) killed during the block write" ;;
	replica_stop) what="a replica brick (srv3) stopped for 8 s (ping-timeout 5 s) during the block write" ;;
	esac
	bg_clyde cli1 -d /mnt/cl --compat=2.00 -f -s 64 -n 0
	wait_text "$WRITING" 30 && fault_$f
	finish
	after_$f
	# A stopped brick: the fsync at the block write's close (2.00a's
	# too) may be sent while the client still waits on it, and GlusterFS
	# then answers ENOTCONN, now and then: the run names it and ends
	# (exit 3), which is the filesystem's answer, not a hang or a loss.
	ended_naming_enotconn() {
		[ "$f" = replica_stop ] && [ "$rc" = 3 ] &&
		    grep -q '^clyde: block write: .*: fsync: Transport endpoint is not connected$' "$WORK/err"
	}
	{ { [ "$rc" = 0 ] && [ "$(nfields "$(tail -1 "$WORK/out")")" = 50 ]; } ||
	    ended_naming_enotconn; } && [ -z "$(left_on /mnt/cl)" ]
	ok $? "/mnt/cl, $what: the run completes (exit $rc in $secs s), or names the filesystem's ENOTCONN; nothing left" ||
	    why /mnt/cl
	said
	bonnie_through "$what" cli1 /mnt/cl "$WRITING" fault_$f after_$f \
	    -s 64 -r 8 -n 0 -f
done
took "$t0" "replica faults"

# 3. a distributed brick killed during sequential create, restarted 5 s
# after clyde reports the error: its cleanup waits and then removes all
t0=$(clock)
what="a distributed brick (srv2) killed during sequential create, restarted"
bg_clyde cli1 -d /mnt/cld --compat=2.00 -s 0 -n 4 --cleanup-wait=60
wait_text "$CREATING" 30 && sleep 0.5 && kill_brick cldist srv2
killed=$(clock)
wait_text 'waiting up to 60 s' 30
errsecs=$(awk -v a="$killed" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }')
sleep 5
"$H" restart-brick cldist
finish
left=$(left_on /mnt/cld)
[ "$rc" = 3 ] &&
    grep -Eq "^clyde: sequential create: $SCRATCH/files/[0-9A-Za-z]+: [a-z]+: (Transport endpoint is not connected|No such file or directory)\$" "$WORK/err" &&
    grep -q "^clyde: cleanup: .*waiting up to 60 s" "$WORK/err" &&
    { [ -z "$left" ] || grep -q "remove it with: rm -rf '/mnt/cld/$left'\$" "$WORK/err"; }
ok $? "/mnt/cld, $what: exit 3, the error named, cleanup waiting ${errsecs} s after the kill, what is left named" ||
    why
# While the brick is down, DHT answers unlink of a file on it with
# ENOENT and leaves the file; rmdir fails, ENOTCONN and, once the brick
# is back, ENOTEMPTY: cleanup, having waited, removes clyde's names again.
[ -z "$left" ]
ok $? "/mnt/cld, $what: once the brick is back, nothing left" || why /mnt/cld
clear_vol /mnt/cld
said
dist_fault() {
	sleep 0.5
	kill_brick cldist srv2
	sleep 5
	"$H" restart-brick cldist
}
bonnie_through "$what" cli1 /mnt/cld "$CREATING" dist_fault : -s 0 -n 4
# what bonnie++ left through the fault is not the next case's to find
clear_vol /mnt/cld
took "$t0" "distributed brick"

# 3b. the same brick killed during the directory phases: a directory is
# on every brick, so mkdir, stat and rmdir all meet the brick that is
# down (ENOTCONN, or ENOENT where DHT no longer finds a name).  The run
# completes or names the phase and ends with exit 3, cleanup waiting for
# the brick; restarted 5 s later, nothing is left.
t0=$(clock)
what="a distributed brick (srv2) killed during the directory create, restarted"
bg_clyde cli1 -d /mnt/cld --compat=2.00 -s 0 -n 0 --dirs=4:2:8 --cleanup-wait=60
wait_text 'Create directories in tree order' 30 && sleep 0.5 && kill_brick cldist srv2
wait_text 'waiting up to 60 s' 30
sleep 5
"$H" restart-brick cldist
finish
left=$(left_on /mnt/cld)
{ [ "$rc" = 0 ] || { [ "$rc" = 3 ] &&
    grep -Eq "^clyde: (random )?directory (create|stat|delete): $SCRATCH/dirs[/0-9a-f.]*: [a-z]+: [A-Z][a-z ]+\$" "$WORK/err"; }; } &&
    [ -z "$left" ]
ok $? "/mnt/cld, $what: exit $rc in $secs s (0, or 3 naming the phase and the directory), nothing left once the brick is back" ||
    { why; echo "left: $left" | diag; }
[ -z "$left" ] || clear_vol /mnt/cld
said
took "$t0" "distributed brick, directory phases"

# 4. a MooseFS chunk server killed during the block write, started again
# once the run has ended
t0=$(clock)
what="a MooseFS chunk server (srv3) killed during the block write"
cs_kill() { sleep 1; kill -KILL $("$H" pid srv3 mfschunkserver) 2>/dev/null; }
cs_start() { "$H" restart-chunkserver srv3 >/dev/null 2>&1; }
bg_clyde cli1 -d /mnt/mfs --compat=2.00 -f -s 32 -n 0 --cleanup-wait=30
wait_text "$WRITING" 30 && cs_kill
finish
cs_start
[ "$rc" != 124 ] && [ "$rc" != 137 ] &&
    { [ "$rc" = 0 ] || { [ "$rc" = 3 ] && grep -q '^clyde: ' "$WORK/err"; }; } &&
    [ -z "$(left_on /mnt/mfs)" ]
ok $? "/mnt/mfs, $what: no hang (exit $rc in $secs s), nothing left" || why /mnt/mfs
said
bonnie_through "$what" cli1 /mnt/mfs "$WRITING" cs_kill cs_start \
    -s 32 -r 8 -n 0 -f
took "$t0" "MooseFS chunk server"

# 5. cli3's link down during a clyde-mpi run on the replica volume,
# --stall=4: rank 2 is not heard from, and the ranks waiting for it after
# the phase give the run up.  The link stays down for 12 s, and longer
# until ranks 0 and 1 have ended (30 s at most): their own calls on the
# volume may wait for cli3 first (they did for about 10 s here).
t0=$(clock)
what="cli3's link down during a clyde-mpi run (--stall=4)"
bg_mpi -d /mnt/cl -f -s 8 -n 1 --stall=4
# -q: no progress lines; the small files of rank 0 show the phase
on cli1 timeout 60 sh -c 'until ls -d /mnt/cl/clyde.*/files >/dev/null 2>&1; do sleep 0.2; done'
sleep 1
"$H" link cli3 down
down_at=$(clock)
# rank 0's line, then ranks 0 and 1 gone, all while the link is down
LOST='^clyde: rank 2 \(cli3\) has not answered for [0-9]+ s: stopping'
wait_text "$LOST" 30
told=$(awk -v a="$down_at" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }')
until [ -z "$("$H" pid cli1 clyde-mpi)$("$H" pid cli2 clyde-mpi)" ] ||
    [ "$(awk -v a="$down_at" -v b="$(clock)" 'BEGIN { print (b - a >= 30) }')" = 1 ]; do
	sleep 0.2
done
gone=$(awk -v a="$down_at" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }')
live=$("$H" pid cli1 clyde-mpi)$("$H" pid cli2 clyde-mpi)
mpirun_after=$(running $pid && echo running || echo ended)
while [ "$(awk -v a="$down_at" -v b="$(clock)" 'BEGIN { print (b - a < 12) }')" = 1 ]; do
	sleep 0.2
done
"$H" link cli3 up
up_at=$(clock)
finish
echo "rank 0's line ${told} s after the link went down; ranks 0 and 1 gone at ${gone} s; mpirun then $mpirun_after, ended $(awk -v a="$up_at" -v b="$(clock)" 'BEGIN { printf "%.0f", b - a }') s after the link was back (exit $rc)" | diag
[ -z "$live" ] && [ "$(grep -Ec "$LOST" "$WORK/err")" = 1 ] &&
    grep -q '^clyde: stopped by rank 0: rank 2 (cli3) has not answered' "$WORK/err"
ok $? "/mnt/cl, $what: while the link is down ranks 0 and 1 stop, rank 0 naming rank 2 and cli3 in one line" ||
    why
# the link back: what is left is rank 2's directory at most, and named
left=$(left_on /mnt/cl)
[ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$rc" != 137 ] &&
    { [ -z "$left" ] ||
    { [ "$(echo "$left" | wc -l)" = 1 ] && grep -Eq "$LOST; what it made may be left: rm -rf '/mnt/cl/$left'\$" "$WORK/err"; }; }
ok $? "/mnt/cl, $what: the link back, the run has ended (exit $rc), what is left is rank 2's and named" ||
    { why; echo "left: $left" | diag; }
clear_vol /mnt/cl
said
cut_cli3() {
	sleep 0.5
	"$H" link cli3 down
	sleep 12
	"$H" link cli3 up
}
bonnie_through "cli3's link down for 12 s (bonnie++ on cli3)" cli3 /mnt/cl \
    "$CREATING" cut_cli3 : -s 0 -n 4
took "$t0" "link down"

# 6. glusterd of srv1 (the volfile server of the mounts) restarted during
# the small-file phases: the bricks and the mounts go on without it
t0=$(clock)
what="glusterd of srv1 restarted during sequential create"
bg_clyde cli1 -d /mnt/cl --compat=2.00 -s 0 -n 1
wait_text "$CREATING" 30 && "$H" restart-glusterd srv1
finish
[ "$rc" = 0 ] && [ "$(nfields "$(tail -1 "$WORK/out")")" = 50 ] &&
    [ -z "$(left_on /mnt/cl)" ]
ok $? "/mnt/cl, $what: the run completes (exit 0 in $secs s), nothing left" ||
    why /mnt/cl
said
bonnie_through "$what" cli1 /mnt/cl "$CREATING" "$H restart-glusterd srv1" : \
    -s 0 -n 1
took "$t0" "glusterd restart"

# --- down ----------------------------------------------------------------

t0=$(clock)
P=$(sed -n 's/^P=//p' "$ST/config")
cat "$ST"/*/mntns >"$WORK/mntns"
UP=
"$H" down >"$WORK/down.log" 2>&1
drc=$?
# a process still in a host's mount namespace?
inside=$(find /proc/[0-9]*/ns/mnt -maxdepth 0 -printf '%l\n' 2>/dev/null |
    grep -cxFf "$WORK/mntns")
[ $drc = 0 ] && [ ! -e "$ST" ] && ! ip netns list | grep -q "^$P-" &&
    ! losetup -a | grep -qF "($ST/" && [ "$inside" = 0 ]
ok $? "down: no namespace, no process of a host, no loop device, no state directory left" ||
    diag <"$WORK/down.log"
took "$t0" "down"

done_testing
